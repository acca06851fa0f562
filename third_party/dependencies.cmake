# Finds the Debian-packaged dependencies (installed by scripts/setup.sh).
# No third-party source lives in this repository: header-only libraries are
# used from /usr/include, and the one translation unit that instantiates each
# implementation (stb_image, tinyobjloader, tinygltf) is in src/scene. libjpeg-turbo and
# zlib are the compiled libraries, linked statically.

find_package(Threads REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(GTest REQUIRED)

find_path(STB_INCLUDE_DIR stb/stb_image.h REQUIRED)
find_path(TINYOBJ_INCLUDE_DIR tiny_obj_loader.h REQUIRED)
find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)
find_path(TINYGLTF_INCLUDE_DIR tiny_gltf.h REQUIRED)

# libjpeg-turbo (libjpeg62-turbo-dev) decodes JPEG textures (src/scene/jpeg_decode.cpp);
# linked statically, so the binaries run on machines that lack it.
find_path(JPEG_INCLUDE_DIR jpeglib.h REQUIRED)
find_library(JPEG_STATIC_LIBRARY NAMES libjpeg.a REQUIRED)

# zlib (zlib1g-dev) inflates ZIP-compressed OpenEXR images (src/scene/exr_read.cpp);
# linked statically as well.
find_path(ZLIB_INCLUDE_DIR zlib.h REQUIRED)
find_library(ZLIB_STATIC_LIBRARY NAMES libz.a REQUIRED)

add_library(strata_deps_headers INTERFACE)
target_include_directories(strata_deps_headers SYSTEM INTERFACE
  ${STB_INCLUDE_DIR} ${TINYOBJ_INCLUDE_DIR} ${TINYGLTF_INCLUDE_DIR} ${CLI11_INCLUDE_DIR} ${JPEG_INCLUDE_DIR} ${ZLIB_INCLUDE_DIR})
target_link_libraries(strata_deps_headers INTERFACE nlohmann_json::nlohmann_json ${JPEG_STATIC_LIBRARY}
  ${ZLIB_STATIC_LIBRARY})

# --- Viewer dependencies (optional: without them only strata-cli is built) ---
# GLFW and Dear ImGui (libimgui.a holds the GLFW and OpenGL3 backends) from
# Debian; the GL loader is generated at build time by glad 2 from the Khronos
# specification bundled with python3-glad (--reproducible: no network).
find_package(glfw3 3.3 QUIET)
find_path(IMGUI_INCLUDE_DIR imgui.h PATH_SUFFIXES imgui)
find_library(IMGUI_LIBRARY NAMES imgui)
# Debian's libimgui.a leaves its stb_truetype / stb_rect_pack to libstb.
find_library(STB_LIBRARY NAMES libstb.a stb)
find_program(GLAD_EXECUTABLE glad)
if(STRATA_VIEWER AND glfw3_FOUND AND IMGUI_INCLUDE_DIR AND IMGUI_LIBRARY AND STB_LIBRARY AND GLAD_EXECUTABLE)
  set(STRATA_HAVE_VIEWER ON)
  set(GLAD_OUT ${CMAKE_BINARY_DIR}/glad)
  add_custom_command(
    OUTPUT ${GLAD_OUT}/src/gl.c ${GLAD_OUT}/include/glad/gl.h
    COMMAND ${GLAD_EXECUTABLE} --api gl:core=4.5 --out-path ${GLAD_OUT} --reproducible --quiet c
    COMMENT "Generating the OpenGL 4.5 core loader with glad"
    VERBATIM)
  add_library(strata_glad STATIC ${GLAD_OUT}/src/gl.c)
  target_include_directories(strata_glad SYSTEM PUBLIC ${GLAD_OUT}/include)
  add_library(strata_imgui INTERFACE)
  target_include_directories(strata_imgui SYSTEM INTERFACE ${IMGUI_INCLUDE_DIR} ${IMGUI_INCLUDE_DIR}/backends)
  target_link_libraries(strata_imgui INTERFACE ${IMGUI_LIBRARY} ${STB_LIBRARY} glfw ${CMAKE_DL_LIBS})
  message(STATUS "strata: viewer enabled (GLFW, ImGui ${IMGUI_LIBRARY}, glad)")
else()
  set(STRATA_HAVE_VIEWER OFF)
  message(STATUS "strata: viewer disabled (STRATA_VIEWER=OFF, or missing libglfw3-dev, libimgui-dev, python3-glad)")
endif()
