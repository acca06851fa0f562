// accel/kdtree/kd_gpu_primitives.cuh — the intra-block scans, reductions and
// bit counts of the kd-tree builder, each in the chapter's two versions,
// chosen at run time by one flag so the [A]–[E] variants share every kernel:
//   Original: shared-memory work-efficient scan (up-sweep/down-sweep,
//             Sengupta/Harris) and tree reduction; bit count without __popc.
//   [B]/[E]:  scans of binary flags with __ballot_sync/__popc inside a warp and
//             __shfl_up_sync across warps (Table 13.1 † and ‡).
//   [D]:      reductions with __shfl_*_sync.
//   [E]:      bit counts with __popcll.
// Every routine is called by all threads of a block of kBlock threads.
#pragma once

#include <cstdint>

namespace strata::kdgpu {

constexpr int kBlock = 256;  // threads per block = triangles per chunk (Zhou08)
constexpr int kWarps = kBlock / 32;

// Parallel bit count without the intrinsic (Manku's "parallel count").
__device__ __forceinline__ uint32_t bitCountSwar(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    x = x + (x >> 8);
    x = x + (x >> 16);
    x = x + (x >> 32);
    return uint32_t(x & 0x7f);
}
__device__ __forceinline__ uint32_t bitCount(uint64_t x, bool usePopc) {
    return usePopc ? uint32_t(__popcll(x)) : bitCountSwar(x);
}

struct ScanSmem {
    uint32_t a[2][kBlock];  // Original: two scans side by side
    uint32_t warp[2][kWarps + 1];
};

// Exclusive scans of two 0/1 flags over the block; totals to every thread.
__device__ __forceinline__ void blockScanFlags2(ScanSmem& s, uint32_t fl, uint32_t fr, bool ballot, uint32_t& exL,
                                                uint32_t& exR, uint32_t& totL, uint32_t& totR) {
    const int t = threadIdx.x, lane = t & 31, w = t >> 5;
    if (ballot) {
        // [B] intra-warp: ballot + popc of the lanes below (†).
        const uint32_t lt = (1u << lane) - 1u;
        const uint32_t ml = __ballot_sync(0xffffffffu, fl), mr = __ballot_sync(0xffffffffu, fr);
        exL = __popc(ml & lt);
        exR = __popc(mr & lt);
        if (lane == 0) {
            s.warp[0][w] = __popc(ml);
            s.warp[1][w] = __popc(mr);
        }
        __syncthreads();
        // [B] inter-warp: shfl_up scan of the warp totals by the first warp (‡).
        if (w == 0) {
            uint32_t vl = lane < kWarps ? s.warp[0][lane] : 0u, vr = lane < kWarps ? s.warp[1][lane] : 0u;
            const uint32_t il = vl, ir = vr;
            for (int d = 1; d < kWarps; d <<= 1) {
                uint32_t nl = __shfl_up_sync(0xffffffffu, vl, d), nr = __shfl_up_sync(0xffffffffu, vr, d);
                if (lane >= d) {
                    vl += nl;
                    vr += nr;
                }
            }
            if (lane < kWarps) {
                s.warp[0][lane] = vl - il;  // exclusive
                s.warp[1][lane] = vr - ir;
            }
            if (lane == kWarps - 1) {
                s.warp[0][kWarps] = vl;
                s.warp[1][kWarps] = vr;
            }
        }
        __syncthreads();
        exL += s.warp[0][w];
        exR += s.warp[1][w];
        totL = s.warp[0][kWarps];
        totR = s.warp[1][kWarps];
        __syncthreads();
        return;
    }
    // Original: work-efficient up-sweep / down-sweep in shared memory.
    s.a[0][t] = fl;
    s.a[1][t] = fr;
    __syncthreads();
    for (int d = 1; d < kBlock; d <<= 1) {  // up-sweep
        const int i = (t + 1) * (d << 1) - 1;
        if (i < kBlock) {
            s.a[0][i] += s.a[0][i - d];
            s.a[1][i] += s.a[1][i - d];
        }
        __syncthreads();
    }
    if (t == 0) {
        s.warp[0][kWarps] = s.a[0][kBlock - 1];
        s.warp[1][kWarps] = s.a[1][kBlock - 1];
        s.a[0][kBlock - 1] = 0;
        s.a[1][kBlock - 1] = 0;
    }
    __syncthreads();
    for (int d = kBlock >> 1; d >= 1; d >>= 1) {  // down-sweep
        const int i = (t + 1) * (d << 1) - 1;
        if (i < kBlock) {
            for (int k = 0; k < 2; ++k) {
                uint32_t v = s.a[k][i - d];
                s.a[k][i - d] = s.a[k][i];
                s.a[k][i] += v;
            }
        }
        __syncthreads();
    }
    exL = s.a[0][t];
    exR = s.a[1][t];
    totL = s.warp[0][kWarps];
    totR = s.warp[1][kWarps];
    __syncthreads();
}

struct ReduceSmem {
    float v[6][kBlock];
};

// Block-wide min of lo[0..2] and max of hi[0..2]; the result in every thread.
__device__ __forceinline__ void blockReduceBox(ReduceSmem& s, float lo[3], float hi[3], bool shfl) {
    const int t = threadIdx.x, lane = t & 31, w = t >> 5;
    if (shfl) {
        // [D]: butterfly within the warp, then across the warp results.
        for (int d = 16; d >= 1; d >>= 1)
            for (int k = 0; k < 3; ++k) {
                lo[k] = fminf(lo[k], __shfl_xor_sync(0xffffffffu, lo[k], d));
                hi[k] = fmaxf(hi[k], __shfl_xor_sync(0xffffffffu, hi[k], d));
            }
        if (lane == 0)
            for (int k = 0; k < 3; ++k) {
                s.v[k][w] = lo[k];
                s.v[3 + k][w] = hi[k];
            }
        __syncthreads();
        for (int k = 0; k < 3; ++k) {
            float a = lane < kWarps ? s.v[k][lane] : 3.0e38f, b = lane < kWarps ? s.v[3 + k][lane] : -3.0e38f;
            for (int d = 16; d >= 1; d >>= 1) {
                a = fminf(a, __shfl_xor_sync(0xffffffffu, a, d));
                b = fmaxf(b, __shfl_xor_sync(0xffffffffu, b, d));
            }
            lo[k] = a;
            hi[k] = b;
        }
        __syncthreads();
        return;
    }
    // Original: tree reduction with sequential addressing in shared memory.
    for (int k = 0; k < 3; ++k) {
        s.v[k][t] = lo[k];
        s.v[3 + k][t] = hi[k];
    }
    __syncthreads();
    for (int d = kBlock >> 1; d >= 1; d >>= 1) {
        if (t < d)
            for (int k = 0; k < 3; ++k) {
                s.v[k][t] = fminf(s.v[k][t], s.v[k][t + d]);
                s.v[3 + k][t] = fmaxf(s.v[3 + k][t], s.v[3 + k][t + d]);
            }
        __syncthreads();
    }
    for (int k = 0; k < 3; ++k) {
        lo[k] = s.v[k][0];
        hi[k] = s.v[3 + k][0];
    }
    __syncthreads();
}

// Node allocation that never overshoots the budget (no unreachable gaps).
// Takes n entries from a bump allocator that must stay within budget. One
// atomicAdd (a compare-and-swap loop on this one hot counter cost ~0.4 ms
// per allocation on the H100 with thousands of blocks contending); a failed
// allocation gives its entries back, so successful ranges stay contiguous:
// while a failed add is outstanding the counter exceeds the budget, so every
// other allocation fails too until it is undone.
__device__ __forceinline__ bool allocate(uint32_t* counter, uint32_t n, uint32_t budget, uint32_t& first) {
    uint32_t old = atomicAdd(counter, n);
    if (old + n > budget || old + n < old) {
        atomicSub(counter, n);
        return false;
    }
    first = old;
    return true;
}

}  // namespace strata::kdgpu
