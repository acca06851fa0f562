// render/ray_sort_gpu.h — render.sort_rays on the GPU: a queue's rays and
// their paths, in rayOrderKey's order (render/ray_order.h), written to this
// object's buffers; the trace and shade stages of that bounce read them
// there (CudaPassExec).
#pragma once

#include <cstdint>

#include "gpu/device_buffer.h"
#include "gpu/launch_context.h"
#include "render/scene_view.h"

namespace strata {

class RaySortGpu {
public:
    struct Sorted {
        Ray* rays;
        uint32_t* paths;
    };
    // The first *count (on the device) of n queue slots, sorted: keys, one
    // 24-bit radix sort of (key, slot) over all n slots (the count is not
    // known on the host; the rest sort last), a gather.
    Sorted sort(const SceneView& sv, const Ray* rays, const uint32_t* paths, const uint32_t* count, uint32_t n,
                const LaunchContext& ctx);
    void release();  // the buffers back (the switch turned off)

private:
    DeviceBuffer<uint32_t> keys_, keysSorted_, slots_, slotsSorted_;
    DeviceBuffer<Ray> rays_;
    DeviceBuffer<uint32_t> paths_;
    DeviceBuffer<uint8_t> temp_;
    LibraryLaunchCount sortLaunches_;  // CUB's kernels per sort, for the last size
};

}  // namespace strata
