// cli/csv.h — per-frame timing records as CSV: one header naming every stage,
// one row per frame.
#pragma once

#include <string>
#include <vector>

#include "render/renderer.h"

namespace strata::cli {

std::string csvHeader(const std::vector<std::string>& stages);
std::string csvRow(const FrameRecord& r);

}  // namespace strata::cli
