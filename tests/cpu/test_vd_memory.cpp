// The VD memory report (render/vd_memory.h): its counts equal what
// pre-tessellation actually makes, its estimates scale as the modes do, and
// the CPU backend reports the memory it holds. (The GPU suite holds the
// estimates against the CUDA backend's allocations.)
#include <gtest/gtest.h>

#include "loader_test_util.h"
#include "render/flat_scene.h"
#include "render/renderer.h"
#include "render/vd_memory.h"
#include "scene/scene_loader.h"
#include "scene/vd_scene.h"

namespace strata {
namespace {

// A plane, a mushroom drawn twice (one mesh: instanced mode stores its
// triangles once) and a hook, with its own cap of level 3.
const char* kScene = R"({"meshes": [{"name": "f", "generator": "plane", "params": {"size": 6}},
    {"name": "m", "generator": "vd-mushroom", "params": {"patches": 2, "resolution": 64}},
    {"name": "h", "generator": "vd-hook", "params": {"patches": 3, "resolution": 64}, "vd": {"max_level": 3}}],
  "instances": [{"mesh": "f"}, {"mesh": "m", "translate": [-0.6, 0, 0.2]},
    {"mesh": "m", "translate": [0.4, 0, -0.5], "scale": 0.6}, {"mesh": "h", "translate": [0.7, 0.1, -0.3]}],
  "camera": {"position": [0, 1.2, 3], "target": [0, 0.3, 0]},
  "vd": {"max_level": 4}})";

Scene withMode(Scene s, const std::string& mode, int level) {
    s.options.set("vd.mode", mode);
    s.options.vd.maxLevel = level;
    return s;
}

// Triangles the scene stores in mode `mode`: per instance (flat) or per mesh.
uint64_t storedTriangles(const Scene& s, bool perMesh) {
    std::unique_ptr<Scene> holder;
    const Scene& t = withQuadsAsTriangles(s, holder);
    if (!perMesh) return flattenScene(t).tris.size();
    uint64_t n = 0;
    for (const Mesh& m : t.meshes) n += m.triangles.size();
    return n;
}

}  // namespace

TEST(VdMemory, PretessTrianglesAreWhatTessellationMakes) {
    test::TempDir dir;
    const Scene scene = loadScene(dir.write("s.json", kScene));
    const VdSceneCounts counts = countVdScene(scene);
    ASSERT_EQ(counts.meshes.size(), 2u);
    for (const char* accelMode : {"flat", "instanced"})
        for (int level : {1, 3, 4}) {
            Scene s = withMode(scene, "pretess", level);
            s.options.set("accel.mode", accelMode);
            const bool perMesh = s.options.accel.mode == AccelMode::Instanced;
            const VdMemoryComparison c = compareVdMemory(counts, s.options, 660);
            const uint64_t made = storedTriangles(s, perMesh) - storedTriangles(withMode(s, "direct", level), perMesh);
            EXPECT_EQ(c.pretessTriangles, made) << accelMode << " level " << level;
            EXPECT_EQ(c.patches, scene.patchCount());
            EXPECT_EQ(c.level, level);
        }
}

TEST(VdMemory, EstimatesScaleAsTheModesDo) {
    test::TempDir dir;
    const Scene scene = loadScene(dir.write("s.json", kScene));
    const VdSceneCounts counts = countVdScene(scene);
    Options o = scene.options;
    auto at = [&](int level) {
        o.vd.maxLevel = level;
        return compareVdMemory(counts, o, 660);
    };
    // The mushroom's patches go to the level asked for: its triangles (and
    // their share of the structure) about 4x per level; direct mode's
    // records (without vd.tree_cache) do not change until the trees leave
    // shared memory above 5.
    o.vd.treeCache = false;
    const VdMemoryComparison l4 = at(4), l5 = at(5), l6 = at(6);
    // vd.tree_cache: a slot of a level-5 tree and its grid per patch (the
    // budget holds them all), a slot index and a level per patch, a counter.
    o.vd.treeCache = true;
    const uint64_t patches = l5.patches;
    EXPECT_EQ(at(5).direct.total() - l5.direct.total(), patches * (1365 * 20 + 33 * 33 * 12) + patches * 5 + 4);
    o.vd.treeCache = false;
    EXPECT_GT(l5.pretess.total(), 3 * l4.pretess.total());
    EXPECT_LT(l5.pretess.total(), 5 * l4.pretess.total());
    EXPECT_EQ(l4.direct.total(), l5.direct.total());
    EXPECT_EQ(l6.direct.total() - l5.direct.total(), 660ull * (5461 * 20 + 65 * 65 * 12));  // per-block work buffers
    EXPECT_GT(l5.pretess.total(), l5.direct.total());
    // Instanced mode stores the twice-drawn mushroom's triangles once.
    o.set("accel.mode", "instanced");
    const VdMemoryComparison inst = at(5);
    EXPECT_LT(inst.pretessTriangles, l5.pretessTriangles);
    EXPECT_LT(inst.pretess.accel, l5.pretess.accel);
    // Pair culling's boxes cost direct mode memory; they are in its estimate.
    o.set("accel.mode", "flat");
    o.vd.pairCull = false;
    EXPECT_LT(at(5).direct.total(), l5.direct.total());
    EXPECT_NE(describeVdMemory(l5).find("level 5"), std::string::npos) << describeVdMemory(l5);
}

// The whole device, like for like: the mode that runs is what the GPU holds;
// the other swaps the VD share (the count, and direct mode's pair buffers).
TEST(VdMemory, WholeDeviceSwapsTheVdShareForTheOtherMode) {
    VdMemoryComparison c;
    c.direct.geometry = 4;
    c.direct.accel = 6;
    c.pretess.geometry = 600;
    c.pretess.accel = 400;
    const VdDeviceComparison d = compareVdDeviceMemory(c, VdMode::Direct, 500, 100);
    EXPECT_EQ(d.direct, 500u);
    EXPECT_EQ(d.pretess, 500u - 10 - 100 + 1000);
    const VdDeviceComparison p = compareVdDeviceMemory(c, VdMode::Pretess, 1390, 100);
    EXPECT_EQ(p.pretess, 1390u);
    EXPECT_EQ(p.direct, 500u);
    EXPECT_TRUE(d.measured());
    EXPECT_FALSE(compareVdDeviceMemory(c, VdMode::Off, 500, 100).measured());
    EXPECT_EQ(describeVdDeviceMemory(VdDeviceComparison{100u << 20, 380u << 20}),
              "whole device: direct 100.0 MiB, pre-tessellated 380.0 MiB: 3.80x");
    EXPECT_EQ(describeVdDeviceMemory({}), "whole device: not measured");
}

// The CPU backend reports the host memory its geometry and structures hold
// (it reported nothing before), the patches' own share in direct mode.
TEST(VdMemory, CpuBackendReportsItsMemory) {
    test::TempDir dir;
    Scene scene = loadScene(dir.write("s.json", kScene));
    scene.options.render.width = 32;
    scene.options.render.height = 24;
    size_t total[2] = {0, 0};
    int k = 0;
    for (const char* mode : {"direct", "pretess"}) {
        const Scene s = withMode(scene, mode, 4);  // the renderer keeps a reference to it
        auto r = makeCpuRenderer(s);
        r->renderFrame(0.0f, 0);
        r->finish();
        total[k] = r->geometryBytes() + r->accelBytes();
        EXPECT_GT(r->geometryBytes(), 0u) << mode;
        EXPECT_GT(r->accelBytes(), 0u) << mode;
        if (k == 0) {
            EXPECT_GT(r->vdBytes(), 0u);
            EXPECT_LT(r->vdBytes(), total[k]);
            EXPECT_GT(r->vdPairBytes(), 0u);
        } else {
            EXPECT_EQ(r->vdBytes(), 0u);
        }
        EXPECT_EQ(r->vdMemory().pretessTriangles,
                  compareVdMemory(countVdScene(scene), r->options(), 660).pretessTriangles);
        ++k;
    }
    EXPECT_GT(total[1], total[0]);
}

}  // namespace strata
