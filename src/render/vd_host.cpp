#include "render/vd_host.h"

#include <algorithm>
#include <cmath>

#include "accel/lbvh/lbvh_host.h"
#include "render/instancing.h"

namespace strata {

float pixelAngle(const CameraView& cam, int height) { return 2.0f * length(cam.up) / float(height); }

void VdHost::prepare(const Scene& scene, const FlatScene& flat, const VdOptions& o, float t, const AccelOptions& accel,
                     bool viaInstances, bool unified) {
    poseVdPatches(scene, flat, t, frame_, !viaInstances && !o.pairCull);
    viaInstances_ = viaInstances;
    // vd.pair_cull: the middle level's primitives are the patches' cull boxes
    // (object space, again when vd.max_level changes), else their loose boxes.
    boxShift_ = o.pairCull ? kVdQuadrantShift : 0;
    if (o.pairCull && o.maxLevel != cullLevel_) {
        cull_ = vdCullTable(flat.patches, flat.vdMaps, flat.patchOrigin, o.maxLevel);
        cullLevel_ = o.maxLevel;
    }
    sixteenths_ = nullptr;
    if (!viaInstances) {
        if (o.pairCull) {
            worldQuadrants_.resize(cull_.quadrants.size());
            worldSixteenths_.resize(cull_.sixteenths.size());
            for (size_t k = 0; k < flat.patches.size(); ++k)
                vdWorldCullBoxes(&cull_.sixteenths[kVdCullBoxes * k], frame_.worldFromObject[flat.patchInstance[k]],
                                 &worldSixteenths_[kVdCullBoxes * k], &worldQuadrants_[4 * k]);
            sixteenths_ = worldSixteenths_.data();
        }
        if (!unified) {
            AccelOptions rebuilt = accel;  // the patch boxes' tree is built each frame (as on the GPU), never refitted
            rebuilt.rebuild = Rebuild::EveryFrame;
            buildHostAccel(o.pairCull ? worldQuadrants_ : frame_.worldBoxes, rebuilt, boxes_);
            boxesView_ = boxes_.view(accel);
        }
    } else {
        // One object-space BLAS per VD mesh over its patches' boxes (again
        // when the builder or the boxes change) under a top level over the
        // VD instances: the plan every two-level hierarchy follows.
        // unified: the object-space boxes only (objectMiddleBoxes), which the
        // triangles' BLASes take.
        if (o.pairCull) sixteenths_ = cull_.sixteenths.data();
        if (unified) {
            patchLevel_.reset();  // the patches' own hierarchy, when it was separate
            if (!o.pairCull && objectPatchBoxes_.size() != flat.patches.size()) {
                objectPatchBoxes_.resize(flat.patches.size());
                for (size_t k = 0; k < flat.patches.size(); ++k) objectPatchBoxes_[k] = flat.patches[k].box;
            }
            frozen_.resize(flat.patches.size(), 0);
            return;
        }
        if (!patchLevel_) patchLevel_ = std::make_unique<TopLevelHost>(patchPlan(scene, flat));
        const InstancePlan& plan = patchLevel_->plan();
        auto staticBoxes = [&](uint32_t b, std::vector<Aabb>& out) {
            const uint32_t first = plan.blas[b].primBase, count = plan.meshes[plan.blas[b].mesh].prims;
            if (o.pairCull)
                out.assign(cull_.quadrants.begin() + 4 * size_t(first),
                           cull_.quadrants.begin() + 4 * size_t(first + count));
            else
                for (uint32_t k = 0; k < count; ++k) out.push_back(flat.patches[first + k].box);
        };
        const std::string key = staticBlasKey(accel, o.pairCull ? "cull " + std::to_string(cullLevel_) : "");
        patchLevel_->build(accel, key, staticBoxes, TopLevelFrame{&frame_.worldFromObject});
    }
    frozen_.resize(flat.patches.size(), 0);
}

VdView VdHost::view(const FlatScene& flat, const VdOptions& o, float angle, Vec3 camera, uint32_t rays) {
    const size_t want = vdPairCapacity(rays, mostPairs_);
    if (pairs_.size() < want) pairs_.resize(want);
    if (!o.freezeLod) std::fill(frozen_.begin(), frozen_.end(), int8_t(0));
    // vd.tree_cache: new slots when the trees' finest level or kind changes.
    const bool grid = o.leaf == VdLeaf::Triangles;
    const uint32_t patches = uint32_t(flat.patches.size());
    if (!o.treeCache) {
        cacheSlots_ = 0;
        slotNodes_.clear();
        slotGrid_.clear();
    } else if (!cacheSlots_ || cacheLevel_ != o.maxLevel || cacheGrid_ != grid) {
        cacheSlots_ = vdTreeCacheSlots(patches, o.maxLevel, grid);
        cacheLevel_ = o.maxLevel;
        cacheGrid_ = grid;
        slotNodes_.assign(cacheSlots_, {});
        slotGrid_.assign(cacheSlots_, {});
        cacheSlot_.assign(patches, -1);
        cacheHeld_.assign(patches, int8_t(-1));
        cacheNext_ = 0;
    }
    VdView v;
    v.numPatches = uint32_t(flat.patches.size());
    v.patches = flat.patches.data();
    v.patchInstance = flat.patchInstance.data();
    v.objectFromWorld = frame_.objectFromWorld.data();
    v.worldFromObject = frame_.worldFromObject.data();
    v.maps = flat.vdMaps.data();
    v.links = flat.vdLinks.data();
    v.patchLevel = frozen_.data();
    v.sixteenths = sixteenths_;
    v.boxes = boxesView_;
    if (viaInstances_ && patchLevel_) v.instances = patchLevel_->view();
    v.pairs = pairs_.data();
    v.pairCount = counts_;
    v.pairCapacity = uint32_t(pairs_.size());
    vdViewOptions(v, o, angle, camera,
                  boxShift_ ? std::min(o.maxLevel, cullLevel_) : o.maxLevel);  // trees no finer than the cull boxes
    counts_[0] = counts_[1] = 0;
    return v;
}

bool VdHost::pairsFit(VdView& v) {
    mostPairs_ = std::max(mostPairs_, counts_[0]);
    if (counts_[0] <= v.pairCapacity) return true;
    pairs_.resize(vdPairCapacity(0, counts_[0]));
    v.pairs = pairs_.data();
    v.pairCapacity = uint32_t(pairs_.size());
    counts_[0] = counts_[1] = 0;
    return false;
}

void VdHost::resolve(const VdView& v, const Ray* rays, HitRecord* hits, uint32_t* blocked, ThreadPool& pool) {
    const uint32_t n = std::min(counts_[0], v.pairCapacity);  // all of them after pairsFit
    pairsResolved_ += n;
    std::sort(pairs_.begin(), pairs_.begin() + n);
    std::vector<uint32_t> start;  // the first pair of each patch's run
    for (uint32_t i = 0; i < n; ++i)
        if (i == 0 || (pairs_[i] >> 32) != (pairs_[i - 1] >> 32)) start.push_back(i);
    start.push_back(n);
    pool.parallelFor(uint32_t(start.size() - 1), [&](uint32_t g) {
        const uint32_t begin = start[g], end = start[g + 1];
        const uint32_t patch = uint32_t(pairs_[begin] >> 32);
        const VdPatch& p = v.patches[patch];
        int level = 1;
        // The frame's first resolve fixes the level for its later ones (and
        // vd.freeze_lod across frames): see vdJobsKernel in vd_gpu.cu.
        if (frozen_[patch] > 0) {  // clamped to this frame's range, as on the GPU
            level = vdTracedLevel(v, p, frozen_[patch]);
        } else {
            const Affine& w = v.worldFromObject[v.patchInstance[patch]];
            for (uint32_t i = begin; i < end; ++i)
                level = std::max(level, vdRayLevel(v, p, w, rays[uint32_t(pairs_[i])]));
            frozen_[patch] = int8_t(level);
        }
        thread_local std::vector<VdNode> built;
        thread_local std::vector<Vec3> builtGrid;
        const VdNode* nodes = nullptr;
        const Vec3* grid = nullptr;
        int32_t slot = cacheSlots_ ? cacheSlot_[patch] : -1;
        if (slot >= 0 && cacheHeld_[patch] == level) {  // vd.tree_cache: kept from an earlier ray cast
            nodes = slotNodes_[size_t(slot)].data();
            grid = v.boxLeaves ? nullptr : slotGrid_[size_t(slot)].data();
        } else {
            built.resize(vdNodeCount(level));
            builtGrid.resize(v.boxLeaves ? 0 : vdGridCount(level));  // Harada's leaves: their vertices from the map
            vdBuildTree(p, v.maps[p.map], level, built.data(), v.boxLeaves ? nullptr : builtGrid.data());
            nodes = built.data();
            grid = v.boxLeaves ? nullptr : builtGrid.data();
            if (cacheSlots_ && slot < 0 && cacheNext_.load() < cacheSlots_) {  // a free slot, first come first served
                const uint32_t k = cacheNext_++;
                if (k < cacheSlots_) cacheSlot_[patch] = slot = int32_t(k);
            }
            if (slot >= 0) {  // one task per patch: nobody reads this slot meanwhile
                slotNodes_[size_t(slot)] = built;
                slotGrid_[size_t(slot)] = builtGrid;
                cacheHeld_[patch] = int8_t(level);
            }
        }
        for (uint32_t i = begin; i < end; ++i) {
            const uint32_t ray = uint32_t(pairs_[i]);
            if (blocked) {
                if (!atomicLoadU32(&blocked[ray]) &&  // a ray another patch has blocked is done
                    vdTraceRay<true>(v, patch, nodes, grid, level, rays[ray], hits ? &hits[ray] : nullptr))
                    atomicExchU32(&blocked[ray], 1u);
            } else {
                vdTraceRay<false>(v, patch, nodes, grid, level, rays[ray], &hits[ray]);
            }
        }
    });
    counts_[0] = counts_[1] = 0;
}

UnifiedPatches VdHost::objectMiddleBoxes() const {
    if (boxShift_) return {cull_.quadrants.data(), boxShift_, "vd quadrants " + std::to_string(cullLevel_)};
    return {objectPatchBoxes_.data(), 0, "vd loose boxes"};
}

size_t VdHost::memoryBytes() const {
    size_t b = (patchLevel_ ? patchLevel_->memoryBytes() : 0) + boxes_.bytes() +
               (frame_.worldBoxes.size() + objectPatchBoxes_.size()) * sizeof(Aabb) + frozen_.size();
    if (cacheSlots_) b += cacheSlot_.size() * sizeof(int32_t) + cacheHeld_.size();
    for (size_t k = 0; k < slotNodes_.size(); ++k)
        b += slotNodes_[k].capacity() * sizeof(VdNode) + slotGrid_[k].capacity() * sizeof(Vec3);
    return b + (cull_.quadrants.size() + cull_.sixteenths.size() + worldQuadrants_.size() + worldSixteenths_.size()) *
                   sizeof(Aabb);
}

size_t VdHost::pairBytes() const { return pairs_.size() * sizeof(VdPair); }

}  // namespace strata
