// gpu/pinned_buffer.h — an owning, checked page-locked host allocation.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "gpu/cuda_check.h"

namespace strata {

// An owning, checked page-locked host allocation: device-to-host copies into
// it are real asynchronous DMA (into pageable memory the driver stages them
// and the call waits). Contents are not preserved across a growing resize.
template <class T>
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    ~PinnedBuffer() {
        if (ptr_) cudaFreeHost(ptr_);  // not checked: may run during unwinding
    }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    void resize(size_t n) {
        if (n <= size_) return;
        if (ptr_) cudaFreeHost(ptr_);
        ptr_ = nullptr;
        size_ = 0;
        STRATA_CUDA_CHECK(cudaMallocHost(&ptr_, n * sizeof(T)));
        size_ = n;
    }
    T* data() { return ptr_; }

private:
    T* ptr_ = nullptr;
    size_t size_ = 0;
};

}  // namespace strata
