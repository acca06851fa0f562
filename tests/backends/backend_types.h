// tests/backends/backend_types.h — the backends a typed test runs over
// (ArborX's templated tests): the CPU backend always, the CUDA backend where
// strata is built with CUDA. A CUDA instance skips (never passes) on a machine
// without a usable GPU. One test body per subject: what both backends must
// do is written once, with the few differences as each backend's constants.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/kd_opts.h"
#include "render/make_renderer.h"
#include "render/renderer.h"
#include "scene/scene.h"

namespace strata::test {

struct CpuBackend {
    static constexpr Backend kind = Backend::Cpu;
    static constexpr const char* label = "Cpu";
    // The kd-tree's [A]-[E] switches change the GPU builder only.
    static constexpr bool kdSwitchesApply = false;
    static std::string unavailable() { return {}; }
};

#if defined(STRATA_HAVE_CUDA)
struct CudaBackend {
    static constexpr Backend kind = Backend::Cuda;
    static constexpr const char* label = "Cuda";
    static constexpr bool kdSwitchesApply = true;
    static std::string unavailable() { return cudaBackendUnavailable(); }
};
using Backends = ::testing::Types<CpuBackend, CudaBackend>;
#else
using Backends = ::testing::Types<CpuBackend>;
#endif

// Test names say the backend ("Cpu", "Cuda") instead of an index.
struct BackendName {
    template <class B>
    static std::string GetName(int) {
        return B::label;
    }
};

// s set to render on backend B.
template <class B>
Scene onBackend(Scene s) {
    s.options.render.backend = B::kind;
    return s;
}

// The renderer for s (set to backend B: onBackend) as the CLI and the viewer
// make it, the options' rules checked. The renderer keeps a reference to s.
template <class B>
std::unique_ptr<Renderer> makeOn(const Scene& s) {
    if (s.options.render.backend != B::kind)
        throw std::logic_error(std::string("test scene not set to the ") + B::label + " backend (test::onBackend)");
    return makeRenderer(s);
}

// One frame of s (set to backend B): its radiance.
template <class B>
std::vector<float> renderOn(const Scene& s, float time = 0.0f, uint64_t frame = 0) {
    std::unique_ptr<Renderer> r = makeOn<B>(s);
    r->renderFrame(time, frame);
    r->finish();
    std::vector<float> rad;
    r->readRadiance(rad);
    return rad;
}

// A builder and traversal (and for the kd-tree its [A]-[E] set).
struct AccelVariant {
    Builder builder;
    Traversal traversal;
    KdOpts kdOpts;
    BvhWidth width = BvhWidth::Two;
    std::string name() const {
        std::string n = std::string(strata::name(builder)) + " / " + strata::name(traversal);
        if (width == BvhWidth::Eight) n += " / 8 wide";
        return builder == Builder::KdTree ? n + " / " + kdOpts.name() : n;
    }
};

// Every builder, traversal and BVH width backend B can run, as
// Options::unavailable rules (cpu-sah on the CPU only, stackless with the
// skip builder only, 8 wide with BVH builders' stack traversal), the kd-tree
// with [A]-[E] off and, where they apply, on.
template <class B>
std::vector<AccelVariant> accelVariantsOf(const Options& base) {
    std::vector<AccelVariant> out;
    for (Builder b : {Builder::LbvhKarras, Builder::LbvhApetrei, Builder::LbvhSkip, Builder::Hploc, Builder::CpuSah,
                      Builder::KdTree})
        for (Traversal t : {Traversal::Stack, Traversal::Stackless})
            for (KdOpts k : {KdOpts{}, KdOpts::all()})
                for (BvhWidth w : {BvhWidth::Two, BvhWidth::Eight}) {
                    if (k != KdOpts{} && (b != Builder::KdTree || !B::kdSwitchesApply)) continue;
                    Options o = base;
                    o.render.backend = B::kind;
                    o.accel.builder = b;
                    o.accel.traversal = t;
                    o.accel.kdOpts = k;
                    o.accel.width = w;
                    bool refused = false;
                    for (const Unavailable& u : o.unavailable()) refused |= o.get(u.key) == u.value;
                    if (!refused) out.push_back({b, t, k, w});
                }
    return out;
}

inline void applyVariant(Options& o, const AccelVariant& v) {
    o.accel.builder = v.builder;
    o.accel.traversal = v.traversal;
    o.accel.kdOpts = v.kdOpts;
    o.accel.width = v.width;
}

}  // namespace strata::test

// The CUDA instance of a typed test skips without a usable GPU.
#define REQUIRE_BACKEND()                                                          \
    do {                                                                           \
        const std::string why_ = TypeParam::unavailable();                        \
        if (!why_.empty()) GTEST_SKIP() << TypeParam::label << " backend: " << why_; \
    } while (0)
