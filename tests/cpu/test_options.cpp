#include <gtest/gtest.h>

#include "core/error.h"
#include "core/options.h"
#include "core/suggest.h"

using namespace strata;

TEST(Options, SetsEveryKindByName) {
    Options o;
    o.set("render.spp", "8");
    o.set("render.nee", "false");
    o.set("render.exposure", "-1.5");
    o.setAssignment("accel.builder=cpu-sah");
    EXPECT_EQ(o.render.spp, 8);
    EXPECT_FALSE(o.render.nee);
    EXPECT_FLOAT_EQ(o.render.exposure, -1.5f);
    EXPECT_EQ(o.accel.builder, Builder::CpuSah);
    EXPECT_EQ(o.get("render.spp"), "8");
}

TEST(Options, UnknownKeyAndBadValuesNameTheKey) {
    Options o;
    try {
        o.set("render.nope", "1");
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("render.nope"), std::string::npos);
    }
    EXPECT_THROW(o.set("render.spp", "four"), Error);
    EXPECT_THROW(o.set("render.spp", "0"), Error);
    EXPECT_THROW(o.set("render.width", "100000"), Error);
    EXPECT_THROW(o.set("render.nee", "maybe"), Error);
    EXPECT_THROW(o.set("accel.builder", "octree"), Error);
    EXPECT_THROW(o.set("accel.morton_bits", "31"), Error);
    EXPECT_THROW(o.setAssignment("render.spp"), Error);
    EXPECT_EQ(o.render.spp, 1);  // nothing changed by failed sets
}

TEST(Options, EveryListedKeyRoundTrips) {
    Options o;
    for (const OptionInfo& info : Options::all()) {
        std::string v = o.get(info.key);
        EXPECT_NO_THROW(o.set(info.key, v)) << info.key;
        EXPECT_EQ(o.get(info.key), v) << info.key;
    }
}

TEST(Options, KdTreeBuilderAndSwitches) {
    Options o;
    o.set("accel.builder", "kdtree");
    EXPECT_EQ(o.accel.builder, Builder::KdTree);
    const char* keys[5] = {"accel.kd_a", "accel.kd_b", "accel.kd_c", "accel.kd_d", "accel.kd_e"};
    for (const char* k : keys) {
        EXPECT_EQ(o.get(k), "false");
        o.set(k, "true");
        EXPECT_EQ(o.get(k), "true");
        ASSERT_NE(Options::find(k), nullptr);
        EXPECT_EQ(Options::find(k)->help[1], "ABCDE"[k[9] - 'a']);
    }
    EXPECT_EQ(o.accel.kdOpts, KdOpts::all());
    EXPECT_THROW(o.set("accel.kd_a", "maybe"), Error);
}

TEST(Options, KdOptsShorthandIsAViewOfTheFiveSwitches) {
    Options o;
    EXPECT_EQ(o.get("accel.kd_opts"), "none");
    o.set("accel.kd_opts", "ACE");
    EXPECT_EQ(o.accel.kdOpts.bits, KdOpts::A | KdOpts::C | KdOpts::E);
    EXPECT_EQ(o.get("accel.kd_opts"), "ACE");
    o.set("accel.kd_opts", "db");  // any order, either case
    EXPECT_EQ(o.accel.kdOpts.bits, KdOpts::B | KdOpts::D);
    EXPECT_EQ(o.get("accel.kd_opts"), "BD");
    o.set("accel.kd_opts", "all");
    EXPECT_EQ(o.get("accel.kd_opts"), "ABCDE");
    o.set("accel.kd_e", "false");  // the switches and the shorthand stay one state
    EXPECT_EQ(o.get("accel.kd_opts"), "ABCD");
    o.set("accel.kd_opts", "none");
    EXPECT_EQ(o.accel.kdOpts, KdOpts{});
    EXPECT_EQ(o.accel.kdOpts.name(), "Original");
    // Every one of the 32 subsets round-trips.
    for (int m = 0; m < 32; ++m) {
        std::string v;
        for (int k = 0; k < 5; ++k)
            if (m >> k & 1) v += char('A' + k);
        o.set("accel.kd_opts", v.empty() ? "none" : v);
        EXPECT_EQ(o.get("accel.kd_opts"), v.empty() ? "none" : v);
    }
    for (const char* bad : {"", "F", "AA", "AB C", "nonee"}) {
        o.set("accel.kd_opts", "AB");
        EXPECT_THROW(o.set("accel.kd_opts", bad), Error) << bad;
        EXPECT_EQ(o.get("accel.kd_opts"), "AB") << "a rejected value changes nothing: " << bad;
    }
    ASSERT_NE(Options::find("accel.kd_opts"), nullptr);
    EXPECT_TRUE(Options::find("accel.kd_opts")->derived);
    EXPECT_FALSE(Options::find("accel.kd_a")->detail.empty());  // the viewer's tooltip
}

// accel.kd_preset: the chapter's Original and All are the defaults of
// strata's switches (off, zhou); all+strata turns every one of them on.
TEST(Options, KdPresetSetsTheChaptersVariantsAndStrataSwitches) {
    Options o;
    EXPECT_EQ(o.get("accel.kd_preset"), "original");
    EXPECT_EQ(o.get("accel.kd_small"), "zhou");
    o.set("accel.kd_preset", "all+strata");
    EXPECT_EQ(o.get("accel.kd_opts"), "ABCDE");
    EXPECT_TRUE(o.accel.kdLookahead && o.accel.kdSnsCompact);
    EXPECT_FALSE(o.accel.kdClipLeaves);  // not in the preset: it costs more build than it saves trace
    EXPECT_EQ(o.accel.kdSmall, KdSmall::Subtree);
    EXPECT_EQ(o.accel.kdLargeSplit, KdLargeSplit::Sah);
    o.set("accel.kd_preset", "all");
    EXPECT_EQ(o.get("accel.kd_opts"), "ABCDE");
    EXPECT_FALSE(o.accel.kdLookahead || o.accel.kdSnsCompact);
    EXPECT_FALSE(o.accel.kdClipLeaves);
    EXPECT_EQ(o.accel.kdSmall, KdSmall::Zhou);
    EXPECT_EQ(o.accel.kdLargeSplit, KdLargeSplit::Median);
    o.set("accel.kd_small", "subtree");
    EXPECT_EQ(o.get("accel.kd_preset"), "custom");
    o.set("accel.kd_preset", "custom");  // changes nothing
    EXPECT_EQ(o.accel.kdSmall, KdSmall::Subtree);
    o.set("accel.kd_preset", "original");
    EXPECT_EQ(o.get("accel.kd_opts"), "none");
    EXPECT_EQ(o.accel.kdSmall, KdSmall::Zhou);
    EXPECT_THROW(o.set("accel.kd_preset", "fast"), Error);
    EXPECT_THROW(o.set("accel.kd_small", "bottom-up"), Error);
    EXPECT_EQ(o.get("accel.kd_preset"), "original");
}

// vd.method: harada is the chapter's bottom level (camera LOD, box leaves,
// one job per patch, no tree cache, loose boxes, closest hits on the last
// bounce, trees in global memory) whatever the backend;
// strata, the default, turns every one of strata's switches on but the
// tree cache (it pays with box leaves only: off in both).
TEST(Options, VdMethodSetsHaradasBottomLevelOrEveryStrataSwitch) {
    Options o;
    EXPECT_EQ(o.get("vd.method"), "strata");
    EXPECT_FALSE(o.vd.treeCache);
    o.set("vd.tree_cache", "true");
    EXPECT_EQ(o.get("vd.method"), "custom");
    o.set("vd.method", "strata");
    EXPECT_FALSE(o.vd.treeCache);
    EXPECT_TRUE(Options::find("vd.method")->derived);
    o.set("vd.method", "harada");
    EXPECT_EQ(o.vd.middle, VdMiddle::Unified);
    EXPECT_EQ(o.vd.lod, VdLod::Camera);
    EXPECT_EQ(o.vd.leaf, VdLeaf::Box);
    EXPECT_FALSE(o.vd.splitJobs || o.vd.treeCache || o.vd.pairCull || o.vd.lastBounceAnyHit || o.vd.sharedTrees);
    EXPECT_EQ(o.get("vd.lod"), "camera");
    EXPECT_EQ(o.get("vd.leaf"), "box");
    EXPECT_NO_THROW(o.check());
    o.set("vd.pair_cull", "true");  // one of strata's switches on top
    EXPECT_EQ(o.get("vd.method"), "custom");
    o.set("vd.method", "custom");  // changes nothing
    EXPECT_TRUE(o.vd.pairCull);
    o.set("vd.method", "strata");
    EXPECT_EQ(o.vd, VdOptions{});
    o.set("vd.method", "harada");
    o.set("render.backend", "cpu");  // after the preset, as --backend after a scene file's options
    EXPECT_FALSE(o.vd.sharedTrees);
    EXPECT_EQ(o.get("vd.method"), "harada");
    EXPECT_NO_THROW(o.check());
    EXPECT_THROW(o.set("vd.method", "fast"), Error);
    EXPECT_THROW(o.set("vd.leaf", "quad"), Error);
    EXPECT_THROW(o.set("vd.lod", "ray"), Error);
    EXPECT_EQ(o.get("vd.method"), "harada");
    // The unified middle level is a BVH over triangles and patch boxes, flat
    // or instanced: the kd-tree refuses it (and so the preset), and it
    // refuses the kd-tree.
    o.set("accel.mode", "instanced");
    EXPECT_NO_THROW(o.check());
    EXPECT_EQ(o.get("vd.method"), "harada");
    o.set("accel.mode", "flat");
    o.set("accel.builder", "kdtree");
    EXPECT_THROW(o.check(), Error);
    o.set("vd.middle_level", "separate");
    EXPECT_NO_THROW(o.check());
    EXPECT_EQ(o.get("vd.method"), "custom");
    o.set("vd.middle_level", "unified");
    EXPECT_THROW(o.check(), Error);
}

// The choice options are enums after parsing; their text is the registry's
// choices, in the enum's order, both ways.
TEST(Options, ChoiceOptionsAreTypedAndNameTheirValues) {
    Options o;
    for (const OptionInfo& info : Options::all()) {
        if (info.kind != OptionKind::String || info.derived) continue;
        ASSERT_FALSE(info.choices.empty()) << info.key;
        for (const std::string& c : info.choices) {
            o.set(info.key, c);
            EXPECT_EQ(o.get(info.key), c) << info.key;
        }
    }
    o.set("accel.builder", "lbvh-skip");
    EXPECT_EQ(o.accel.builder, Builder::LbvhSkip);
    EXPECT_STREQ(name(Builder::LbvhApetrei), "lbvh-apetrei");
    EXPECT_STREQ(name(VdMode::Pretess), "pretess");
    o.set("vd.mode", "off");
    EXPECT_EQ(o.vd.mode, VdMode::Off);
    o.set("render.tonemap", "clamp");
    EXPECT_EQ(o.render.tonemap, Tonemap::Clamp);
}

// One set of combination rules: check() refuses what unavailable() lists,
// with its reason, and nothing else.
TEST(Options, CombinationRulesAreOneListThatCheckEnforces) {
    Options o;
    EXPECT_NO_THROW(o.check());
    auto listed = [&](const std::string& kv) {
        for (const Unavailable& u : o.unavailable())
            if (u.assignment() == kv) return true;
        return false;
    };
    EXPECT_TRUE(listed("accel.traversal=stackless"));  // lbvh-karras installs no skip links
    EXPECT_TRUE(listed("accel.builder=cpu-sah"));      // the default backend is cuda
    o.set("accel.builder", "lbvh-skip");
    EXPECT_FALSE(listed("accel.traversal=stackless"));
    o.set("accel.traversal", "stackless");
    EXPECT_NO_THROW(o.check());
    o.set("accel.builder", "kdtree");
    EXPECT_FALSE(listed("accel.mode=instanced")) << "kd-tree BLASes under a BVH top level";
    try {
        o.check();
        FAIL() << "stackless with the kd-tree";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("lbvh-skip"), std::string::npos) << e.what();
    }
    o.set("accel.traversal", "stack");
    EXPECT_NO_THROW(o.check());
    o.set("accel.mode", "instanced");
    EXPECT_NO_THROW(o.check());
    o.set("accel.mode", "flat");
    o.set("accel.builder", "cpu-sah");
    EXPECT_THROW(o.check(), Error);  // on the cuda backend
    o.set("render.backend", "cpu");
    EXPECT_NO_THROW(o.check());
    EXPECT_FALSE(listed("accel.builder=cpu-sah"));
    // vd.shared_trees is the CUDA backend's choice; the CPU backend keeps its
    // trees in host memory either way and takes both values (vd.method
    // harada must not depend on the order of the backend and the preset).
    EXPECT_FALSE(listed("vd.shared_trees=false"));
    o.set("vd.shared_trees", "false");
    EXPECT_NO_THROW(o.check());
    o.set("render.backend", "cuda");
    o.set("accel.builder", "lbvh-karras");
    EXPECT_NO_THROW(o.check());
}

// accel.width = 8 collapses the flat binary BVH: the kd-tree, instanced
// mode, the skip links and the unified middle level rule it out, and it
// rules them out.
TEST(Options, WideBvhRules) {
    Options o;
    auto listed = [&](const std::string& kv) {
        for (const Unavailable& u : o.unavailable())
            if (u.assignment() == kv) return true;
        return false;
    };
    EXPECT_FALSE(listed("accel.width=8"));
    o.set("accel.width", "8");
    EXPECT_NO_THROW(o.check());
    EXPECT_EQ(o.accel.width, BvhWidth::Eight);
    for (const char* kv : {"accel.builder=kdtree", "accel.mode=instanced", "accel.traversal=stackless",
                           "vd.middle_level=unified", "vd.method=harada"})
        EXPECT_TRUE(listed(kv)) << kv;
    EXPECT_FALSE(listed("accel.rebuild=refit")) << "a refitted tree is collapsed anew";
    o.set("accel.builder", "kdtree");
    EXPECT_THROW(o.check(), Error);
    o.set("accel.width", "2");
    EXPECT_TRUE(listed("accel.width=8"));
    EXPECT_NO_THROW(o.check());
    EXPECT_THROW(o.set("accel.width", "4"), Error);
}

// accel.wide_collapse: sah (the paper's) by default, greedy strata's; named
// inert away from width 8; a change is a change of the build.
TEST(Options, WideCollapse) {
    Options o;
    EXPECT_EQ(o.accel.wideCollapse, WideCollapse::Sah);
    o.set("accel.wide_collapse", "greedy");
    EXPECT_EQ(o.accel.wideCollapse, WideCollapse::Greedy);
    EXPECT_EQ(o.get("accel.wide_collapse"), "greedy");
    ASSERT_EQ(o.inert().size(), 1u);
    EXPECT_NE(o.inert()[0].find("accel.wide_collapse = greedy does nothing here"), std::string::npos) << o.inert()[0];
    o.set("accel.width", "8");
    EXPECT_TRUE(o.inert().empty());
    o.set("render.backend", "cpu");  // both backends collapse
    EXPECT_TRUE(o.inert().empty());
    EXPECT_THROW(o.set("accel.wide_collapse", "optimal"), Error);
    AccelOptions a, b;
    b.wideCollapse = WideCollapse::Greedy;
    EXPECT_NE(a, b);  // a change rebuilds
}

// The GPU kd-tree's switches set where they change nothing (another builder,
// or the CPU backend's reference kd-tree) are named, with why.
TEST(Options, InertKdSwitchesAreNamed) {
    Options o;
    EXPECT_TRUE(o.inert().empty());
    o.set("accel.kd_opts", "ABC");
    ASSERT_EQ(o.inert().size(), 1u);
    EXPECT_NE(o.inert()[0].find("accel.kd_opts = ABC does nothing here: it changes the kd-tree only"),
              std::string::npos)
        << o.inert()[0];
    o.set("accel.builder", "kdtree");
    EXPECT_TRUE(o.inert().empty()) << "the GPU kd-tree honours them";
    o.set("accel.kd_large_split", "sah");
    o.set("render.backend", "cpu");
    ASSERT_EQ(o.inert().size(), 1u) << "the CPU reference splits by SAH too";
    EXPECT_NE(o.inert()[0].find("CPU backend"), std::string::npos) << o.inert()[0];
}

// accel.lbvh_block_hand_over changes the GPU bottom-up pass of the three
// LBVHs only: named where it does nothing; part of the build options.
TEST(Options, LbvhBlockHandOver) {
    Options o;
    const AccelOptions before = o.accel;
    o.set("accel.lbvh_block_hand_over", "true");
    EXPECT_TRUE(o.accel.lbvhBlockHandOver);
    EXPECT_NE(o.accel, before) << "a switch the rebuild policy sees";
    EXPECT_TRUE(o.inert().empty()) << "lbvh-karras on the CUDA backend honours it";
    // kdtree: its instanced top level and its VD middle level are Karras LBVHs.
    for (const char* builder : {"lbvh-apetrei", "lbvh-skip", "kdtree"}) {
        o.set("accel.builder", builder);
        EXPECT_TRUE(o.inert().empty()) << builder;
    }
    o.set("accel.builder", "hploc");
    ASSERT_EQ(o.inert().size(), 1u) << "H-PLOC has its own pass";
    EXPECT_NE(o.inert()[0].find("accel.lbvh_block_hand_over = true does nothing here"), std::string::npos)
        << o.inert()[0];
    o.set("accel.builder", "lbvh-karras");
    o.set("render.backend", "cpu");
    ASSERT_EQ(o.inert().size(), 1u) << "the CPU backend's LBVHs run the published pass";
}

// accel.copy_leaf_tris (on by default) changes the leaf tests of a BVH's
// stack traversals (flat mode's tree, binary or 8 wide, instanced mode's BLASes): turned off, it is named where it
// would do nothing anyway; part of the build options.
TEST(Options, CopyLeafTris) {
    Options o;
    EXPECT_TRUE(o.accel.copyLeafTris);
    const AccelOptions before = o.accel;
    o.set("accel.copy_leaf_tris", "false");
    EXPECT_FALSE(o.accel.copyLeafTris);
    EXPECT_NE(o.accel, before) << "a switch the rebuild policy sees";
    for (const char* builder : {"lbvh-karras", "lbvh-apetrei", "lbvh-skip", "hploc", "cpu-sah"}) {
        o.set("accel.builder", builder);
        EXPECT_TRUE(o.inert().empty()) << builder;
    }
    o.set("render.backend", "cpu");
    EXPECT_TRUE(o.inert().empty()) << "both backends copy";
    {
        Options p = o;
        p.set("accel.mode", "instanced");
        EXPECT_TRUE(p.inert().empty()) << "instanced mode copies each BLAS's triangles";
    }
    {
        Options p = o;
        p.set("accel.width", "8");
        EXPECT_TRUE(p.inert().empty()) << "the wide tree's triangles are copied in its leaf order";
    }
    const std::pair<const char*, const char*> elsewhere[] = {{"accel.builder", "kdtree"},
                                                             {"accel.traversal", "stackless"}};
    for (auto [key, value] : elsewhere) {
        Options p = o;
        p.set("accel.builder", "lbvh-skip");
        p.set(key, value);
        ASSERT_EQ(p.inert().size(), 1u) << key;
        EXPECT_NE(p.inert()[0].find("accel.copy_leaf_tris = false does nothing here"), std::string::npos)
            << p.inert()[0];
    }
}

// accel.morton_sort: radix (the papers') by default, merge and split
// strata's; the GPU's sort only (split: of 63-bit codes only), named where it
// does nothing; part of the build options.
TEST(Options, MortonSort) {
    Options o;
    EXPECT_EQ(o.accel.mortonSort, MortonSort::Radix);
    const AccelOptions before = o.accel;
    o.set("accel.morton_sort", "merge");
    EXPECT_EQ(o.accel.mortonSort, MortonSort::Merge);
    EXPECT_EQ(o.get("accel.morton_sort"), "merge");
    EXPECT_NE(o.accel, before) << "a switch the rebuild policy sees";
    for (const char* builder : {"lbvh-karras", "lbvh-apetrei", "lbvh-skip", "hploc", "kdtree"}) {
        o.set("accel.builder", builder);
        EXPECT_TRUE(o.inert().empty()) << builder;
    }
    o.set("accel.builder", "lbvh-karras");
    o.set("render.backend", "cpu");
    ASSERT_EQ(o.inert().size(), 1u);
    EXPECT_NE(o.inert()[0].find("accel.morton_sort = merge does nothing here"), std::string::npos) << o.inert()[0];
    EXPECT_THROW(o.set("accel.morton_sort", "bubble"), Error);
    // split: 63-bit codes only.
    o.set("render.backend", "cuda");
    o.set("accel.morton_sort", "split");
    EXPECT_EQ(o.accel.mortonSort, MortonSort::Split);
    EXPECT_TRUE(o.inert().empty());
    o.set("accel.morton_bits", "30");
    ASSERT_EQ(o.inert().size(), 1u);
    EXPECT_NE(o.inert()[0].find("accel.morton_sort = split does nothing here"), std::string::npos) << o.inert()[0];
}

// "did you mean ...?" (core/suggest.h): the closest name by edit distance,
// nothing when no name is close.
TEST(Suggest, ClosestNameByEditDistance) {
    EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
    EXPECT_EQ(editDistance("", "abc"), 3u);
    EXPECT_EQ(editDistance("spp", "spp"), 0u);
    const std::vector<std::string> names = {"--spp", "--seed", "--set", "--bounces", "--builder"};
    EXPECT_EQ(closestName("--sppp", names), "--spp");
    EXPECT_EQ(closestName("--bounce", names), "--bounces");
    EXPECT_EQ(closestName("--biulder", names), "--builder");
    EXPECT_EQ(closestName("--zzzzzzzz", names), "");
    EXPECT_EQ(closestName("rendr", {"render", "bench", "validate"}), "render");
}
