// render/stages.h — the one stage table both backends report (the CSV's
// columns, the overlay's rows): the frame's stages and, under a '/', their
// parts. The builders name their own phases (accel/lbvh/lbvh_gpu.h,
// accel/kdtree/kd_gpu.h, accel/toplevel/top_level_gpu.h); a backend that has
// no such phase reports it as 0 ms (the CPU builders time as one "build").
#pragma once

#include <string>
#include <vector>

namespace strata {

inline const std::vector<std::string>& stageTable() {
    // clang-format off: one line per stage and its parts
    static const std::vector<std::string> s = {
        "animate",         "build",          "build/bounds",  "build/morton",   "build/sort",
        "build/hierarchy", "build/aabb",     "build/blas",    "build/top",      "build/kd_large",
        "build/kd_small",  "build/vd_boxes", "build/refit",   "build/collapse", "build/leaf_tris",
        "trace",           "trace/primary",  "trace/bounce",  "trace/sort",     "vd",
        "vd/pairs",        "vd/sort",        "vd/bottom",     "vd/primary",     "vd/bounce",
        "vd/shadow",       "shade",          "shade/primary", "shade/bounce",   "shadow",
        "accumulate",      "filter",         "heatmap"};
    // clang-format on
    return s;
}

}  // namespace strata
