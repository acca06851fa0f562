// tests/common/vd_test_scene.h — the VD scene of the CPU direct-mode tests and
// the backend-typed VD tests: a floor, two mushrooms (one turned and scaled)
// and a hook, each a few patches of a 96-texel map, at most level 4, every
// patch asking for it (vd.lod_bias 8).
#pragma once

#include <string>
#include <vector>

#include "loader_test_util.h"

namespace strata::test {

inline const char* kVdTestScene = R"({"meshes": [{"name": "f", "generator": "plane", "params": {"size": 6}},
    {"name": "m", "generator": "vd-mushroom", "params": {"patches": 2, "resolution": 96}},
    {"name": "h", "generator": "vd-hook", "params": {"patches": 2, "resolution": 96}}],
  "instances": [{"mesh": "f"}, {"mesh": "m", "translate": [-0.6, 0, 0.2], "scale": 0.8},
    {"mesh": "m", "translate": [0.1, 0.05, -0.5], "rotate": {"axis": [0, 1, 0.3], "degrees": 70}, "scale": 0.6},
    {"mesh": "h", "translate": [0.7, 0.1, -0.3], "rotate": {"axis": [0.2, 1, 0.1], "degrees": 40}, "scale": [1, 1.3, 0.9]}],
  "camera": {"position": [0, 1.2, 3], "target": [0, 0.3, 0]},
  "vd": {"max_level": 4, "lod_bias": 8}})";

// kVdTestScene with a mesh of triangles and VD patches together, twice
// (the middle level Harada's §1.3 describes holds both): an OBJ written into
// dir, a raised 3 x 2 grid of quads displaced by a 2 x 2 object-space map
// with a wall of two triangles behind it. Returns the scene's text.
inline std::string vdMixedTestScene(const TempDir& dir) {
    std::string obj;
    for (int j = 0; j <= 2; ++j)
        for (int i = 0; i <= 3; ++i)
            obj += "v " + std::to_string(-0.3 + 0.2 * i) + " 0.45 " + std::to_string(0.2 + 0.15 * j) + "\nvt " +
                   std::to_string(i / 3.0) + " " + std::to_string(j / 2.0) + "\n";
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 3; ++i) {
            auto v = [&](int di, int dj) {
                const std::string k = std::to_string(1 + (i + di) + 4 * (j + dj));
                return k + "/" + k;
            };
            obj += "f " + v(0, 0) + " " + v(0, 1) + " " + v(1, 1) + " " + v(1, 0) + "\n";
        }
    obj += "v -0.3 0.45 0.55\nv 0.3 0.45 0.55\nv 0.3 0.8 0.55\nv -0.3 0.8 0.55\nf 13 14 15\nf 13 15 16\n";
    dir.write("mix.obj", obj);
    const std::vector<float> map = {0, 0.06f, 0, 0.02f, 0.1f, 0, 0, 0.03f, 0.02f, -0.02f, 0.08f, 0};
    std::string pfm = "PF\n2 2\n-1\n";
    pfm.append(reinterpret_cast<const char*>(map.data()), map.size() * sizeof(float));
    dir.write("mix.pfm", pfm);
    const std::string scene = kVdTestScene;
    const size_t meshesEnd = scene.find("],\n  \"instances\"");
    const size_t instancesEnd = scene.find("],\n  \"camera\"");
    return scene.substr(0, meshesEnd) +
           ",\n    {\"name\": \"mix\", \"obj\": \"mix.obj\", \"vd\": {\"map\": \"mix.pfm\", \"max_level\": 3}}" +
           scene.substr(meshesEnd, instancesEnd - meshesEnd) +
           ",\n    {\"mesh\": \"mix\"}, {\"mesh\": \"mix\", \"translate\": [0.4, 0.1, -0.9], \"rotate\": {\"axis\": [0, 1, "
           "0], \"degrees\": 30}}" +
           scene.substr(instancesEnd);
}

// kVdTestScene (or another scene's text) lit by an environment and a sun (the shaded tests).
inline std::string vdLitTestScene(const std::string& scene = kVdTestScene) {
    return scene.substr(0, scene.rfind('}')) + R"(, "lights": {"environment": {"color": [0.5, 0.55, 0.6]},
        "sun": {"direction": [0.4, 1, 0.3], "radiance": [3, 3, 3]}}})";
}

}  // namespace strata::test
