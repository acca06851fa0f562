#include "gpu/stage_timer.h"

#include "gpu/cuda_check.h"

namespace strata {

StageTimer::StageTimer(std::vector<std::string> stages, int framesInFlight)
    : names_(std::move(stages)), slots_(framesInFlight) {
    for (Slot& s : slots_) STRATA_CUDA_CHECK(cudaEventCreate(&s.done));
}

StageTimer::~StageTimer() {
    for (Slot& s : slots_) {
        for (cudaEvent_t e : s.start) cudaEventDestroy(e);
        for (cudaEvent_t e : s.stop) cudaEventDestroy(e);
        if (s.done) cudaEventDestroy(s.done);
    }
    for (cudaEvent_t e : pool_) cudaEventDestroy(e);
}

int StageTimer::find(const char* label) const {
    for (const auto& [address, stage] : byAddress_)
        if (address == label) return stage;
    int stage = -1;
    for (size_t k = 0; k < names_.size(); ++k)
        if (names_[k] == label) stage = int(k);
    if (byAddress_.size() < 256) byAddress_.emplace_back(label, stage);  // a bound for labels built at run time
    return stage;
}

bool StageTimer::isOpen(int stage) const {
    const Slot& s = slots_[current_];
    for (int idx : open_)
        if (s.stageOfEvent[idx] == stage) return true;
    return false;
}

StageScope::StageScope(StageTimer* timer, const char* label, bool strict) : t_(timer) {
    if (!t_ || t_->muted()) return;
    const int stage = t_->find(label);
    if (stage < 0 && strict) throw Error(std::string("stage timer: no stage named '") + label + "'");
    if (stage < 0 || (!strict && t_->isOpen(stage))) return;
    stage_ = stage;
    t_->begin(stage_);
}

void StageTimer::beginFrame(cudaStream_t stream, const FrameRecord& header) {
    stream_ = stream;
    // Find a free slot; if all are pending, resolve the oldest (waits on it).
    int slot = -1;
    for (int i = 0; i < int(slots_.size()); ++i)
        if (!slots_[i].pending) {
            slot = i;
            break;
        }
    if (slot < 0) {
        slot = order_.front();
        resolve(slots_[slot]);
    }
    Slot& s = slots_[slot];
    for (cudaEvent_t e : s.start) pool_.push_back(e);
    for (cudaEvent_t e : s.stop) pool_.push_back(e);
    s.start.clear();
    s.stop.clear();
    s.stageOfEvent.clear();
    s.launches.assign(names_.size(), 0);
    s.rec = header;
    s.rec.stages.clear();
    for (const std::string& n : names_) s.rec.stages.push_back({n, 0, 0});
    current_ = slot;
    open_.clear();
}

void StageTimer::begin(int stage) {
    Slot& s = slots_[current_];
    auto take = [&]() {
        cudaEvent_t e;
        if (!pool_.empty()) {
            e = pool_.back();
            pool_.pop_back();
        } else
            STRATA_CUDA_CHECK(cudaEventCreate(&e));
        return e;
    };
    cudaEvent_t a = take(), b = take();
    STRATA_CUDA_CHECK(cudaEventRecord(a, stream_));
    s.start.push_back(a);
    s.stop.push_back(b);
    s.stageOfEvent.push_back(stage);
    open_.push_back(int(s.start.size()) - 1);
}

void StageTimer::end(int stage) {
    Slot& s = slots_[current_];
    int idx = open_.back();
    open_.pop_back();
    (void)stage;
    STRATA_CUDA_CHECK(cudaEventRecord(s.stop[idx], stream_));
}

void StageTimer::countLaunches(uint32_t n) {
    Slot& s = slots_[current_];
    for (int idx : open_) s.launches[s.stageOfEvent[idx]] += n;
    s.rec.launches += n;
}

void StageTimer::endFrame() {
    Slot& s = slots_[current_];
    STRATA_CUDA_CHECK(cudaEventRecord(s.done, stream_));
    s.pending = true;
    order_.push_back(current_);
    current_ = -1;
}

void StageTimer::resolve(Slot& s) {
    STRATA_CUDA_CHECK(cudaEventSynchronize(s.done));
    for (size_t i = 0; i < s.start.size(); ++i) {
        float ms = 0;
        STRATA_CUDA_CHECK(cudaEventElapsedTime(&ms, s.start[i], s.stop[i]));
        s.rec.stages[s.stageOfEvent[i]].ms += ms;
    }
    s.rec.totalMs = 0;
    for (size_t k = 0; k < names_.size(); ++k) {
        s.rec.stages[k].launches = s.launches[k];
        if (names_[k].find('/') == std::string::npos) s.rec.totalMs += s.rec.stages[k].ms;
        if (names_[k] == "build") s.rec.buildLaunches = s.launches[k];
    }
    s.pending = false;
    for (auto it = order_.begin(); it != order_.end(); ++it)
        if (&slots_[*it] == &s) {
            order_.erase(it);
            break;
        }
    resolved_.push_back(s.rec);
}

bool StageTimer::pop(FrameRecord& out, bool wait) {
    while (!order_.empty()) {
        Slot& s = slots_[order_.front()];
        if (!wait && cudaEventQuery(s.done) == cudaErrorNotReady) break;
        resolve(s);
    }
    if (resolved_.empty()) return false;
    out = resolved_.front();
    resolved_.pop_front();
    return true;
}

uint32_t countKernelLaunches(const std::function<cudaError_t(cudaStream_t)>& enqueue) {
    cudaStream_t side;
    STRATA_CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    cudaGraph_t graph = nullptr;
    STRATA_CUDA_CHECK(cudaStreamBeginCapture(side, cudaStreamCaptureModeThreadLocal));
    cudaError_t err = enqueue(side);
    STRATA_CUDA_CHECK(cudaStreamEndCapture(side, &graph));
    STRATA_CUDA_CHECK(err);
    size_t count = 0;
    STRATA_CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &count));
    std::vector<cudaGraphNode_t> nodes(count);
    STRATA_CUDA_CHECK(cudaGraphGetNodes(graph, nodes.data(), &count));
    uint32_t kernels = 0;
    for (cudaGraphNode_t node : nodes) {
        cudaGraphNodeType type;
        STRATA_CUDA_CHECK(cudaGraphNodeGetType(node, &type));
        kernels += type == cudaGraphNodeTypeKernel;
    }
    STRATA_CUDA_CHECK(cudaGraphDestroy(graph));
    STRATA_CUDA_CHECK(cudaStreamDestroy(side));
    return kernels;
}

}  // namespace strata
