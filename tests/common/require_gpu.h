// GPU tests skip (never pass) when no CUDA device is present.
#pragma once

#include <gtest/gtest.h>

#include "gpu/device.h"

#define REQUIRE_GPU()                                                           \
    do {                                                                        \
        ::strata::GpuInfo gpu_ = ::strata::queryGpu();                          \
        if (!gpu_.available) GTEST_SKIP() << "no CUDA device: " << gpu_.reason; \
    } while (0)
