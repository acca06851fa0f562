// render/integrator.h — the wavefront path tracer's stages, one function per
// stage and per ray (or pixel). The CUDA backend runs each as a kernel, the CPU
// backend as a parallel loop; the per-ray code is this file in both.
//
//   generate ─► [ trace closest ─► shade (spawns shadow + next rays) ─► trace shadow ] x bounces ─► accumulate
//
// Queues: rays[cur] holds the rays being traced at this bounce, shade appends
// continuation rays to rays[cur ^ 1] and shadow rays to the shadow queue with
// atomic counters. Path p of a pass is pixel p.
#pragma once

#if defined(__CUDACC__)
#include <cooperative_groups.h>
#endif

#include "render/bsdf.h"
#include "render/rng.h"
#include "render/scene_view.h"
#include "render/tonemap.h"

namespace strata {

enum Counter : uint32_t {
    kQueue0 = 0,
    kQueue1 = 1,
    kShadowQueue = 2,
    kRaysTraced = 3,  // closest-hit rays, all bounces (statistic)
    kShadowRaysTraced = 4,
    kNumCounters = 8
};

struct PathBuffers {
    Ray* rays[2];
    uint32_t* rayPath[2];
    HitRecord* hits;
    Vec3* throughput;  // per path
    Vec3* radiance;    // per path
    float* lastPdf;    // per path: solid-angle pdf of the BSDF sample that made the current ray; 0: delta / camera
    Ray* shadowRays;
    Vec3* shadowContrib;
    uint32_t* shadowPath;
    uint32_t* shadowBlocked;  // VD patches: 1 once any geometry blocks the shadow ray
    uint32_t* counters;       // kNumCounters
    Vec3* film;               // per pixel: sum of samples
};

struct PassParams {
    uint32_t width, height;
    uint32_t seed;
    uint32_t sampleIndex;  // frame * spp + pass: selects the sample pattern
    int32_t maxBounces;
    int32_t rrStart;
    bool nee;
    bool whitted = false;  // render.integrator = whitted (stageShade)
    // vd.last_bounce_any_hit in effect (direct mode, no VD patch emits): see
    // vdOcclusionOnly.
    bool vdAnyHitLast = false;
};

// Whether this bounce's VD resolve asks for any hit instead of the closest:
// the path tracer's last bounce's rays only gather what they reach of an
// emitter or the environment, so a VD patch before their closest triangle
// (found by the trace stage) only blocks them, wherever it is hit. The
// resolve flags them in shadowBlocked, indexed by ray slot (no shadow rays
// are in flight then). Whitted shades every hit with its lights, the last
// bounce's too: its rays need the closest hit.
STRATA_HD bool vdOcclusionOnly(const PassParams& p, int bounce) {
    return p.vdAnyHitLast && bounce == p.maxBounces && !p.whitted;
}

// Whether shading at this bounce may spawn shadow rays: the path tracer's
// next-event estimation stops at the last bounce; Whitted lights every hit.
STRATA_HD bool spawnsShadowRays(const PassParams& p, int bounce) {
    return p.whitted || (p.nee && bounce < p.maxBounces);
}

// Whitted: the fraction of the mirror reflection added to a surface's
// direct light (every non-emitting surface; not energy-conserving, as in a
// classic ray tracer: what is measured is the reflection ray).
constexpr float kWhittedMirror = 0.25f;

// Appends to a queue: returns a slot. On the GPU the threads of a warp that
// append together take their slots with one atomic (warp-aggregated), instead
// of contending one atomic each on the queue's counter.
STRATA_HD uint32_t queueAppend(uint32_t* counter) {
#if defined(__CUDA_ARCH__)
    namespace cg = cooperative_groups;
    cg::coalesced_group g = cg::coalesced_threads();
    uint32_t base = 0;
    if (g.thread_rank() == 0) base = atomicAdd(counter, g.size());
    return g.shfl(base, 0) + g.thread_rank();
#else
    return atomicAddU32(counter, 1u);
#endif
}

STRATA_HD SampleStream pathStream(const PassParams& p, uint32_t pixel) {
    return SampleStream::make(p.seed, pixel, p.sampleIndex);
}
// Dimensions: 0-1 pixel jitter; bounce b uses 2 + 8b .. 9 + 8b.
STRATA_HD SampleStream bounceStream(const PassParams& p, uint32_t pixel, int bounce) {
    SampleStream s = pathStream(p, pixel);
    s.dim = 2 + 8 * uint32_t(bounce);
    return s;
}

// Stage 1: camera rays, one per pixel. Also opens the queues.
STRATA_HD void stageGenerate(const SceneView& s, const PathBuffers& b, const PassParams& p, uint32_t pixel) {
    uint32_t n = p.width * p.height;
    if (pixel == 0) {
        b.counters[kQueue0] = n;
        b.counters[kQueue1] = 0;
        b.counters[kShadowQueue] = 0;
    }
    SampleStream rng = pathStream(p, pixel);
    float x = (float(pixel % p.width) + rng.next()) / float(p.width);
    float y = (float(pixel / p.width) + rng.next()) / float(p.height);
    b.rays[0][pixel] = cameraRay(s.camera, x, y);
    b.rayPath[0][pixel] = pixel;
    b.hits[pixel] = kNoHit;
    b.throughput[pixel] = make3(1.0f);
    b.radiance[pixel] = make3(0.0f);
    b.lastPdf[pixel] = 0.0f;
}

// Stage 2: closest hit of each queued ray, resolved with a 64-bit atomicMin.
// Slot 0 also resets the queues that shade will fill (they are unused here).
// K: the structure (traceKindOf(s)), fixed at compile time on the GPU.
template <TraceKind K, bool Fused = false>
STRATA_HD void stageTraceClosestAs(const SceneView& s, const PathBuffers& b, int bounce, uint32_t slot) {
    int cur = bounce & 1;
    uint32_t count = b.counters[cur];
    if (slot == 0) {
        b.counters[cur ^ 1] = 0;
        b.counters[kShadowQueue] = 0;
        b.counters[kRaysTraced] += count;
    }
    if (slot >= count) return;
    const Ray ray = b.rays[cur][slot];
    HitRecord h;
    if constexpr (Fused) {  // vd.middle_level unified: the patches' pairs on the way (scene_view.h)
        float tmax = ray.tmax;
        const uint32_t prim = traceFusedAs<K, false>(s, ray, tmax, slot);
        h = prim == ~0u ? kNoHit : packHit(tmax, prim);
    } else {
        h = traceClosestAs<K>(s, ray);
    }
    atomicMinU64(&b.hits[slot], h);
}
// Whether the trace stages append the VD pairs themselves (vd.middle_level
// unified: the BVH kinds, flat or instanced), as a compile-time flag of the kind K.
template <TraceKind K>
STRATA_HD bool tracesFused(const SceneView& s) {
    return isBvhKind(K) && s.vd.fused;
}
STRATA_HD void stageTraceClosest(const SceneView& s, const PathBuffers& b, int bounce, uint32_t slot) {
    withTraceKind(traceKindOf(s), [&](auto k) {
        constexpr TraceKind K = decltype(k)::value;
        if constexpr (isBvhKind(K))
            if (tracesFused<K>(s)) return stageTraceClosestAs<K, true>(s, b, bounce, slot);
        stageTraceClosestAs<K>(s, b, bounce, slot);
    });
}

// Stage 2b (VD patches, vd_view.h step 1; timed as vd/pairs): the patches a
// ray enters before its closest triangle (stage 2's hit) become pairs for
// the bottom level; found through the instances in instanced mode (K:
// vdPairKindOf), and over skip links when the triangles are. A ray of the last bounce that
// only asks whether a patch blocks it (vdOcclusionOnly) needs none when its
// triangle does not emit: it gathers nothing either way.
template <TraceKind K>
STRATA_HD void stageVdPairsAs(const SceneView& s, const PathBuffers& b, const PassParams& p, int bounce,
                              uint32_t slot) {
    const int cur = bounce & 1;
    if (slot >= b.counters[cur]) return;
    const Ray ray = b.rays[cur][slot];
    const HitRecord h = b.hits[slot];
    if (vdOcclusionOnly(p, bounce) && isHit(h) &&
        s.materials[s.geo.triMaterial[hitPayload(h)]].type != MaterialType::Emissive)
        return;
    vdAppendPairsIn<isTwoLevelKind(K), K == TraceKind::BvhStackless>(s.vd, ray,
                                                                            isHit(h) ? hitDistance(h) : ray.tmax, slot);
}
// The kind the pair walk is compiled for: through the instances whenever
// the VD view has them (instanced mode, even where no triangle is in the
// triangles' two levels: a scene of VD meshes alone), else the triangles'.
STRATA_HD TraceKind vdPairKindOf(const SceneView& s) {
    return s.vd.instances.numInstances ? TraceKind::TwoLevel : traceKindOf(s);
}
STRATA_HD void stageVdPairs(const SceneView& s, const PathBuffers& b, const PassParams& p, int bounce, uint32_t slot) {
    withTraceKind(vdPairKindOf(s), [&](auto k) { stageVdPairsAs<decltype(k)::value>(s, b, p, bounce, slot); });
}

struct LightSample {
    Vec3 wi;
    Vec3 radiance;
    float pdf = 0;  // solid angle, including the choice of light
    float distance = 1e30f;
    bool delta = false;
};

STRATA_HD int lightGroups(const SceneView& s) {
    return int(s.sun.enabled) + int(s.env.present()) + int(s.emissive.count > 0);
}

STRATA_HD bool sampleLight(const SceneView& s, Vec3 x, float uGroup, float u1, float u2, LightSample& ls) {
    int groups = lightGroups(s);
    if (groups == 0) return false;
    int g = imin(int(uGroup * groups), groups - 1);
    float pGroup = 1.0f / groups;
    if (s.sun.enabled) {
        if (g == 0) {
            ls.wi = s.sun.direction;
            ls.radiance = s.sun.radiance;
            ls.pdf = pGroup;
            ls.delta = true;
            return true;
        }
        --g;
    }
    if (s.env.present()) {
        if (g == 0) {
            ls.radiance = sampleEnv(s.env, u1, u2, ls.wi, ls.pdf);
            ls.pdf *= pGroup;
            return ls.pdf > 0.0f;
        }
        --g;
    }
    // Emissive triangle: pick by power, then a uniform point on it.
    uint32_t li = sampleCdf(s.emissive.cdf, s.emissive.count, uGroup * groups - floorf(uGroup * groups));
    uint32_t prim = s.emissive.tris[li];
    Tri t = s.geo.tris[prim];
    Vec3 p0 = s.geo.pos[t.v[0]], p1 = s.geo.pos[t.v[1]], p2 = s.geo.pos[t.v[2]];
    Vec2 bc = sampleTriangle(u1, u2);
    Vec3 y = p0 * (1.0f - bc.x - bc.y) + p1 * bc.x + p2 * bc.y;
    Vec3 nrm = cross(p1 - p0, p2 - p0);
    float area = 0.5f * length(nrm);
    Vec3 d = y - x;
    float dist2 = dot(d, d);
    if (area <= 0.0f || dist2 <= 0.0f) return false;
    float dist = sqrtf(dist2);
    ls.wi = d / dist;
    float cosL = fabsf(dot(nrm, ls.wi)) / (2.0f * area);
    if (cosL <= 1e-7f) return false;
    ls.radiance = s.materials[s.geo.triMaterial[prim]].emission;
    ls.pdf = pGroup * s.emissive.pickPdf[li] * dist2 / (cosL * area);
    ls.distance = dist;
    return true;
}

STRATA_HD Vec3 offsetOrigin(Vec3 x, Vec3 n, Vec3 dir) {
    float eps = 1e-4f * (1.0f + maxComponent(vmax(x, -x)));
    return x + n * (dot(dir, n) >= 0.0f ? eps : -eps);
}

// Stage 3: shading of each hit: emission (MIS-weighted), next-event estimation
// (a shadow ray), BSDF sampling with Russian roulette (a continuation ray).
// Queues the path's next ray for the next bounce, with its throughput and
// the solid-angle pdf of its direction (0: a delta direction).
STRATA_HD void continuePath(const PathBuffers& b, int cur, uint32_t path, Vec3 org, Vec3 dir, Vec3 beta, float pdf) {
    Ray nr;
    nr.org = org;
    nr.dir = dir;
    nr.tmin = 0.0f;
    nr.tmax = 1e30f;
    uint32_t k = queueAppend(&b.counters[cur ^ 1]);
    b.rays[cur ^ 1][k] = nr;
    b.rayPath[cur ^ 1][k] = path;
    b.throughput[path] = beta;
    b.lastPdf[path] = pdf;
}

STRATA_HD void stageShade(const SceneView& s, const PathBuffers& b, const PassParams& p, int bounce, uint32_t slot) {
    int cur = bounce & 1;
    if (slot >= b.counters[cur]) return;
    uint32_t path = b.rayPath[cur][slot];
    Ray ray = b.rays[cur][slot];
    HitRecord h = b.hits[slot];
    b.hits[slot] = kNoHit;                                            // ready for the next bounce's atomicMin
    if (vdOcclusionOnly(p, bounce) && b.shadowBlocked[slot]) return;  // a (non-emitting) VD patch is in the way
    Vec3 beta = b.throughput[path];
    float lastPdf = b.lastPdf[path];
    int groups = lightGroups(s);
    float pGroup = groups > 0 ? 1.0f / groups : 0.0f;
    Vec3 wo = -ray.dir;

    if (!isHit(h)) {
        Vec3 le = envRadiance(s.env, ray.dir);
        float w = 1.0f;
        if (p.nee && lastPdf > 0.0f) w = powerHeuristic(lastPdf, pGroup * envPdf(s.env, ray.dir));
        b.radiance[path] += beta * le * w;
        return;
    }
    const uint32_t prim = hitPayload(h);
    const float t = hitDistance(h);
    // The surface: a triangle of the middle level, or a VD patch's cell.
    Vec3 ng, nsHit;
    bool hasNs = false, hasUv = false;
    Vec2 uv{0, 0};
    int32_t matIndex;
    float area = 0.0f;   // triangle area (emissive MIS)
    int32_t light = -1;  // index in the emissive list
    if (isVdPayload(prim)) {
        VdSurface vs = vdSurfaceAt(s.vd, prim, ray);
        ng = vs.ng;
        nsHit = vs.ns;
        hasNs = hasUv = true;
        uv = vs.uv;
        matIndex = vs.material;
    } else {
        Tri tri = s.geo.tris[prim];
        Vec3 p0 = s.geo.pos[tri.v[0]], p1 = s.geo.pos[tri.v[1]], p2 = s.geo.pos[tri.v[2]];
        Vec3 cr = cross(p1 - p0, p2 - p0);
        ng = normalize(cr);
        area = 0.5f * length(cr);
        Vec2 bc = triangleBarycentrics(ray, p0, p1, p2);
        float b0 = 1.0f - bc.x - bc.y;
        if (s.geo.nrm) {
            nsHit = normalize(s.geo.nrm[tri.v[0]] * b0 + s.geo.nrm[tri.v[1]] * bc.x + s.geo.nrm[tri.v[2]] * bc.y);
            hasNs = true;
        }
        if (s.geo.uv) {
            uv = s.geo.uv[tri.v[0]] * b0 + s.geo.uv[tri.v[1]] * bc.x + s.geo.uv[tri.v[2]] * bc.y;
            hasUv = true;
        }
        matIndex = s.geo.triMaterial[prim];
        if (s.emissive.count > 0) light = s.emissive.lightOfTri[prim];
    }
    const Material& m = s.materials[matIndex];

    if (m.type == MaterialType::Emissive) {
        float w = 1.0f;
        if (p.nee && lastPdf > 0.0f && s.emissive.count > 0) {
            float cosL = fabsf(dot(ng, wo));
            float pdfL = (light >= 0 && cosL > 0.0f && area > 0.0f)
                             ? pGroup * s.emissive.pickPdf[light] * t * t / (cosL * area)
                             : 0.0f;
            w = powerHeuristic(lastPdf, pdfL);
        }
        b.radiance[path] += beta * m.emission * w;
        return;
    }
    if (bounce >= p.maxBounces && !p.whitted) return;  // Whitted still lights the last hit

    Vec3 ngF = dot(ng, wo) < 0.0f ? -ng : ng;  // geometric normal on wo's side
    Vec3 ns = ngF;
    if (hasNs) {
        Vec3 n = nsHit;
        if (dot(n, ngF) < 0.0f) n = -n;
        if (isFinite(n) && dot(n, n) > 0.5f) ns = n;
    }
    Vec3 albedo = m.albedo;
    if (m.albedoTexture >= 0 && hasUv) albedo = albedo * sampleTexture(s.textures[m.albedoTexture], uv);
    Vec3 x = ray.org + ray.dir * t;
    SampleStream rng = bounceStream(p, path, bounce);
    float uB1 = rng.next(), uB2 = rng.next(), uB3 = rng.next();
    float uL0 = rng.next(), uL1 = rng.next(), uL2 = rng.next(), uRR = rng.next();

    // Next-event estimation (Whitted: the shadow rays, unweighted).
    if (spawnsShadowRays(p, bounce) && !isDeltaMaterial(m)) {
        LightSample ls;
        if (sampleLight(s, x, uL0, uL1, uL2, ls) && dot(ls.wi, ngF) > 0.0f) {
            float pdfB;
            Vec3 f = evalBsdf(m, albedo, ns, wo, ls.wi, pdfB);
            if (maxComponent(f) > 0.0f && maxComponent(ls.radiance) > 0.0f) {
                float w = ls.delta || p.whitted ? 1.0f : powerHeuristic(ls.pdf, pdfB);
                Vec3 contrib = beta * f * ls.radiance * (w / ls.pdf);
                Ray sr;
                sr.org = offsetOrigin(x, ngF, ls.wi);
                sr.dir = ls.wi;
                sr.tmin = 0.0f;
                sr.tmax = ls.distance < 1e29f ? ls.distance * (1.0f - 1e-3f) : 1e30f;
                uint32_t k = queueAppend(&b.counters[kShadowQueue]);
                b.shadowRays[k] = sr;
                b.shadowContrib[k] = contrib;
                b.shadowPath[k] = path;
            }
        }
    }

    if (bounce >= p.maxBounces) return;
    if (p.whitted) {  // one mirror reflection about the shading normal
        Vec3 wi = ray.dir - ns * (2.0f * dot(ray.dir, ns));
        if (dot(wi, ngF) <= 0.0f) wi = ray.dir - ngF * (2.0f * dot(ray.dir, ngF));
        // A delta direction (lastPdf 0): an emitter it hits counts in full.
        continuePath(b, cur, path, offsetOrigin(x, ngF, wi), normalize(wi), beta * kWhittedMirror, 0.0f);
        return;
    }

    // BSDF sampling and Russian roulette.
    BsdfSample bs;
    if (!sampleBsdf(m, albedo, ns, ng, wo, uB1, uB2, uB3, bs)) return;
    beta *= bs.weight;
    if (bounce + 1 >= p.rrStart) {
        float q = fmaxf(0.05f, 1.0f - maxComponent(beta));
        if (uRR < q) return;
        beta = beta / (1.0f - q);
    }
    if (!isFinite(beta) || maxComponent(beta) <= 0.0f) return;
    continuePath(b, cur, path, offsetOrigin(x, ngF, bs.wi), bs.wi, beta, bs.delta ? 0.0f : bs.pdf);
}

// Stage 4: shadow rays (any hit); unoccluded ones add their contribution.
// A path has at most one shadow ray per bounce, so the add does not race.
// With VD patches the contribution waits for the bottom level: the ray is
// marked blocked or not (stageVdShadowPairs appends the pairs of the ones
// that are not); stageShadowFinish adds.
template <TraceKind K, bool Fused = false>
STRATA_HD void stageTraceShadowAs(const SceneView& s, const PathBuffers& b, uint32_t slot) {
    uint32_t count = b.counters[kShadowQueue];
    if (slot == 0) b.counters[kShadowRaysTraced] += count;
    if (slot >= count) return;
    const Ray ray = b.shadowRays[slot];
    bool blocked;
    if constexpr (Fused) {  // the pairs of the patch boxes met before a triangle blocks (if one does)
        float tmax = ray.tmax;
        blocked = traceFusedAs<K, true>(s, ray, tmax, slot) != ~0u;
    } else {
        blocked = traceAnyAs<K>(s, ray);
    }
    if (!s.vd.numPatches) {
        if (!blocked) b.radiance[b.shadowPath[slot]] += b.shadowContrib[slot];
        return;
    }
    b.shadowBlocked[slot] = blocked ? 1u : 0u;
}
STRATA_HD void stageTraceShadow(const SceneView& s, const PathBuffers& b, uint32_t slot) {
    withTraceKind(traceKindOf(s), [&](auto k) {
        constexpr TraceKind K = decltype(k)::value;
        if constexpr (isBvhKind(K))
            if (tracesFused<K>(s)) return stageTraceShadowAs<K, true>(s, b, slot);
        stageTraceShadowAs<K>(s, b, slot);
    });
}

// Stage 4a (VD patches): the pairs of the shadow rays no triangle blocks.
template <TraceKind K>
STRATA_HD void stageVdShadowPairsAs(const SceneView& s, const PathBuffers& b, uint32_t slot) {
    if (slot >= b.counters[kShadowQueue] || b.shadowBlocked[slot]) return;
    const Ray ray = b.shadowRays[slot];
    vdAppendPairsIn<isTwoLevelKind(K), K == TraceKind::BvhStackless>(s.vd, ray, ray.tmax, slot);
}
STRATA_HD void stageVdShadowPairs(const SceneView& s, const PathBuffers& b, uint32_t slot) {
    withTraceKind(vdPairKindOf(s), [&](auto k) { stageVdShadowPairsAs<decltype(k)::value>(s, b, slot); });
}

// Stage 4b (VD patches only): after the bottom level, unblocked shadow rays add.
STRATA_HD void stageShadowFinish(const PathBuffers& b, uint32_t slot) {
    if (slot >= b.counters[kShadowQueue]) return;
    if (!b.shadowBlocked[slot]) b.radiance[b.shadowPath[slot]] += b.shadowContrib[slot];
}

// Stage 5: add each path's radiance to its pixel.
STRATA_HD void stageAccumulate(const PathBuffers& b, uint32_t pixel) {
    Vec3 r = b.radiance[pixel];
    if (isFinite(r)) b.film[pixel] += r;
}

// Display: average and tone map to RGBA8.
STRATA_HD uint32_t stageTonemap(const Vec3* film, uint32_t pixel, float invSamples, float exposureScale, Tonemap op) {
    return tonemapPixel(film[pixel] * invSamples, exposureScale, op);
}

}  // namespace strata
