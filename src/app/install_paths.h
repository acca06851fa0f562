// app/install_paths.h — where the viewer finds its shaders and its default
// config: beside an installed executable (PREFIX/bin/strata finds
// PREFIX/share/strata/...), else in the source tree a development build was
// made from, else in the working directory (a binary carried to another
// machine and run from a checkout). STRATA_SHADER_DIR overrides the shaders.
#pragma once

#include <string>

namespace strata {

// The folder of the running executable ("" when it cannot be read).
std::string executableDir();

// The first of: EXE_DIR/../share/strata/SUBPATH, SOURCE_DIR/SUBPATH (the
// compiled-in source tree), SUBPATH; the last when none exists.
std::string installedDataPath(const std::string& subpath, const std::string& sourceDir);

}  // namespace strata
