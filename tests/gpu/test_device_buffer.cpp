// DeviceBuffer: moves carry the allocation's capacity, so memory reports
// (bytes()) stay true for buffers kept in growing vectors. Skips without a
// CUDA device.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "gpu/device.h"
#include "gpu/device_buffer.h"

using namespace strata;

TEST(GpuDeviceBuffer, MovesKeepTheCapacity) {
    GpuInfo gpu = queryGpu();
    if (!gpu.available) GTEST_SKIP() << "no CUDA device: " << gpu.reason;
    DeviceBuffer<int> a(100);
    a.resize(10);  // size 10, capacity 100
    DeviceBuffer<int> b(std::move(a));
    EXPECT_EQ(b.bytes(), 400u);
    EXPECT_EQ(b.size(), 10u);
    EXPECT_EQ(a.bytes(), 0u);
    EXPECT_EQ(a.data(), nullptr);
    DeviceBuffer<int> c;
    c = std::move(b);
    EXPECT_EQ(c.bytes(), 400u);
    EXPECT_EQ(b.bytes(), 0u);
    std::vector<DeviceBuffer<float>> v;  // reallocations move the earlier buffers
    for (size_t k = 1; k <= 5; ++k) {
        v.emplace_back();
        v.back().resize(1000 * k);
    }
    for (size_t k = 1; k <= 5; ++k) EXPECT_EQ(v[k - 1].bytes(), 4000 * k) << k;
}
