// render/frame_csv.h — per-frame records as CSV, shared by strata-cli and the
// viewer's recorder: one header naming every option and every stage, one row
// per frame (frame, scene time, every option's value, every stage's ms and
// launches, totals, rays).
#pragma once

#include <string>
#include <vector>

#include "core/options.h"
#include "render/renderer.h"

namespace strata {

std::string csvHeader(const std::vector<std::string>& stages);
std::string csvRow(const FrameRecord& r, const Options& options);

}  // namespace strata
