#include "scene/data_folder.h"

#include <cstdlib>
#include <filesystem>

#include "core/error.h"

namespace fs = std::filesystem;

namespace strata {
namespace {

std::string& overrideFolder() {
    static std::string dir;
    return dir;
}

}  // namespace

void setDataFolder(const std::string& dir) { overrideFolder() = dir; }

std::string dataFolder() {
    if (!overrideFolder().empty()) return overrideFolder();
    if (const char* env = std::getenv("STRATA_DATA"); env && *env) return env;
    return kDefaultDataFolder;
}

std::string dataFolderOrigin() {
    if (!overrideFolder().empty()) return "--data";
    if (const char* env = std::getenv("STRATA_DATA"); env && *env) return "STRATA_DATA";
    return "the default";
}

bool isDataPath(const std::string& path) { return path.rfind(kDataPrefix, 0) == 0; }

std::string resolveDataPath(const std::string& path) {
    const std::string name = path.substr(std::string(kDataPrefix).size());
    if (name.empty()) throw Error("'" + path + "': expected a file name after \"data:\"");
    const std::string dir = dataFolder();
    const std::string full = (fs::path(dir) / name).lexically_normal().string();
    std::error_code ec;
    if (!fs::is_regular_file(full, ec))
        throw Error("'" + path + "': " + name + " is not in the data folder " + dir + " (" + dataFolderOrigin() +
                    "; set it with --data DIR or STRATA_DATA). Get " + name +
                    " as docs/scene-format.md, \"Data folder\", says");
    return full;
}

}  // namespace strata
