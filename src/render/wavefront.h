// render/wavefront.h — the frame's bounce schedule, written once for both
// backends (pbrt-v4's wavefront integrator: one schedule, the executor
// differs). The executor runs each step of render/integrator.h over its
// queue: the CPU backend's on its thread pool (cpu_renderer.cpp), the CUDA
// backend's as one kernel per step and trace kind (cuda_renderer.cu: the
// per-kind kernels keep their own registers, scene_view.h: TraceKind).
//
// An executor provides
//   scope(label)                  an RAII object timing a stage of the stage table
//   queued(counter)               the queue's length if the host knows it (CPU), else `all`
//   generate(p)                   camera rays                      (shade/primary)
//   traceClosest(bounce, label)   the queue's closest hits         (trace/primary, trace/bounce)
//   vdPairs(p, bounce)            (patch, ray) pairs of the queue  (vd/pairs; unified middle level: in the trace)
//   vdShadowPairs()               ... of the shadow rays           (vd/pairs)
//   vdPairsFit()                  false when the pairs overflowed: the buffers grew, append them again
//   vdResolve(rays, closest, anyHit)  steps 2-3 of Harada's pipeline (vd/sort, vd/bottom)
//   shade(p, bounce, label)       (shade/primary, shade/bounce)
//   traceShadow(), shadowFinish() (shadow)
//   accumulate()                  (accumulate)
// and the schedule opens the stages around them.
#pragma once

#include <cstdint>

#include "core/options.h"
#include "render/integrator.h"

namespace strata {

// One sample pass's parameters, as both backends set them.
inline PassParams passParams(const RenderOptions& r, uint64_t frameIndex, int pass, bool vdAnyHitLast) {
    PassParams p{uint32_t(r.width), uint32_t(r.height), r.seed, uint32_t(frameIndex * uint64_t(r.spp) + uint64_t(pass)),
                 r.bounces,         r.rrStart,          r.nee};
    p.whitted = r.integrator == Integrator::Whitted;
    p.vdAnyHitLast = vdAnyHitLast;
    return p;
}

// The spp sample passes of one frame: camera rays, then per bounce the
// closest hits (and the VD patches' when there are any), shading, and the
// shadow rays it spawned; the pass's radiance added to the film.
// vdFused (vd.middle_level unified): the trace steps append the VD pairs
// themselves; the pair steps run only to append them again when they
// overflowed their buffers.
template <class Exec>
void renderPasses(Exec& x, const RenderOptions& r, uint64_t frameIndex, bool vd, bool vdAnyHitLast, bool vdFused) {
    const uint32_t all = uint32_t(r.width) * uint32_t(r.height);
    for (int pass = 0; pass < r.spp; ++pass) {
        const PassParams p = passParams(r, frameIndex, pass, vd && vdAnyHitLast);
        {
            auto s = x.scope("shade");  // camera rays: shade/primary
            x.generate(p);
        }
        for (int bounce = 0; bounce <= p.maxBounces; ++bounce) {
            const bool primary = bounce == 0;
            if (x.queued(bounce & 1, all) == 0) break;  // the CPU knows; the GPU's kernels find the queue empty
            {
                auto s = x.scope("trace");
                x.traceClosest(bounce, primary ? "trace/primary" : "trace/bounce");
            }
            if (vd) {  // vd/pairs, vd/sort and vd/bottom add over every resolve; vd/primary etc. split by ray kind
                auto v = x.scope("vd");
                auto k = x.scope(primary ? "vd/primary" : "vd/bounce");
                if (!vdFused) x.vdPairs(p, bounce);
                while (!x.vdPairsFit()) x.vdPairs(p, bounce);
                const bool anyHit = vdOcclusionOnly(p, bounce);  // flags in shadowBlocked
                x.vdResolve(bounce, true, anyHit);
            }
            {
                auto s = x.scope("shade");
                x.shade(p, bounce, primary ? "shade/primary" : "shade/bounce");
            }
            if (!spawnsShadowRays(p, bounce)) continue;
            x.traceShadow();
            if (vd) {
                {
                    auto v = x.scope("vd");
                    auto k = x.scope("vd/shadow");
                    if (!vdFused) x.vdShadowPairs();
                    while (!x.vdPairsFit()) x.vdShadowPairs();
                    x.vdResolve(bounce, false, true);
                }
                x.shadowFinish();
            }
        }
        x.accumulate();
    }
}

}  // namespace strata
