// core/number_format.h — numbers for people: three significant digits, so
// that a rate or ratio below 1 reads "0.0612", not "0" (bench, the overlay,
// the VD memory report).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace strata {

// 3403 -> "3403", 12.34 -> "12.3", 0.857 -> "0.857", 0.06123 -> "0.0612",
// 0 -> "0"; whole digits are never dropped.
inline std::string threeDigits(double v) {
    char s[48];
    const double a = std::fabs(v);
    if (a == 0 || !std::isfinite(v))
        std::snprintf(s, sizeof s, "%g", v);
    else if (a >= 100)
        std::snprintf(s, sizeof s, "%.0f", v);
    else
        std::snprintf(s, sizeof s, "%.*f", std::max(0, 2 - int(std::floor(std::log10(a)))), v);
    return s;
}

}  // namespace strata
