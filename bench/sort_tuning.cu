// bench/sort_tuning.cu — an experiment, not part of the build: CUB's sorts of
// 63-bit Morton-like keys with 32-bit values at the sizes of per-frame builds
// (66K-4M): its onesweep radix sort as tuned (the default policy), with other
// tile sizes (threads x items per thread) and digit widths (a policy hub of
// its own; 11-bit digits need more than 48 KB of static shared memory and do
// not compile), and its stable merge sort. Each result is checked against
// std::sort. docs/perf.md ("Sorting the codes") has a run. Build and run on
// the GPU machine:
//   nvcc -O3 -std=c++17 -arch=sm_90 -o sort_tuning bench/sort_tuning.cu && ./sort_tuning
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_merge_sort.cuh>
#include <cstdio>
#include <vector>
#include <algorithm>
#include <random>
#define CK(x)                                                                 \
    do {                                                                      \
        cudaError_t e_ = (x);                                                 \
        if (e_ != cudaSuccess) {                                              \
            printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            return 1;                                                         \
        }                                                                     \
    } while (0)
using K = unsigned long long;
using V = unsigned int;
using O = unsigned int;
using Base = cub::detail::radix::policy_hub<K, V, O>::Policy900;
template <int THREADS, int ITEMS, int BITS>
struct Hub {
    struct P : cub::ChainedPolicy<900, P, P> {
        static constexpr bool ONESWEEP = true;
        static constexpr int ONESWEEP_RADIX_BITS = BITS;
        using HistogramPolicy = cub::AgentRadixSortHistogramPolicy<128, 16, 1, K, BITS>;
        using ExclusiveSumPolicy = cub::AgentRadixSortExclusiveSumPolicy<256, BITS>;
        using OnesweepPolicy =
            cub::AgentRadixSortOnesweepPolicy<THREADS, ITEMS, K, 1, cub::RADIX_RANK_MATCH_EARLY_COUNTS_ANY,
                                              cub::BLOCK_SCAN_RAKING_MEMOIZE, cub::RADIX_SORT_STORE_DIRECT, BITS>;
        using ScanPolicy = Base::ScanPolicy;
        using DownsweepPolicy = Base::DownsweepPolicy;
        using AltDownsweepPolicy = Base::AltDownsweepPolicy;
        using UpsweepPolicy = Base::UpsweepPolicy;
        using AltUpsweepPolicy = Base::AltUpsweepPolicy;
        using SingleTilePolicy = Base::SingleTilePolicy;
        using SegmentedPolicy = Base::SegmentedPolicy;
        using AltSegmentedPolicy = Base::AltSegmentedPolicy;
    };
    using MaxPolicy = P;
};
struct Data {
    K *ki, *ko;
    V *vi, *vo;
    void* temp = nullptr;
    size_t tempBytes = 0;
    int n;
};
template <class Hub>
cudaError_t sortWith(Data& d, void* temp, size_t& bytes) {
    cub::DoubleBuffer<K> kb(d.ki, d.ko);
    cub::DoubleBuffer<V> vb(d.vi, d.vo);
    return cub::DispatchRadixSort<cub::SortOrder::Ascending, K, V, O, cub::detail::identity_decomposer_t,
                                  Hub>::Dispatch(temp, bytes, kb, vb, O(d.n), 0, 63, false, 0);
}
cudaError_t sortDefault(Data& d, void* temp, size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(temp, bytes, d.ki, d.ko, d.vi, d.vo, d.n, 0, 63, 0);
}
struct Less {
    __device__ bool operator()(K a, K b) const { return a < b; }
};
cudaError_t sortMerge(Data& d, void* temp, size_t& bytes) {
    if (temp) {
        cudaMemcpyAsync(d.ko, d.ki, size_t(d.n) * 8, cudaMemcpyDeviceToDevice);
        cudaMemcpyAsync(d.vo, d.vi, size_t(d.n) * 4, cudaMemcpyDeviceToDevice);
    }
    return cub::DeviceMergeSort::StableSortPairs(temp, bytes, d.ko, d.vo, d.n, Less{}, 0);
}
template <class F>
int timeIt(const char* name, Data& d, F f, std::vector<K>& ref) {
    size_t bytes = 0;
    CK(f(d, nullptr, bytes));
    void* temp;
    CK(cudaMalloc(&temp, bytes));
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    std::vector<float> ms;
    for (int r = 0; r < 220; ++r) {
        cudaEventRecord(a);
        CK(f(d, temp, bytes));
        cudaEventRecord(b);
        CK(cudaEventSynchronize(b));
        float t;
        cudaEventElapsedTime(&t, a, b);
        if (r >= 20) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    std::vector<K> out(d.n);
    CK(cudaMemcpy(out.data(), d.ko, d.n * 8, cudaMemcpyDeviceToHost));
    bool same = out == ref;
    printf("n=%8d %-22s %.4f ms  temp %zu KB %s\n", d.n, name, ms[ms.size() / 2], bytes / 1024, same ? "" : "WRONG");
    cudaFree(temp);
    return 0;
}
int main() {
    for (int n : {66454, 331179, 1000000, 4000000}) {
        std::mt19937_64 rng(n);
        std::vector<K> k(n);
        std::vector<V> v(n);
        for (int i = 0; i < n; ++i) {
            k[i] = rng() >> 1;
            v[i] = i;
        }
        std::vector<K> ref = k;
        std::sort(ref.begin(), ref.end());
        Data d;
        d.n = n;
        CK(cudaMalloc(&d.ki, n * 8));
        CK(cudaMalloc(&d.ko, n * 8));
        CK(cudaMalloc(&d.vi, n * 4));
        CK(cudaMalloc(&d.vo, n * 4));
        CK(cudaMemcpy(d.ki, k.data(), n * 8, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(d.vi, v.data(), n * 4, cudaMemcpyHostToDevice));
        timeIt("cub default", d, sortDefault, ref);
        timeIt("cub merge sort", d, sortMerge, ref);
#define T(TH, IT, B) timeIt(#TH "x" #IT " bits " #B, d, sortWith<Hub<TH, IT, B>>, ref);
        T(384, 30, 8)
        T(384, 16, 8) T(384, 12, 8) T(384, 8, 8) T(256, 16, 8) T(256, 8, 8) T(512, 8, 8) T(384, 16, 9) T(384, 8, 9)
            T(256, 8, 10) T(128, 16, 10) cudaFree(d.ki);
        cudaFree(d.ko);
        cudaFree(d.vi);
        cudaFree(d.vo);
    }
    return 0;
}
