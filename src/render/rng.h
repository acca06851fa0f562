// render/rng.h — counter-based random numbers: a sample is a pure function of
// (seed, pixel, sample index, dimension), so the CPU and CUDA backends draw
// the same sample pattern and a frame is reproducible.
#pragma once

#include <cstdint>

#include "core/hd.h"

namespace strata {

// PCG-style integer hash (Jarzynski & Olano 2020, "Hash functions for GPU rendering").
STRATA_HD uint32_t pcgHash(uint32_t v) {
    uint32_t state = v * 747796405u + 2891336453u;
    uint32_t word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

struct SampleStream {
    uint32_t key;  // hash of (seed, pixel, sample)
    uint32_t dim;  // next dimension

    STRATA_HD static SampleStream make(uint32_t seed, uint32_t pixel, uint32_t sample) {
        return {pcgHash(seed ^ pcgHash(pixel ^ pcgHash(sample))), 0};
    }
    STRATA_HD float next() {
        uint32_t h = pcgHash(key ^ pcgHash(dim++ * 0x9e3779b9u));
        return float(h >> 8) * (1.0f / 16777216.0f);  // [0, 1)
    }
};

}  // namespace strata
