// app/display_path.h — how a rendered frame reaches the GL texture:
//   texture: CUDA writes the mapped texture's array through a surface object
//   pbo:     CUDA writes a mapped pixel-unpack buffer, GL copies it to the texture
//   copy:    the image goes through host memory (CPU backend, or a GL context
//            that is not on the CUDA device: --no-interop)
// Resources are registered once per size; every frame maps, re-queries the
// mapped pointer or array, writes, and unmaps.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/gl_display.h"
#include "render/renderer.h"

namespace strata {

enum class DisplayMode { Texture, Pbo, Copy };
const char* displayModeName(DisplayMode m);

class DisplayPath {
public:
    virtual ~DisplayPath() = default;
    virtual DisplayMode mode() const = 0;
    // Called after GlDisplay::resize: (re)registers the GL objects.
    virtual void attach(GlDisplay& gl) = 0;
    // Puts the renderer's current image into the display texture.
    virtual void present(Renderer& r, GlDisplay& gl) = 0;
    // Milliseconds of the last completed present (GPU time of map + write +
    // unmap on the interop paths, host time of the copy path); read a frame late.
    virtual double lastMs() = 0;
};

// Falls back to copy (with `why` set) when interop is unavailable.
std::unique_ptr<DisplayPath> makeDisplayPath(DisplayMode wanted, Renderer& r, std::string& why);

}  // namespace strata
