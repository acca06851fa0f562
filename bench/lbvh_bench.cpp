// strata-bench-lbvh: LBVH build time per stage for N random triangles
// (bounds through boxes), medians over many builds after warm-up, for each
// builder (--builder karras|apetrei|skip|hploc|all). Each build's result is
// checked against the CPU run of the same code first (up to 4M triangles),
// and its SAH printed as peerbench computes it. The Apetrei variants build the
// hierarchy and the boxes in one pass, timed as "hierarchy" (their "aabb" is
// empty): compare it with Karras's hierarchy + aabb.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "accel/bvh_validate.h"
#include "accel/lbvh/lbvh_compare.h"
#include "accel/lbvh/lbvh_gpu.h"
#include "accel/lbvh/lbvh_host.h"
#include "gpu/device.h"
#include "gpu/launch_context.h"
#include "render/flat_scene.h"
#include "scene/obj_loader.h"

using namespace strata;

static std::vector<Aabb> randomTriangleBounds(uint32_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    float size = 2.0f / std::cbrt(float(n));
    std::vector<Aabb> b(n);
    for (uint32_t i = 0; i < n; ++i) {
        Vec3 c{u(rng), u(rng), u(rng)};
        Aabb box;
        for (int k = 0; k < 3; ++k) box.grow(c + Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f} * size);
        b[i] = box;
    }
    return b;
}

static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// Builds n boxes `runs` times after `warmup` and prints one table row;
// false if the first build differs from the CPU run.
static bool benchOne(const LbvhConfig& config, const std::vector<Aabb>& host, int runs, int warmup) {
    const LbvhVariant variant = config.variant;
    const int bits = config.mortonBits;
    const uint32_t n = uint32_t(host.size());
    DeviceBuffer<Aabb> d;
    d.upload(host);
    cudaStream_t stream;
    STRATA_CUDA_CHECK(cudaStreamCreate(&stream));
    const std::vector<std::string> stages = {"build",      "build/bounds",    "build/morton",
                                             "build/sort", "build/hierarchy", "build/aabb"};
    StageTimer timer(stages, 8);
    LbvhBuilder builder;
    std::vector<std::vector<double>> ms(stages.size());
    uint32_t launches = 0;
    double sah = 0;
    auto collect = [&](bool wait) {
        FrameRecord rec;
        while (timer.pop(rec, wait))
            if (rec.frame >= uint64_t(warmup)) {
                for (size_t k = 0; k < stages.size(); ++k) ms[k].push_back(rec.stages[k].ms);
                launches = rec.stages[0].launches;
            }
    };
    for (int r = 0; r < warmup + runs; ++r) {
        timer.beginFrame(stream, FrameRecord{uint64_t(r)});
        timer.begin(0);
        builder.build(config, d.data(), n, LaunchContext{stream, &timer});
        timer.end(0);
        timer.endFrame();
        collect(false);
        if (r == 0 && n <= 4000000) {  // check before timing
            STRATA_CUDA_CHECK(cudaStreamSynchronize(stream));
            LbvhCopy g = builder.download();
            LbvhHostResult ref = buildLbvhHost(host, bits, variant);
            HostBvh gpuTree{g.nodes, g.primIndex, g.root};
            bool same = ref.bvh.primIndex == g.primIndex && ref.bvh.root == g.root &&
                        countDifferentNodes(ref.bvh.nodes, g.nodes) == 0 &&
                        countDifferentNodes(ref.skipNodes, g.skipNodes) == 0;
            sah = validateBvh(gpuTree.view(), host).peerSah();
            if (!same) {
                std::fprintf(stderr, "strata-bench-lbvh: %s GPU build of %u differs from the CPU run\n",
                             lbvhVariantName(variant), n);
                STRATA_CUDA_CHECK(cudaStreamDestroy(stream));
                return false;
            }
        }
    }
    collect(true);
    std::printf("%10u %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %8u %9.1f\n", n, median(ms[1]), median(ms[2]), median(ms[3]),
                median(ms[4]), median(ms[5]), median(ms[0]), launches, sah);
    STRATA_CUDA_CHECK(cudaStreamDestroy(stream));
    return true;
}

int main(int argc, char** argv) {
    std::vector<uint32_t> sizes = {100000, 1000000, 4000000, 16000000};
    int runs = 100, warmup = 10, bits = 63;
    std::string objPath;
    std::string which = "all";
    bool blockHandOver = false;
    MortonSort sort = MortonSort::Radix;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::printf(
                "usage: strata-bench-lbvh [--sizes N,N,...] [--runs R] [--warmup W] [--morton-bits 30|63]\n"
                "                         [--builder karras|apetrei|skip|hploc|all] [--obj FILE]\n"
                "                         [--block-hand-over] [--merge-sort | --split-sort]\n"
                "--obj: also the triangles of an OBJ, zero-area ones kept (as peerbench keeps them),\n"
                "       before the random sets (--sizes '' for none)\n"
                "--block-hand-over: strata's block hand-over in the bottom-up pass of karras, apetrei\n"
                "       and skip (accel.lbvh_block_hand_over; the same tree); default: as published\n"
                "--merge-sort: CUB's stable merge sort of the codes (accel.morton_sort = merge; the\n"
                "       same order); default: its radix sort, as published\n"
                "--split-sort: the top 32 bits by CUB's radix sort, then the runs of equal tops\n"
                "       (accel.morton_sort = split; the same order; 63-bit codes only)\n");
            return 0;
        } else if (a == "--runs" && i + 1 < argc)
            runs = std::atoi(argv[++i]);
        else if (a == "--warmup" && i + 1 < argc)
            warmup = std::atoi(argv[++i]);
        else if (a == "--morton-bits" && i + 1 < argc)
            bits = std::atoi(argv[++i]);
        else if (a == "--builder" && i + 1 < argc)
            which = argv[++i];
        else if (a == "--block-hand-over")
            blockHandOver = true;
        else if (a == "--merge-sort")
            sort = MortonSort::Merge;
        else if (a == "--split-sort")
            sort = MortonSort::Split;
        else if (a == "--obj" && i + 1 < argc)
            objPath = argv[++i];
        else if (a == "--sizes" && i + 1 < argc) {
            sizes.clear();
            for (char* tok = std::strtok(argv[++i], ","); tok; tok = std::strtok(nullptr, ","))
                sizes.push_back(uint32_t(std::atoll(tok)));
        } else {
            std::fprintf(stderr, "strata-bench-lbvh: unknown argument '%s' (see --help)\n", a.c_str());
            return 2;
        }
    }
    std::vector<LbvhVariant> variants;
    if (which == "karras" || which == "all") variants.push_back(LbvhVariant::Karras);
    if (which == "apetrei" || which == "all") variants.push_back(LbvhVariant::Apetrei);
    if (which == "skip" || which == "all") variants.push_back(LbvhVariant::ApetreiSkip);
    if (which == "hploc" || which == "all") variants.push_back(LbvhVariant::Hploc);
    if (variants.empty()) {
        std::fprintf(stderr, "strata-bench-lbvh: --builder: expected karras, apetrei, skip, hploc or all, got '%s'\n",
                     which.c_str());
        return 2;
    }
    if (bits != 30 && bits != 63) {
        std::fprintf(stderr, "strata-bench-lbvh: --morton-bits: expected 30 or 63, got %d\n", bits);
        return 2;
    }
    std::vector<Aabb> objBounds;
    if (!objPath.empty()) {
        try {
            ObjLoadOptions keepAll;
            keepAll.skipZeroArea = false;
            LoadedMesh m = loadObj(objPath, nullptr, keepAll);
            triangleBounds(m.mesh.positions, m.mesh.triangles, objBounds);
            std::printf("%s: %zu triangles (%zu with a repeated vertex dropped)\n", objPath.c_str(), objBounds.size(),
                        m.skippedDegenerate);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "strata-bench-lbvh: %s\n", e.what());
            return 1;
        }
    }
    GpuInfo gpu = queryGpu();
    if (!gpu.available) {
        std::fprintf(stderr, "strata-bench-lbvh: no GPU (%s)\n", gpu.reason.c_str());
        return 1;
    }
    try {
        for (LbvhVariant v : variants) {
            const bool handOver = v != LbvhVariant::Hploc;
            std::printf("%s build%s, %d-bit Morton codes, %s sort, %s, median of %d builds after %d warm-up\n",
                        lbvhVariantName(v),
                        !handOver       ? ""
                        : blockHandOver ? " (block hand-over)"
                                        : " (global hand-over)",
                        bits, sort == MortonSort::Split && bits == 30 ? "radix" : name(sort), gpu.name.c_str(), runs,
                        warmup);
            const LbvhConfig config{v, bits, blockHandOver, sort};
            std::printf("%10s %9s %9s %9s %9s %9s %9s %8s %9s\n", "triangles", "bounds", "morton", "sort", "hierarchy",
                        "aabb", "total ms", "launches", "SAH(1.2,1)");
            if (!objBounds.empty() && !benchOne(config, objBounds, runs, warmup)) return 1;
            for (uint32_t n : sizes)
                if (!benchOne(config, randomTriangleBounds(n, n), runs, warmup)) return 1;
            std::printf("\n");
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "strata-bench-lbvh: %s\n", e.what());
        return 1;
    }
    return 0;
}
