# Finds the Debian-packaged dependencies (installed by scripts/setup.sh).
# No third-party source lives in this repository: header-only libraries are
# used from /usr/include, and the one translation unit that instantiates each
# implementation (stb_image, tinyobjloader) is in src/scene.

find_package(Threads REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(GTest REQUIRED)

find_path(STB_INCLUDE_DIR stb/stb_image.h REQUIRED)
find_path(TINYOBJ_INCLUDE_DIR tiny_obj_loader.h REQUIRED)
find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)

add_library(strata_deps_headers INTERFACE)
target_include_directories(strata_deps_headers SYSTEM INTERFACE
  ${STB_INCLUDE_DIR} ${TINYOBJ_INCLUDE_DIR} ${CLI11_INCLUDE_DIR})
target_link_libraries(strata_deps_headers INTERFACE nlohmann_json::nlohmann_json)
