// tests/common/vd_test_scene.h — the VD scene of the CPU direct-mode tests and
// the backend-typed VD tests: a floor, two mushrooms (one turned and scaled)
// and a hook, each a few patches of a 96-texel map, at most level 4, every
// patch asking for it (vd.lod_bias 8).
#pragma once

#include <string>

namespace strata::test {

inline const char* kVdTestScene = R"({"meshes": [{"name": "f", "generator": "plane", "params": {"size": 6}},
    {"name": "m", "generator": "vd-mushroom", "params": {"patches": 2, "resolution": 96}},
    {"name": "h", "generator": "vd-hook", "params": {"patches": 2, "resolution": 96}}],
  "instances": [{"mesh": "f"}, {"mesh": "m", "translate": [-0.6, 0, 0.2], "scale": 0.8},
    {"mesh": "m", "translate": [0.1, 0.05, -0.5], "rotate": {"axis": [0, 1, 0.3], "degrees": 70}, "scale": 0.6},
    {"mesh": "h", "translate": [0.7, 0.1, -0.3], "rotate": {"axis": [0.2, 1, 0.1], "degrees": 40}, "scale": [1, 1.3, 0.9]}],
  "camera": {"position": [0, 1.2, 3], "target": [0, 0.3, 0]},
  "vd": {"max_level": 4, "lod_bias": 8}})";

// kVdTestScene lit by an environment and a sun (the shaded tests).
inline std::string vdLitTestScene() {
    const std::string scene = kVdTestScene;
    return scene.substr(0, scene.rfind('}')) + R"(, "lights": {"environment": {"color": [0.5, 0.55, 0.6]},
        "sun": {"direction": [0.4, 1, 0.3], "radiance": [3, 3, 3]}}})";
}

}  // namespace strata::test
