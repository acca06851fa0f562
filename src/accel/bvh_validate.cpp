#include "accel/bvh_validate.h"

#include <sstream>

namespace strata {
namespace {

struct Walker {
    const BvhView& bvh;
    const std::vector<Aabb>& prims;
    BvhReport& rep;
    std::vector<uint8_t> nodeSeen, primSeen;
    float eps;
    double innerArea = 0, leafArea = 0;  // sum of A(node), of N(leaf) A(leaf); the root not counted

    void fail(const std::string& msg) {
        rep.ok = false;
        if (rep.errors.size() < 8) rep.errors.push_back(msg);
    }

    bool contains(const Aabb& outer, const Aabb& inner) const {
        return inner.lo.x >= outer.lo.x - eps && inner.lo.y >= outer.lo.y - eps && inner.lo.z >= outer.lo.z - eps &&
               inner.hi.x <= outer.hi.x + eps && inner.hi.y <= outer.hi.y + eps && inner.hi.z <= outer.hi.z + eps;
    }

    // Visits a child given by (index, count) whose box the parent stores.
    // Returns the union of the primitive bounds below it.
    Aabb child(int32_t index, int32_t count, const Aabb& box, uint32_t depth) {
        if (count > 0) {
            rep.leaves++;
            if (uint32_t(count) > rep.maxLeafSize) rep.maxLeafSize = count;
            leafArea += double(box.area()) * count;
            Aabb u;
            if (index < 0 || uint64_t(index) + count > bvh.numPrims) {
                fail("leaf range out of bounds: first " + std::to_string(index));
                return u;
            }
            for (int32_t k = 0; k < count; ++k) {
                uint32_t p = bvh.primIndex[index + k];
                if (p >= prims.size()) {
                    fail("primIndex entry out of range: " + std::to_string(p));
                    continue;
                }
                if (primSeen[p]++) fail("primitive " + std::to_string(p) + " in more than one leaf");
                u.grow(prims[p]);
            }
            if (!contains(box, u))
                fail("leaf box does not contain its primitives (first " + std::to_string(index) + ")");
            return u;
        }
        if (index < 0 || uint32_t(index) >= bvh.numNodes) {
            if (!box.isEmpty()) fail("child node index out of range: " + std::to_string(index));
            return Aabb();
        }
        Aabb u = node(uint32_t(index), depth + 1);
        innerArea += double(box.area());
        if (!contains(box, u)) fail("node box does not contain its subtree (node " + std::to_string(index) + ")");
        return u;
    }

    Aabb node(uint32_t i, uint32_t depth) {
        if (nodeSeen[i]++) {
            fail("node " + std::to_string(i) + " reached twice");
            return Aabb();
        }
        rep.innerNodes++;
        if (depth > rep.maxDepth) rep.maxDepth = depth;
        const BvhNode& n = bvh.nodes[i];
        Aabb u = child(n.left, n.leftCount, n.leftBox(), depth);
        u.grow(child(n.right, n.rightCount, n.rightBox(), depth));
        return u;
    }
};

}  // namespace

BvhReport validateBvh(const BvhView& bvh, const std::vector<Aabb>& primBounds) {
    BvhReport rep;
    if (bvh.numNodes == 0) {
        if (!primBounds.empty()) {
            rep.ok = false;
            rep.errors.push_back("empty tree over primitives");
        }
        return rep;
    }
    Aabb scene;
    for (const Aabb& b : primBounds) scene.grow(b);
    float size = scene.isEmpty() ? 1.0f : maxComponent(scene.extent());
    Walker w{bvh,
             primBounds,
             rep,
             std::vector<uint8_t>(bvh.numNodes, 0),
             std::vector<uint8_t>(primBounds.size(), 0),
             1e-5f * (size + maxComponent(vmax(scene.hi, -scene.lo)))};
    if (bvh.root >= bvh.numNodes) {
        rep.ok = false;
        rep.errors.push_back("root " + std::to_string(bvh.root) + " out of range (" + std::to_string(bvh.numNodes) +
                             " nodes)");
        return rep;
    }
    // Iterative over depth would avoid recursion limits; depths here are < 10^4.
    w.node(bvh.root, 1);
    for (uint32_t i = 0; i < bvh.numNodes; ++i)
        if (!w.nodeSeen[i]) {
            w.fail("node " + std::to_string(i) + " unreachable");
            break;
        }
    for (size_t p = 0; p < primBounds.size(); ++p)
        if (!w.primSeen[p]) {
            w.fail("primitive " + std::to_string(p) + " in no leaf");
            break;
        }
    // A ray needs at most depth-1 stack entries. Past the fast stack it
    // restarts with the deep one; past that it scans every leaf (correct, but
    // no builder should make such a tree).
    if (rep.maxDepth > uint32_t(kBvhDeepStackSize) + 1)
        w.fail("depth " + std::to_string(rep.maxDepth) + " exceeds the deep traversal stack (" +
               std::to_string(kBvhDeepStackSize) + ")");
    float rootArea = scene.area();
    if (rootArea > 0) {
        rep.sahCost = float((w.innerArea + w.leafArea) / rootArea);
        rep.innerSum = 1.0 + w.innerArea / rootArea;
        rep.leafSum = w.leafArea / rootArea;
    }
    return rep;
}

}  // namespace strata
