#include "core/parallel.h"

#include <algorithm>

namespace strata {

ThreadPool::ThreadPool(unsigned threads) {
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
}

void ThreadPool::runChunks() {
    const uint32_t chunk = chunk_;
    for (;;) {
        uint32_t begin = next_.fetch_add(chunk);
        if (begin >= n_) break;
        uint32_t end = std::min(n_, begin + chunk);
        for (uint32_t i = begin; i < end; ++i) (*fn_)(i);
    }
}

void ThreadPool::work() {
    uint64_t seen = 0;
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
            if (stop_) return;
            seen = generation_;
        }
        runChunks();
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (--busy_ == 0) done_.notify_all();
        }
    }
}

void ThreadPool::parallelFor(uint32_t n, const std::function<void(uint32_t)>& fn, uint32_t chunk) {
    if (n == 0) return;
    chunk = std::max(1u, chunk);
    if (workers_.empty() || n < 2 * chunk) {
        for (uint32_t i = 0; i < n; ++i) fn(i);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        fn_ = &fn;
        n_ = n;
        chunk_ = chunk;
        next_ = 0;
        busy_ = unsigned(workers_.size());
        ++generation_;
    }
    wake_.notify_all();
    runChunks();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return busy_ == 0; });
    fn_ = nullptr;
}

}  // namespace strata
