// Procedural generators: triangle budgets, mesh validity, determinism,
// parameter errors, and the animated ones (runner, forest) posed on the CPU.
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <map>
#include <string>

#include "core/error.h"
#include "scene/generators/generators.h"
#include "scene/skeleton_pose.h"

using namespace strata;
using nlohmann::json;

namespace {

LoadedMesh gen(const std::string& name, const json& params = json::object()) {
    return generateMesh(name, params, "test.json: meshes[0]");
}

struct Budget {
    const char* name;
    size_t lo, hi;
};

// The chapter's counts +-5% (atrium 66,454 ~ Sponza, kitchen 101,015, runner
// 78,029, forest 174,117 ~ Fairy Forest); the small ones exactly.
const Budget kBudgets[] = {
    {"atrium", 62700, 69300}, {"kitchen", 95965, 106065},
    {"runner", 74128, 81930}, {"forest", 165411, 182823},
    {"plane", 2, 2},          {"box", 12, 12},
    {"sphere", 960, 960},     {"cornell", 50, 50},
};

float triArea(const Mesh& m, const Tri& t) {
    return 0.5f * length(cross(m.positions[t.v[1]] - m.positions[t.v[0]], m.positions[t.v[2]] - m.positions[t.v[0]]));
}

// Checks every invariant a generated mesh promises; returns the number of failures.
void expectValid(const LoadedMesh& lm, const std::string& what) {
    const Mesh& m = lm.mesh;
    const size_t nv = m.positions.size();
    ASSERT_GT(nv, 0u) << what;
    ASSERT_EQ(m.normals.size(), nv) << what;
    ASSERT_EQ(m.uvs.size(), nv) << what;
    ASSERT_EQ(m.triMaterial.size(), m.triangles.size()) << what;
    ASSERT_FALSE(lm.materials.empty()) << what;
    size_t badPos = 0, badNormal = 0, badUv = 0, badIndex = 0, degenerate = 0, misoriented = 0, badMaterial = 0;
    for (size_t i = 0; i < nv; ++i) {
        badPos += !isFinite(m.positions[i]);
        badNormal += !(fabsf(length(m.normals[i]) - 1.0f) < 1e-3f);
        badUv += !(std::isfinite(m.uvs[i].x) && std::isfinite(m.uvs[i].y));
    }
    for (size_t t = 0; t < m.triangles.size(); ++t) {
        const Tri& tr = m.triangles[t];
        if (tr.v[0] >= nv || tr.v[1] >= nv || tr.v[2] >= nv) {
            ++badIndex;
            continue;
        }
        degenerate += !(triArea(m, tr) >= 1e-10f);
        // Winding agrees with the vertex normals (outward for solids).
        Vec3 g = cross(m.positions[tr.v[1]] - m.positions[tr.v[0]], m.positions[tr.v[2]] - m.positions[tr.v[0]]);
        misoriented += !(dot(g, m.normals[tr.v[0]] + m.normals[tr.v[1]] + m.normals[tr.v[2]]) > 0);
        badMaterial += !(m.triMaterial[t] >= 0 && size_t(m.triMaterial[t]) < lm.materials.size());
    }
    EXPECT_EQ(badPos, 0u) << what << ": non-finite positions";
    EXPECT_EQ(badNormal, 0u) << what << ": normals not unit length";
    EXPECT_EQ(badUv, 0u) << what << ": non-finite uvs";
    EXPECT_EQ(badIndex, 0u) << what << ": indices out of range";
    EXPECT_EQ(degenerate, 0u) << what << ": degenerate triangles";
    EXPECT_EQ(misoriented, 0u) << what << ": winding disagrees with normals";
    EXPECT_EQ(badMaterial, 0u) << what << ": triMaterial out of range";
    std::map<std::string, int> names;
    for (const NamedMaterial& nm : lm.materials)
        EXPECT_EQ(names[nm.name]++, 0) << what << ": duplicate material " << nm.name;
}

bool sameMesh(const Mesh& a, const Mesh& b) {
    if (a.positions.size() != b.positions.size() || a.triangles.size() != b.triangles.size()) return false;
    for (size_t i = 0; i < a.positions.size(); ++i) {
        if (a.positions[i].x != b.positions[i].x || a.positions[i].y != b.positions[i].y ||
            a.positions[i].z != b.positions[i].z || a.normals[i].x != b.normals[i].x)
            return false;
    }
    for (size_t t = 0; t < a.triangles.size(); ++t)
        for (int k = 0; k < 3; ++k)
            if (a.triangles[t].v[k] != b.triangles[t].v[k]) return false;
    return a.triMaterial == b.triMaterial && a.skin.bones == b.skin.bones && a.skin.weight0 == b.skin.weight0 &&
           a.skeleton.times == b.skeleton.times;
}

// Closest hit of a ray with the mesh (brute force, Moller-Trumbore); t < 0: none.
float castRay(const Mesh& m, Vec3 o, Vec3 d, size_t* hitTri = nullptr) {
    float best = -1;
    for (size_t t = 0; t < m.triangles.size(); ++t) {
        Vec3 a = m.positions[m.triangles[t].v[0]], b = m.positions[m.triangles[t].v[1]],
             c = m.positions[m.triangles[t].v[2]];
        Vec3 e1 = b - a, e2 = c - a, p = cross(d, e2);
        float det = dot(e1, p);
        if (fabsf(det) < 1e-12f) continue;
        float inv = 1 / det;
        Vec3 s = o - a;
        float u = dot(s, p) * inv;
        if (u < 0 || u > 1) continue;
        Vec3 q = cross(s, e1);
        float v = dot(d, q) * inv;
        if (v < 0 || u + v > 1) continue;
        float dist = dot(e2, q) * inv;
        if (dist > 1e-4f && (best < 0 || dist < best)) {
            best = dist;
            if (hitTri) *hitTri = t;
        }
    }
    return best;
}

int materialIndex(const LoadedMesh& lm, const std::string& name) {
    for (size_t i = 0; i < lm.materials.size(); ++i)
        if (lm.materials[i].name == name) return int(i);
    return -1;
}

float maxDisplacement(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    float m = 0;
    for (size_t i = 0; i < a.size(); ++i) m = std::max(m, length(a[i] - b[i]));
    return m;
}

}  // namespace

TEST(Generators, EveryGeneratorIsListedAndUnknownNamesAreErrors) {
    std::vector<std::string> names = generatorNames();
    for (const Budget& b : kBudgets) EXPECT_NE(std::find(names.begin(), names.end(), b.name), names.end()) << b.name;
    try {
        gen("teapot");
        FAIL() << "no error for an unknown generator";
    } catch (const Error& e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("teapot"), std::string::npos) << msg;
        EXPECT_NE(msg.find("test.json: meshes[0]"), std::string::npos) << msg;
    }
}

TEST(Generators, TriangleBudgetsAndValidMeshes) {
    for (const Budget& b : kBudgets) {
        LoadedMesh lm = gen(b.name);
        size_t n = lm.mesh.triangles.size();
        EXPECT_GE(n, b.lo) << b.name;
        EXPECT_LE(n, b.hi) << b.name;
        expectValid(lm, b.name);
        EXPECT_EQ(lm.mesh.source, b.name);
    }
}

TEST(Generators, NullParamsMeanDefaults) {
    for (const char* name : {"plane", "sphere", "cornell", "runner"}) {
        LoadedMesh a = generateMesh(name, json(), "x");
        LoadedMesh b = gen(name);
        EXPECT_TRUE(sameMesh(a.mesh, b.mesh)) << name;
    }
}

TEST(Generators, Deterministic) {
    for (const Budget& b : kBudgets) {
        LoadedMesh x = gen(b.name), y = gen(b.name);
        EXPECT_TRUE(sameMesh(x.mesh, y.mesh)) << b.name;
    }
    EXPECT_TRUE(sameMesh(gen("forest", {{"seed", 7}}).mesh, gen("forest", {{"seed", 7}}).mesh));
    EXPECT_FALSE(sameMesh(gen("forest", {{"seed", 7}}).mesh, gen("forest", {{"seed", 8}}).mesh));
}

TEST(Generators, UnknownParamIsAnErrorNamingIt) {
    for (const Budget& b : kBudgets) {
        try {
            gen(b.name, {{"bogus_param", 1}});
            ADD_FAILURE() << b.name << ": no error for an unknown param";
        } catch (const Error& e) {
            std::string msg = e.what();
            EXPECT_NE(msg.find("bogus_param"), std::string::npos) << msg;
            EXPECT_NE(msg.find("test.json: meshes[0]"), std::string::npos) << msg;
            EXPECT_NE(msg.find(b.name), std::string::npos) << msg;
        }
    }
}

TEST(Generators, BadParamValuesAreErrorsNamingTheParam) {
    struct Case {
        const char* generator;
        json params;
        const char* param;
    };
    const Case cases[] = {
        {"runner", {{"phase", "late"}}, "phase"},  {"runner", {{"phase", 1.5}}, "phase"},
        {"runner", {{"height", -1}}, "height"},    {"forest", {{"trees", -3}}, "trees"},
        {"forest", {{"trees", 2.5}}, "trees"},     {"forest", {{"seed", "abc"}}, "seed"},
        {"sphere", {{"segments", 2}}, "segments"}, {"plane", {{"size", json::array()}}, "size"},
        {"box", {{"size", {1, 2}}}, "size"},       {"cornell", {{"boxes", 1}}, "boxes"},
    };
    for (const Case& c : cases) {
        try {
            gen(c.generator, c.params);
            ADD_FAILURE() << c.generator << " " << c.params.dump() << ": no error";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(c.param), std::string::npos) << e.what();
        }
    }
    EXPECT_THROW(gen("plane", json::array({1, 2})), Error);  // params must be an object
}

TEST(Generators, SmallGeneratorsFollowTheirParams) {
    EXPECT_EQ(gen("plane", {{"subdivisions", 4}}).mesh.triangles.size(), 32u);
    EXPECT_EQ(gen("sphere", {{"segments", 8}}).mesh.triangles.size(), 2u * 8 * 3);
    EXPECT_EQ(gen("cornell", {{"boxes", false}}).mesh.triangles.size(), 26u);
    LoadedMesh s = gen("sphere", {{"radius", 2.5}});
    for (const Vec3& p : s.mesh.positions) EXPECT_NEAR(length(p), 2.5f, 1e-4f);
    LoadedMesh box = gen("box", {{"size", {1, 2, 3}}});
    for (const Vec3& p : box.mesh.positions) EXPECT_NEAR(fabsf(p.y), 1.0f, 1e-6f);
    // Closed solids: normals point outwards.
    for (const LoadedMesh* lm : {&s, &box})
        for (size_t i = 0; i < lm->mesh.positions.size(); ++i)
            EXPECT_GT(dot(lm->mesh.normals[i], lm->mesh.positions[i]), 0.0f);
}

TEST(Generators, CornellLightFacesDown) {
    LoadedMesh c = gen("cornell");
    int light = materialIndex(c, "light");
    ASSERT_GE(light, 0);
    EXPECT_EQ(c.materials[light].material.type, MaterialType::Emissive);
    size_t hit = 0;
    float t = castRay(c.mesh, {0, 1, 0}, {0, 1, 0}, &hit);
    ASSERT_GT(t, 0);
    EXPECT_EQ(c.mesh.triMaterial[hit], light);
    EXPECT_LT(c.mesh.normals[c.mesh.triangles[hit].v[0]].y, -0.99f);
}

TEST(Generators, AtriumIsOpenToTheSkyAndHasNamedMaterials) {
    LoadedMesh a = gen("atrium");
    for (const char* name : {"stone", "floor_light", "banner_red", "banner_green", "banner_blue", "railing_metal"})
        EXPECT_GE(materialIndex(a, name), 0) << name;
    EXPECT_EQ(a.materials[materialIndex(a, "railing_metal")].material.type, MaterialType::Conductor);
    // Straight down through a roof opening onto a floor tile.
    size_t hit = 0;
    float t = castRay(a.mesh, {0.5f, 30, 0}, {0, -1, 0}, &hit);
    ASSERT_GT(t, 0);
    EXPECT_NEAR(30 - t, 0.0f, 1e-3f);
    EXPECT_GT(a.mesh.normals[a.mesh.triangles[hit].v[0]].y, 0.99f);
    // The aisles are roofed: straight down onto an aisle meets the gallery roof.
    t = castRay(a.mesh, {0.5f, 30, 6}, {0, -1, 0}, &hit);
    ASSERT_GT(t, 0);
    EXPECT_GT(30 - t, 10.0f);
}

TEST(Generators, KitchenHasAWindowAndAGlowingLampShade) {
    LoadedMesh k = gen("kitchen");
    // From outside the east wall through the window: the first hit is inside the room.
    size_t hit = 0;
    float t = castRay(k.mesh, {10, 1.3f, 0.4f}, {-1, 0, 0}, &hit);
    ASSERT_GT(t, 0);
    EXPECT_LT(10 - t, 2.9f);
    // Next to the window the wall is solid.
    t = castRay(k.mesh, {10, 1.3f, 1.5f}, {-1, 0, 0});
    EXPECT_NEAR(10 - t, 3.2f, 1e-3f);
    // Looking up from the table, the shade's inside is emissive.
    int glow = materialIndex(k, "lamp_glow");
    ASSERT_GE(glow, 0);
    EXPECT_EQ(k.materials[glow].material.type, MaterialType::Emissive);
    t = castRay(k.mesh, {0.4f + 0.15f, 1.0f, 0.5f}, {0, 1, 0}, &hit);
    ASSERT_GT(t, 0);
    EXPECT_EQ(k.mesh.triMaterial[hit], glow);
}

TEST(Runner, SkinnedWithABoundSkeleton) {
    LoadedMesh r = gen("runner");
    const Mesh& m = r.mesh;
    EXPECT_EQ(m.animation, MeshAnimationKind::Skinned);
    const Skeleton& s = m.skeleton;
    EXPECT_GE(s.numBones(), 15);
    EXPECT_LE(s.numBones(), 20);
    EXPECT_EQ(s.parent[0], -1);
    for (int b = 1; b < s.numBones(); ++b) EXPECT_LT(s.parent[b], b);
    ASSERT_GE(s.times.size(), 17u);
    ASSERT_LE(s.times.size(), 33u);
    EXPECT_NEAR(clipDuration(s), 0.7f, 1e-5f);
    ASSERT_EQ(m.skin.bones.size(), m.positions.size());
    ASSERT_EQ(m.skin.weight0.size(), m.positions.size());
    size_t blended = 0;
    for (size_t i = 0; i < m.positions.size(); ++i) {
        EXPECT_LT(m.skin.bones[i] & 0xffffu, uint32_t(s.numBones()));
        EXPECT_LT(m.skin.bones[i] >> 16, uint32_t(s.numBones()));
        EXPECT_GE(m.skin.weight0[i], 0.0f);
        EXPECT_LE(m.skin.weight0[i], 1.0f);
        blended += m.skin.weight0[i] > 0.01f && m.skin.weight0[i] < 0.99f;
    }
    EXPECT_GT(blended, m.positions.size() / 20) << "joints should blend between bones";
    // Faces +Z: the toes reach further forward than the heels reach back.
    float zmin = 1e9f, zmax = -1e9f, ymin = 1e9f, ymax = -1e9f;
    for (const Vec3& p : m.positions) {
        zmin = std::min(zmin, p.z), zmax = std::max(zmax, p.z);
        ymin = std::min(ymin, p.y), ymax = std::max(ymax, p.y);
    }
    EXPECT_GT(zmax, -zmin);
    EXPECT_NEAR(ymax - ymin, 1.8f, 0.05f);
    LoadedMesh small = gen("runner", {{"height", 1.5}});
    float smax = -1e9f;
    for (const Vec3& p : small.mesh.positions) smax = std::max(smax, p.y);
    EXPECT_NEAR(smax, 1.5f, 0.05f);
}

TEST(Runner, BodyVolumeIsPlausible) {
    // The body is closed tubes and ellipsoids wound outwards: a positive
    // signed volume near a person's (about 0.07 m^3); inverted parts would cancel it.
    const Mesh m = gen("runner").mesh;
    double v = 0;
    for (const Tri& t : m.triangles)
        v += dot(m.positions[t.v[0]], cross(m.positions[t.v[1]], m.positions[t.v[2]])) / 6.0;
    EXPECT_GT(v, 0.04);
    EXPECT_LT(v, 0.15);
}

TEST(Runner, ReallyDeformsAndLoops) {
    const Mesh m = gen("runner").mesh;
    const float cycle = clipDuration(m.skeleton);
    std::vector<Vec3> a, b, c;
    poseMeshPositions(m, 0.1f, a);
    poseMeshPositions(m, 0.4f, b);
    EXPECT_GT(maxDisplacement(a, b), 0.05f);
    poseMeshPositions(m, 0.1f + cycle, c);
    EXPECT_LT(maxDisplacement(a, c), 1e-4f);
    poseMeshPositions(m, 0.1f - 3 * cycle, c);
    EXPECT_LT(maxDisplacement(a, c), 1e-4f);
    // The posed mesh stays in one piece: no vertex flies off.
    for (const Vec3& p : b) {
        EXPECT_TRUE(isFinite(p));
        EXPECT_LT(fabsf(p.x), 1.0f);
        EXPECT_LT(fabsf(p.z), 1.0f);
    }
}

TEST(Runner, FeetMeetTheGroundWithoutSinking) {
    const Mesh m = gen("runner").mesh;
    std::vector<Vec3> p;
    float lowest = 1e9f, highest = -1e9f;
    for (int k = 0; k < 28; ++k) {
        poseMeshPositions(m, 0.7f * float(k) / 28.0f, p);
        float low = 1e9f;
        for (const Vec3& v : p) low = std::min(low, v.y);
        lowest = std::min(lowest, low);
        highest = std::max(highest, low);
    }
    EXPECT_GT(lowest, -0.01f);  // never through the floor
    EXPECT_LT(lowest, 0.01f);   // a stance foot on it
    EXPECT_GT(highest, 0.03f);  // both feet off it in the flight phase
    EXPECT_LT(highest, 0.15f);
}

TEST(Runner, PhaseShiftsTheClip) {
    const Mesh m0 = gen("runner", {{"phase", 0.0}}).mesh;
    const Mesh m5 = gen("runner", {{"phase", 0.5}}).mesh;
    std::vector<Vec3> a, b;
    poseMeshPositions(m0, 0.35f, a);  // half a cycle in
    poseMeshPositions(m5, 0.0f, b);
    EXPECT_LT(maxDisplacement(a, b), 1e-3f);
    poseMeshPositions(m0, 0.0f, a);
    EXPECT_GT(maxDisplacement(a, b), 0.05f);
}

TEST(Runner, PosingPreservesBoneLengths) {
    const Skeleton s = gen("runner").mesh.skeleton;
    std::vector<Affine> skin;
    for (float t : {0.0f, 0.13f, 0.31f, 0.52f, 0.69f}) {
        poseSkeleton(s, t, skin);
        ASSERT_EQ(skin.size(), size_t(s.numBones()));
        for (int bone = 1; bone < s.numBones(); ++bone) {
            int p = s.parent[bone];
            Vec3 posedChild = skin[bone].point(s.joint[bone]);
            Vec3 posedParent = skin[p].point(s.joint[p]);
            float rest = length(s.joint[bone] - s.joint[p]);
            EXPECT_NEAR(length(posedChild - posedParent), rest, 1e-4f) << s.name[bone] << " at t=" << t;
            // The child's joint rides on its parent bone.
            EXPECT_LT(length(posedChild - skin[p].point(s.joint[bone])), 1e-4f);
        }
    }
}

TEST(Forest, GroundAndTrunkBasesStayStillCrownsSway) {
    LoadedMesh f = gen("forest");
    const Mesh& m = f.mesh;
    EXPECT_EQ(m.animation, MeshAnimationKind::Sway);
    EXPECT_GE(m.sway.amplitude, 0.15f);
    EXPECT_LE(m.sway.amplitude, 0.3f);
    EXPECT_GT(m.sway.height, 5.0f);
    EXPECT_LT(m.sway.height, 12.0f);
    int ground = materialIndex(f, "ground");
    ASSERT_GE(ground, 0);
    std::vector<char> isGround(m.positions.size(), 0);
    for (size_t t = 0; t < m.triangles.size(); ++t)
        if (m.triMaterial[t] == ground)
            for (int k = 0; k < 3; ++k) isGround[m.triangles[t].v[k]] = 1;
    for (size_t i = 0; i < m.positions.size(); ++i)
        if (isGround[i]) ASSERT_LE(m.positions[i].y, m.sway.base) << "ground above the sway base";

    std::vector<Vec3> rest = m.positions, a, b;
    float groundMove = 0, baseMove = 0, crownMove = 0;
    for (float t : {0.3f, 0.9f, 1.7f, 2.2f}) {
        poseMeshPositions(m, t, a);
        for (size_t i = 0; i < rest.size(); ++i) {
            float d = length(a[i] - rest[i]);
            if (isGround[i])
                groundMove = std::max(groundMove, d);
            else if (rest[i].y <= m.sway.base)
                baseMove = std::max(baseMove, d);
            else if (rest[i].y > m.sway.base + 6)
                crownMove = std::max(crownMove, d);
        }
    }
    EXPECT_EQ(groundMove, 0.0f);
    EXPECT_EQ(baseMove, 0.0f);
    EXPECT_GT(crownMove, 0.1f);
}

TEST(Forest, TreeCountScalesTheMesh) {
    size_t none = gen("forest", {{"trees", 0}}).mesh.triangles.size();
    size_t one = gen("forest", {{"trees", 1}}).mesh.triangles.size();
    size_t two = gen("forest", {{"trees", 2}}).mesh.triangles.size();
    EXPECT_GT(one, none);
    EXPECT_EQ(two - one, one - none);
}
