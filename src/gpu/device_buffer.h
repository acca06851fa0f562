// gpu/device_buffer.h — an owning, checked device allocation.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "gpu/cuda_check.h"

namespace strata {

template <class T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(size_t n) { resize(n); }
    ~DeviceBuffer() { release(); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), size_(o.size_), capacity_(o.capacity_) {
        o.ptr_ = nullptr;
        o.size_ = o.capacity_ = 0;
    }
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        if (this != &o) {
            release();
            ptr_ = o.ptr_;
            size_ = o.size_;
            capacity_ = o.capacity_;
            o.ptr_ = nullptr;
            o.size_ = o.capacity_ = 0;
        }
        return *this;
    }

    // Reallocates only when growing; contents are not preserved.
    void resize(size_t n) {
        if (n <= capacity_) {
            size_ = n;
            return;
        }
        release();
        if (n) STRATA_CUDA_CHECK(cudaMalloc(&ptr_, n * sizeof(T)));
        size_ = capacity_ = n;
    }
    void upload(const T* src, size_t n, cudaStream_t s = 0) {
        resize(n);
        if (n) STRATA_CUDA_CHECK(cudaMemcpyAsync(ptr_, src, n * sizeof(T), cudaMemcpyHostToDevice, s));
    }
    void upload(const std::vector<T>& v, cudaStream_t s = 0) { upload(v.data(), v.size(), s); }
    void download(std::vector<T>& v) const {
        v.resize(size_);
        if (size_) STRATA_CUDA_CHECK(cudaMemcpy(v.data(), ptr_, size_ * sizeof(T), cudaMemcpyDeviceToHost));
    }
    T* data() { return ptr_; }
    const T* data() const { return ptr_; }
    size_t size() const { return size_; }
    size_t bytes() const { return capacity_ * sizeof(T); }
    // Frees the memory (the buffer is empty after).
    void release() {
        if (ptr_) cudaFree(ptr_);  // not checked: may run during unwinding
        ptr_ = nullptr;
        size_ = capacity_ = 0;
    }

private:
    T* ptr_ = nullptr;
    size_t size_ = 0, capacity_ = 0;
};

}  // namespace strata
