#include "render/frame_csv.h"

#include <cstdio>
#include <initializer_list>

namespace strata {
namespace {
// Option values are plain words or numbers; quote any that carry a comma.
std::string csvField(const std::string& v) {
    if (v.find_first_of(",\"\n") == std::string::npos) return v;
    std::string q = "\"";
    for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}
}  // namespace

std::string csvHeader(const std::vector<std::string>& stages) {
    std::string h = "frame,scene_time";
    for (const OptionInfo& o : Options::all()) h += "," + o.key;
    for (const std::string& s : stages) h += "," + s + "_ms";
    for (const std::string& s : stages) h += "," + s + "_launches";
    // The build's launches are the build stage's column (build_launches) above.
    return h +
           ",total_ms,launches,triangles,rays,shadow_rays,vd_pairs,heat_nodes,heat_triangles,heat_steps,"
           "heat_blas,refits_since_build,sah_growth\n";
}

std::string csvRow(const FrameRecord& r, const Options& options) {
    char buf[64];
    std::string row = std::to_string(r.frame);
    std::snprintf(buf, sizeof buf, ",%.6f", r.sceneTime);
    row += buf;
    for (const OptionInfo& o : Options::all()) row += "," + csvField(options.get(o.key));
    for (const StageTime& s : r.stages) {
        std::snprintf(buf, sizeof buf, ",%.4f", s.ms);
        row += buf;
    }
    for (const StageTime& s : r.stages) row += "," + std::to_string(s.launches);
    std::snprintf(buf, sizeof buf, ",%.4f", r.totalMs);
    row += buf;
    for (uint64_t v : {uint64_t(r.launches), r.triangles, r.rays, r.shadowRays, r.vdPairs, r.heatNodes, r.heatTriangles,
                       r.heatSteps, r.heatBlas, uint64_t(r.refitsSinceBuild)})
        row += "," + std::to_string(v);
    std::snprintf(buf, sizeof buf, ",%.6f", r.sahGrowth);
    return row + buf + "\n";
}

}  // namespace strata
