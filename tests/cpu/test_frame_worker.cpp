// app/frame_worker.h: the viewer's CPU frames render on a thread of their
// own; the window's thread sees busy() until the frame is done, the stage the
// frame is in, and its error once; a worker destroyed mid-frame finishes it.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "app/frame_worker.h"
#include "core/error.h"

using namespace strata;

namespace {

// A renderer whose frames wait for the test to let them finish.
class GatedRenderer final : public Renderer {
public:
    std::atomic<bool> open{false};
    std::atomic<int> frames{0};
    std::atomic<bool> failNext{false};
    std::thread::id thread;
    std::string name() const override { return "gated"; }
    std::vector<std::string> stageNames() const override { return {"trace"}; }
    void renderFrame(float, uint64_t, bool) override {
        thread = std::this_thread::get_id();
        while (!open) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        ++frames;
        if (failNext.exchange(false)) throw Error("out of something");
    }
    std::string activeStage() const override { return open ? "" : "trace/primary"; }
    void setOptions(const Options& o) override { options_ = o; }
    const Options& options() const override { return options_; }
    void setCamera(const CameraPose*) override {}
    uint32_t samplesPerPixel() const override { return 0; }
    size_t triangleCount() const override { return 0; }
    bool popRecord(FrameRecord&) override { return false; }
    void finish() override {}
    void readImage(std::vector<uint8_t>&) override {}
    void readRadiance(std::vector<float>&) override {}

private:
    Options options_;
};

}  // namespace

TEST(FrameWorker, RendersOffTheCallersThreadAndSaysWhenDone) {
    GatedRenderer r;
    FrameWorker w;
    EXPECT_FALSE(w.busy());
    w.start(r, 0.5f, 7, false);
    EXPECT_TRUE(w.busy());
    EXPECT_EQ(w.frame(), 7u);
    EXPECT_EQ(r.activeStage(), "trace/primary");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_TRUE(w.busy());  // the frame waits for the gate: the caller did not
    EXPECT_GT(w.secondsBusy(), 0.0);
    EXPECT_THROW(w.start(r, 0.6f, 8, false), Error);  // one frame at a time
    r.open = true;
    w.wait();
    EXPECT_FALSE(w.busy());
    EXPECT_EQ(r.frames, 1);
    EXPECT_NE(r.thread, std::this_thread::get_id());
    EXPECT_EQ(w.secondsBusy(), 0.0);
    EXPECT_EQ(w.takeError(), "");
}

TEST(FrameWorker, AFrameThatFailsIsSaidOnce) {
    GatedRenderer r;
    r.open = true;
    r.failNext = true;
    FrameWorker w;
    w.start(r, 0, 0, false);
    w.wait();
    EXPECT_EQ(w.takeError(), "out of something");
    EXPECT_EQ(w.takeError(), "");
    w.start(r, 0, 1, true);  // the worker goes on
    w.wait();
    EXPECT_EQ(r.frames, 2);
}

TEST(FrameWorker, DestroyedMidFrameFinishesIt) {
    GatedRenderer r;
    std::thread opener;
    {
        FrameWorker w;
        w.start(r, 0, 0, false);
        opener = std::thread([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            r.open = true;
        });
    }  // joins once the frame is done
    EXPECT_EQ(r.frames, 1);
    opener.join();
}
