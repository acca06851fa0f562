// gpu/kernel_activity.h: the names CUPTI's kernel records are summed under
// (strata-cli kdtable --by-kernel). Mangled names as nvcc emits them for
// strata's kernels and CUB's; no device needed.
#include <gtest/gtest.h>

#include "gpu/kernel_activity.h"

using namespace strata;

TEST(KernelActivity, ShortNamesDropScopesTemplatesAndParameters) {
    // void strata::kdgpu::(anonymous namespace)::lnsScatter(strata::kdgpu::(anonymous namespace)::LevelArgs)
    EXPECT_EQ(shortKernelName("_ZN6strata5kdgpu12_GLOBAL__N_110lnsScatterENS1_9LevelArgsE"), "lnsScatter");
    // void strata::kdgpu::(anonymous namespace)::lnsSortTriangles(LevelArgs, bool)
    EXPECT_EQ(shortKernelName("_ZN6strata5kdgpu12_GLOBAL__N_116lnsSortTrianglesENS1_9LevelArgsEb"), "lnsSortTriangles");
    // void cub::detail::Kernel<int, float>(float*) (a template kernel)
    EXPECT_EQ(shortKernelName("_ZN3cub6detail6KernelIifEEvPf"), "Kernel");
    EXPECT_EQ(shortKernelName("not_mangled"), "not_mangled");
    EXPECT_EQ(shortKernelName(nullptr), "?");
}
