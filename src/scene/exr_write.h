// scene/exr_write.h — linear RGB as an OpenEXR file: single-part scanline,
// no compression, channels B, G, R as 32-bit floats (lossless: the radiance
// as the renderer has it), written here from the file layout in OpenEXR's
// documentation ("OpenEXR File Layout"). Any EXR reader opens it.
#pragma once

#include <string>
#include <vector>

namespace strata {

// Linear RGB floats (row-major, top row first: EXR's y grows downwards, so
// the rows are stored as given); `path` names the output in errors.
std::string encodeExr(const std::string& path, int width, int height, const std::vector<float>& rgb);

}  // namespace strata
