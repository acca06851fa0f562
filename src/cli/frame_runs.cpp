#include "cli/frame_runs.h"

#include <algorithm>

#include "cli/common.h"

namespace strata::cli {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double FrameRun::stageMedian(const std::string& name) const {
    std::vector<double> v;
    for (const FrameRecord& x : records) v.push_back(x.stageMs(name));
    return median(v);
}

double FrameRun::totalMedian() const {
    std::vector<double> v;
    for (const FrameRecord& x : records) v.push_back(x.totalMs);
    return median(v);
}

double FrameRun::stageLaunches(const std::string& name) const {
    for (size_t k = 0; k < stageNames.size() && !records.empty(); ++k) {
        if (stageNames[k] != name) continue;
        double sum = 0;
        for (const FrameRecord& x : records) sum += x.stages[k].launches;
        return sum / double(records.size());
    }
    return 0;
}

FrameRun runFrames(Renderer& r, const Options& o, int warmup, int frames, const std::string& what) {
    FrameRun run;
    Progress progress(what);
    const int total = warmup + frames;
    FrameRecord rec;
    for (int f = 0; f < total; ++f) {
        const float t = o.animation.startTime + (o.animation.play ? float(f) / o.animation.fps : 0.0f);
        r.renderFrame(t, uint64_t(f));
        while (r.popRecord(rec))
            if (rec.frame >= uint64_t(warmup)) run.records.push_back(rec);
        progress.update(uint64_t(f + 1), uint64_t(total));
    }
    progress.finish();
    r.finish();
    while (r.popRecord(rec))
        if (rec.frame >= uint64_t(warmup)) run.records.push_back(rec);
    run.stageNames = r.stageNames();
    run.device = r.name();
    return run;
}

}  // namespace strata::cli
