// scene/data_folder.h — where scene files find models that are not in the
// repository (the Dabrovic Sponza, the Conference room): a mesh path
// "data:FILE" names FILE in the data folder. The folder is, in order: the
// one set by --data (setDataFolder), $STRATA_DATA, or ../shared/testdata
// relative to the working directory (the repository root's sibling).
#pragma once

#include <string>

namespace strata {

constexpr const char* kDataPrefix = "data:";
constexpr const char* kDefaultDataFolder = "../shared/testdata";

// --data DIR; an empty string goes back to $STRATA_DATA or the default.
void setDataFolder(const std::string& dir);
std::string dataFolder();
// How dataFolder() was chosen, for messages: "--data", "STRATA_DATA" or "the default".
std::string dataFolderOrigin();

// True for "data:FILE" paths.
bool isDataPath(const std::string& path);
// The file a "data:FILE" path names; throws strata::Error naming the file,
// the folder and how to set it when the file is not there.
std::string resolveDataPath(const std::string& path);

}  // namespace strata
