// render/denoise.h — view.filter: a picture while the scene moves, in the
// manner of SVGF (Schied et al. 2017), as a display filter. Per frame that
// starts its image over (a frame that accumulates onto a still image shows
// the accumulated film, which keeps converging as before):
//
//   gbuffer   one camera ray through each pixel's centre: its hit's position,
//             normal and triangle (or a miss)
//   temporal  the frame's radiance blended into the pixel's history, found by
//             projecting the hit into the previous frame's camera; kept where
//             that pixel saw the same surface (position and normal agree),
//             restarted where it did not (disocclusion, moving geometry); the
//             luminance's first two moments give its variance
//   a-trous   (svgf only) five passes of an edge-stopping 5x5 B3-spline
//             filter with holes 1, 2, 4, 8, 16 pixels apart: weights fall with
//             the difference in depth, in normal, and in luminance relative
//             to its standard deviation, so edges and texture survive where
//             the history holds the noise down
//
// Simplifications against the paper, said here: the G-buffer is traced again
// (the path tracer's camera rays are jittered), the history keeps the
// temporally blended radiance (not the first a-trous pass), there is no
// albedo demodulation, and short histories get a variance floor instead of
// SVGF's 7x7 spatial estimate. VD patches are not in the G-buffer (their
// pixels are filtered as the triangles behind them). Both backends run this
// file.
#pragma once

#include "core/options.h"
#include "render/scene_view.h"

namespace strata {

struct FilterPixel {  // the G-buffer of one pixel
    Vec3 pos;         // world position of the camera ray's hit
    Vec3 nrm;         // geometric normal, facing the camera
    float depth = 0;  // hit distance; 0: the ray missed
};

// One frame's view of the filter's buffers: this frame's and the previous
// frame's G-buffer and history (FilterStorage swaps them), the a-trous
// ping-pong pair.
struct FilterBuffers {
    const Vec3* film;  // this frame's radiance sums (times invSamples)
    float invSamples;
    FilterPixel *gbuf, *prevGbuf;
    Vec3 *history, *prevHistory;   // blended radiance
    float *moments, *prevMoments;  // luminance mean and mean square, two per pixel
    float *length, *prevLength;    // frames in the history
    Vec3* color[2];                // a-trous ping-pong (color[0] holds the temporal result)
    float* variance[2];
    bool havePrevious;  // the previous frame was filtered at this resolution
};

constexpr float kFilterMaxHistory = 32.0f;  // the blend never weighs the new frame less than 1/32

// The G-buffer of a pixel: the camera ray through its centre, traced with
// traversal kind K (scene_view.h).
template <TraceKind K>
STRATA_HD FilterPixel filterGbufferPixelAs(const SceneView& s, uint32_t width, uint32_t height, uint32_t pixel) {
    const Ray r = pixelCentreRay(s.camera, width, height, pixel);
    FilterPixel g;
    const HitRecord h = traceClosestAnyTreeAs<K>(s, r);
    if (!isHit(h)) return g;
    g.depth = hitDistance(h);
    g.pos = r.org + r.dir * g.depth;
    const Tri t = s.geo.tris[hitPayload(h)];
    const Vec3 a = s.geo.pos[t.v[0]], b = s.geo.pos[t.v[1]], c = s.geo.pos[t.v[2]];
    Vec3 n = cross(b - a, c - a);
    const float len = length(n);
    n = len > 0 ? n * (1.0f / len) : r.dir * -1.0f;
    g.nrm = dot(n, r.dir) > 0 ? n * -1.0f : n;
    return g;
}

// Where p was in the previous camera's image, in pixels; false when behind it.
STRATA_HD bool projectToPixel(const CameraView& c, Vec3 p, uint32_t width, uint32_t height, float& px, float& py) {
    const Vec3 d = p - c.position;
    const float z = dot(d, c.forward);
    if (!(z > 1e-6f)) return false;
    const Vec3 q = d * (1.0f / z);  // forward + right * a + up * b
    const float a = dot(q, c.right) / dot(c.right, c.right), b = dot(q, c.up) / dot(c.up, c.up);
    px = (a + 1.0f) * 0.5f * float(width);
    py = (1.0f - b) * 0.5f * float(height);
    return true;
}

// Whether two G-buffer samples see the same surface.
STRATA_HD bool sameSurface(const FilterPixel& a, const FilterPixel& b) {
    if (a.depth <= 0 || b.depth <= 0) return false;
    const Vec3 d = a.pos - b.pos;
    const float tol = 0.01f * fmaxf(a.depth, b.depth);
    return dot(d, d) <= tol * tol && dot(a.nrm, b.nrm) > 0.9f;
}

// The temporal pass for one pixel: its history, moments and length, and the
// a-trous input color[0] / variance[0].
STRATA_HD void filterTemporalPixel(const FilterBuffers& f, const CameraView& previousCamera, uint32_t width,
                                   uint32_t height, uint32_t pixel) {
    const Vec3 c = f.film[pixel] * f.invSamples;
    const float l = luminance(c);
    const FilterPixel g = f.gbuf[pixel];
    Vec3 color = c;
    float m1 = l, m2 = l * l, n = 1.0f;
    float px, py;
    if (f.havePrevious && g.depth > 0 && projectToPixel(previousCamera, g.pos, width, height, px, py) && px >= 0 &&
        py >= 0 && px < float(width) && py < float(height)) {
        const uint32_t q = uint32_t(py) * width + uint32_t(px);
        if (sameSurface(g, f.prevGbuf[q])) {
            n = fminf(f.prevLength[q] + 1.0f, kFilterMaxHistory);
            const float alpha = 1.0f / n;
            color = f.prevHistory[q] * (1.0f - alpha) + c * alpha;
            m1 = f.prevMoments[2 * q] * (1.0f - alpha) + l * alpha;
            m2 = f.prevMoments[2 * q + 1] * (1.0f - alpha) + l * l * alpha;
        }
    }
    f.history[pixel] = color;
    f.moments[2 * pixel] = m1;
    f.moments[2 * pixel + 1] = m2;
    f.length[pixel] = n;
    // A short history's moments say little: its variance is at least the
    // squared luminance, fading out over four frames.
    const float floor = n < 4.0f ? (4.0f - n) * 0.25f * l * l : 0.0f;
    f.color[0][pixel] = color;
    f.variance[0][pixel] = fmaxf(m2 - m1 * m1, floor);
}

// One a-trous pass (holes `step` pixels apart) from color[in] / variance[in]
// into color[in ^ 1] / variance[in ^ 1].
STRATA_HD void filterAtrousPixel(const FilterBuffers& f, uint32_t width, uint32_t height, int in, int step,
                                 uint32_t pixel) {
    const FilterPixel g = f.gbuf[pixel];
    const Vec3 cp = f.color[in][pixel];
    const float vp = f.variance[in][pixel];
    if (g.depth <= 0) {  // the environment: nothing to filter
        f.color[in ^ 1][pixel] = cp;
        f.variance[in ^ 1][pixel] = vp;
        return;
    }
    const float kernel[3] = {3.0f / 8.0f, 1.0f / 4.0f, 1.0f / 16.0f};
    const float lp = luminance(cp), sigmaL = 4.0f * sqrtf(fmaxf(vp, 0.0f)) + 1e-4f;
    const int x0 = int(pixel % width), y0 = int(pixel / width);
    Vec3 sum = {0, 0, 0};
    float wsum = 0, vsum = 0;
    for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx) {
            const int x = x0 + dx * step, y = y0 + dy * step;
            if (x < 0 || y < 0 || x >= int(width) || y >= int(height)) continue;
            const uint32_t q = uint32_t(y) * width + uint32_t(x);
            const FilterPixel h = f.gbuf[q];
            if (h.depth <= 0) continue;
            const Vec3 cq = f.color[in][q];
            const float wz = expf(-fabsf(h.depth - g.depth) / (0.02f * g.depth * float(step)));
            const float wn = powf(fmaxf(dot(g.nrm, h.nrm), 0.0f), 64.0f);
            const float wl = expf(-fabsf(luminance(cq) - lp) / sigmaL);
            const float w = kernel[dx < 0 ? -dx : dx] * kernel[dy < 0 ? -dy : dy] * wz * wn * wl;
            sum = sum + cq * w;
            wsum += w;
            vsum += w * w * f.variance[in][q];
        }
    // The centre's own weight is at least its kernel weight: wsum > 0.
    f.color[in ^ 1][pixel] = sum * (1.0f / wsum);
    f.variance[in ^ 1][pixel] = vsum / (wsum * wsum);
}

constexpr int kAtrousPasses = 5;

// The filter's buffers, owned by a backend (Buf: std::vector on the CPU,
// DeviceBuffer on the GPU), and what it carries from frame to frame.
template <template <class> class Buf>
struct FilterStorage {
    Buf<FilterPixel> gbuf[2];
    Buf<Vec3> history[2], color[2];
    Buf<float> moments[2], length[2], variance[2];
    int cur = 0;
    bool havePrevious = false;  // the last frame was filtered, at this size
    CameraView previousCamera{};
    size_t pixels = 0;

    void resize(size_t n) {
        if (n == pixels) return;
        for (int k = 0; k < 2; ++k) {
            gbuf[k].resize(n);
            history[k].resize(n);
            color[k].resize(n);
            moments[k].resize(2 * n);
            length[k].resize(n);
            variance[k].resize(n);
        }
        pixels = n;
        havePrevious = false;
    }
    FilterBuffers view(const Vec3* film, float invSamples) {
        const int prev = cur ^ 1;
        return FilterBuffers{film,
                             invSamples,
                             gbuf[cur].data(),
                             gbuf[prev].data(),
                             history[cur].data(),
                             history[prev].data(),
                             moments[cur].data(),
                             moments[prev].data(),
                             length[cur].data(),
                             length[prev].data(),
                             {color[0].data(), color[1].data()},
                             {variance[0].data(), variance[1].data()},
                             havePrevious};
    }
    // The output of a frame filtered with `mode`: the temporal pass's, or the
    // last a-trous pass's (the passes alternate from color[0]).
    const Vec3* output(ViewFilter mode) { return color[mode == ViewFilter::Svgf ? kAtrousPasses % 2 : 0].data(); }
    // After a filtered frame: its G-buffer and history become the previous.
    void advance(const CameraView& camera) {
        previousCamera = camera;
        havePrevious = true;
        cur ^= 1;
    }
};

}  // namespace strata
