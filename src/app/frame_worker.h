// app/frame_worker.h — a renderer's frames on a thread of their own, so that
// the window keeps drawing, the panel keeps answering and a progress line
// shows while a slow frame renders (the CPU backend takes seconds for a large
// scene; the CUDA backend's frames are asynchronous already and do not use
// it). While busy() the renderer belongs to the worker: the viewer reads and
// changes it only when the worker is idle.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "render/renderer.h"

namespace strata {

class FrameWorker {
public:
    FrameWorker();
    ~FrameWorker();  // waits for the frame in flight
    FrameWorker(const FrameWorker&) = delete;
    FrameWorker& operator=(const FrameWorker&) = delete;

    // Renders r.renderFrame(t, frame, accumulate) on the worker thread; the
    // worker must be idle.
    void start(Renderer& r, float t, uint64_t frame, bool accumulate);
    bool busy() const;
    void wait();  // until idle
    // The frame's strata::Error message, once (empty when it rendered).
    std::string takeError();
    double secondsBusy() const;                // of the frame in flight (0 when idle)
    uint64_t frame() const { return frame_; }  // the frame started last

private:
    void run();

    mutable std::mutex m_;
    std::condition_variable cv_;
    Renderer* renderer_ = nullptr;
    float t_ = 0;
    uint64_t frame_ = 0;
    bool accumulate_ = false, job_ = false, quit_ = false;
    std::string error_;
    std::chrono::steady_clock::time_point started_;
    std::thread thread_;  // last: starts once the rest is set up
};

}  // namespace strata
