// core/error.h — the one error type. Library code throws strata::Error with a
// message that names the file, line or field and what was expected; only the
// executables turn it into a message and an exit code.
#pragma once

#include <stdexcept>
#include <string>

namespace strata {

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace strata
