#include "app/frame_worker.h"

#include <exception>

#include "core/error.h"

namespace strata {

FrameWorker::FrameWorker() : thread_([this] { run(); }) {}

FrameWorker::~FrameWorker() {
    {
        std::lock_guard<std::mutex> lock(m_);
        quit_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

void FrameWorker::start(Renderer& r, float t, uint64_t frame, bool accumulate) {
    {
        std::lock_guard<std::mutex> lock(m_);
        if (job_) throw Error("internal: a frame started while the last one renders");
        renderer_ = &r;
        t_ = t;
        frame_ = frame;
        accumulate_ = accumulate;
        job_ = true;
        started_ = std::chrono::steady_clock::now();
    }
    cv_.notify_all();
}

bool FrameWorker::busy() const {
    std::lock_guard<std::mutex> lock(m_);
    return job_;
}

void FrameWorker::wait() {
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [this] { return !job_; });
}

std::string FrameWorker::takeError() {
    std::lock_guard<std::mutex> lock(m_);
    std::string e;
    e.swap(error_);
    return e;
}

double FrameWorker::secondsBusy() const {
    std::lock_guard<std::mutex> lock(m_);
    return job_ ? std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count() : 0.0;
}

void FrameWorker::run() {
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
        cv_.wait(lock, [this] { return job_ || quit_; });
        if (quit_ && !job_) return;
        Renderer& r = *renderer_;
        const float t = t_;
        const uint64_t frame = frame_;
        const bool accumulate = accumulate_;
        lock.unlock();
        std::string error;
        try {
            r.renderFrame(t, frame, accumulate);
        } catch (const std::exception& e) {  // strata::Error, or out of memory: said in the panel
            error = e.what();
        }
        lock.lock();
        error_ = error;
        job_ = false;
        cv_.notify_all();
    }
}

}  // namespace strata
