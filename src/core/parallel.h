// core/parallel.h — the CPU backend's executor: parallelFor(n, fn) over
// a fixed set of worker threads, in chunks taken from an atomic counter.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace strata {

class ThreadPool {
public:
    explicit ThreadPool(unsigned threads = 0);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    // Calls fn(i) for every i in [0, n), the threads taking `chunk`
    // consecutive i at a time (1 for long calls); returns when all are done.
    void parallelFor(uint32_t n, const std::function<void(uint32_t)>& fn, uint32_t chunk = 256);
    unsigned size() const { return unsigned(workers_.size()) + 1; }

private:
    void work();
    void runChunks();

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(uint32_t)>* fn_ = nullptr;
    uint32_t n_ = 0, chunk_ = 256;
    std::atomic<uint32_t> next_{0};
    unsigned busy_ = 0;
    uint64_t generation_ = 0;
    bool stop_ = false;
};

}  // namespace strata
