#include "app/install_paths.h"

#include <filesystem>
#include <system_error>

namespace strata {

namespace fs = std::filesystem;

std::string executableDir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : exe.parent_path().string();
}

std::string installedDataPath(const std::string& subpath, const std::string& sourceDir) {
    std::error_code ec;
    const std::string exeDir = executableDir();
    if (!exeDir.empty()) {
        const fs::path installed = fs::path(exeDir) / ".." / "share" / "strata" / subpath;
        if (fs::exists(installed, ec)) return installed.lexically_normal().string();
    }
    const fs::path source = fs::path(sourceDir) / subpath;
    if (!sourceDir.empty() && fs::exists(source, ec)) return source.string();
    return subpath;
}

}  // namespace strata
