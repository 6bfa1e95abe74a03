// OpCode::dot for large f32/f64 problems: the register-blocked GEMM (the host's "mid" and "big" variants,
// src/vulkan/kernels/dot.cpp). Same contract and operand strides as dot.comp, which still serves integers and
// small problems: every output is acc = acc + a_k * b_k for k = 0, 1, ..., K-1 in order, the product and the sum
// each rounded (`precise`: never an fma), so the result is the reference backend's bit for bit; with FAST = 1
// (Precision::fast) each step is one fma in the same order, as in dot.comp, whose fast results it equals. Tiling over M and
// N, K slabs through shared memory and register blocking reorder nothing within one output's sum.
//
// A workgroup of 16 x 16 invocations owns a TM x TN = 16 RM x 16 RN tile; each invocation an RM x RN register
// block made of vectors of VW elements (vec4 for f32, dvec2 for f64: 16-byte shared reads either way), at vector
// columns tx + 16 s and vector rows ty + 16 r of the tile: a warp (tx 0..15 of two ty) then reads b as 256
// consecutive bytes (conflict-free) and a as two broadcast addresses, and writes 256 consecutive output bytes.
// Shared tiles are k-major ([k][m], [k][n]) with one vector of padding per row, which keeps the transposing
// stores of an operand that is contiguous along K at most 2-way bank-conflicted.
// K advances in slabs of TK; the next slab's global loads are issued into registers before the current slab is
// computed (register double buffering), and a partial last slab stops at K (adding padded zeros would turn a -0
// sum into +0). Global loads are vectors along an operand's contiguous axis where its strides allow it, and
// scalars at the edges of M, N and K.
//
// Defines (src/vulkan/kernels/kernels.cmake): RM, RN (multiples of VW) and TK (a multiple of VW); shared memory is
// TK * (TM + TN + 2 VW) * sizeof(A_T): 17 KiB for f32 128 x 128 and 25 KiB for f64 128 x 64 at TK = 16, inside
// lavapipe's 32 KiB and NVIDIA's 48 KiB.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "lib/common.glsl"

#if defined(A_F16) || defined(A_BF16)  // tiles of their f32 values; vectors of four 16-bit elements in memory
#define VW 4u
#define VEC vec4
#define MEM_VEC u16vec4
#define FROM_MEM(v) vec4(A_LOAD(v.x), A_LOAD(v.y), A_LOAD(v.z), A_LOAD(v.w))
#define TO_MEM(v) u16vec4(A_PACK(v.x), A_PACK(v.y), A_PACK(v.z), A_PACK(v.w))
#elif defined(A_F32)
#define VW 4u
#define VEC vec4
#elif defined(A_F64)
#define VW 2u
#define VEC dvec2
#else
#error dot_blocked.comp: the float dtypes only (integers use dot.comp)
#endif
#ifndef MEM_VEC  // f32 and f64: memory holds the tiles' vectors
#define MEM_VEC VEC
#define FROM_MEM(v) (v)
#define TO_MEM(v) (v)
#endif
#define TM (16u * RM)
#define TN (16u * RN)
#define TMV (TM / VW)  // vectors per shared row of a
#define TNV (TN / VW)
#define LAV (TM * TK / (256u * VW))  // vectors of a each invocation loads per slab
#define LBV (TN * TK / (256u * VW))

layout(local_size_x = 256) in;
// As in dot.comp: which axis an operand is contiguous along (1: K), and so which axis its loads walk.
layout(constant_id = 0) const int A_ALONG_K = 1;
layout(constant_id = 1) const int B_ALONG_K = 0;
layout(constant_id = 2) const int FAST = 0;

layout(std430, binding = 0) readonly buffer InA { A_STORE a_data[]; };
layout(std430, binding = 0) readonly buffer InAV { MEM_VEC a_vec[]; };  // aliases InA
layout(std430, binding = 1) readonly buffer InB { A_STORE b_data[]; };
layout(std430, binding = 1) readonly buffer InBV { MEM_VEC b_vec[]; };  // aliases InB
layout(std430, binding = 2) writeonly buffer Out { A_STORE y_data[]; };
layout(std430, binding = 2) writeonly buffer OutV { MEM_VEC y_vec[]; };  // aliases Out
layout(push_constant) uniform Push {
  uint m, n, k;
  uint batch_base;
  uint a_batch, a_m, a_k;
  uint b_batch, b_k, b_n;
} pc;

shared VEC a_tile[TK][TMV + 1u];
shared VEC b_tile[TK][TNV + 1u];

VEC a_next[LAV];  // the next slab, in flight from global memory
VEC b_next[LBV];

// Slot `e` of this invocation's share of a slab: vector `idx` of the tile, as (free index, k index) of its first
// element; along K the slab row holds TK / VW vectors, along the free axis TILE / VW.
uvec2 slot(uint idx, bool along_k, uint tile) {
  return along_k ? uvec2(idx / (TK / VW), (idx % (TK / VW)) * VW) : uvec2((idx % (tile / VW)) * VW, idx / (tile / VW));
}

// Whether an operand's vectors along its contiguous axis can be loaded whole: that axis has stride 1 and the other
// strides are multiples of VW (buffers start 64-byte aligned). Uniform, and decided here rather than by the host as
// a specialization constant: four times fewer pipelines to compile (seconds each on lavapipe).
bool whole_vectors(bool along_k, uint batch, uint free_stride, uint k_stride) {
  return along_k ? k_stride == 1u && free_stride % VW == 0u && batch % VW == 0u
                 : free_stride == 1u && k_stride % VW == 0u && batch % VW == 0u;
}

void load_slab(uint a_base, uint b_base, uint m0, uint n0, uint k0, uint tid) {
  const bool a_whole = whole_vectors(A_ALONG_K == 1, pc.a_batch, pc.a_m, pc.a_k);
  const bool b_whole = whole_vectors(B_ALONG_K == 1, pc.b_batch, pc.b_n, pc.b_k);
  [[unroll]] for (uint e = 0u; e < LAV; ++e) {
    const uvec2 s = slot(tid + e * 256u, A_ALONG_K == 1, TM);
    const uint m = m0 + s.x, k = k0 + s.y;
    const uint at = a_base + m * pc.a_m + k * pc.a_k;
    const bool whole = A_ALONG_K == 1 ? m < pc.m && k + VW <= pc.k : m + VW <= pc.m && k < pc.k;
    if (a_whole && whole) {
      a_next[e] = FROM_MEM(a_vec[at / VW]);
    } else {
      [[unroll]] for (uint c = 0u; c < VW; ++c) {
        const uint mc = A_ALONG_K == 1 ? m : m + c, kc = A_ALONG_K == 1 ? k + c : k;
        const uint step = A_ALONG_K == 1 ? pc.a_k : pc.a_m;
        a_next[e][c] = mc < pc.m && kc < pc.k ? A_LOAD(a_data[at + c * step]) : A_T(0);
      }
    }
  }
  [[unroll]] for (uint e = 0u; e < LBV; ++e) {
    const uvec2 s = slot(tid + e * 256u, B_ALONG_K == 1, TN);
    const uint n = n0 + s.x, k = k0 + s.y;
    const uint at = b_base + k * pc.b_k + n * pc.b_n;
    const bool whole = B_ALONG_K == 1 ? n < pc.n && k + VW <= pc.k : n + VW <= pc.n && k < pc.k;
    if (b_whole && whole) {
      b_next[e] = FROM_MEM(b_vec[at / VW]);
    } else {
      [[unroll]] for (uint c = 0u; c < VW; ++c) {
        const uint nc = B_ALONG_K == 1 ? n : n + c, kc = B_ALONG_K == 1 ? k + c : k;
        const uint step = B_ALONG_K == 1 ? pc.b_k : pc.b_n;
        b_next[e][c] = nc < pc.n && kc < pc.k ? A_LOAD(b_data[at + c * step]) : A_T(0);
      }
    }
  }
}

// The registers into the k-major shared tiles: whole vectors when they run along the free axis, else transposed
// element by element.
void store_slab(uint tid) {
  [[unroll]] for (uint e = 0u; e < LAV; ++e) {
    const uvec2 s = slot(tid + e * 256u, A_ALONG_K == 1, TM);
    if (A_ALONG_K == 1) {
      [[unroll]] for (uint c = 0u; c < VW; ++c) a_tile[s.y + c][s.x / VW][s.x % VW] = a_next[e][c];
    } else {
      a_tile[s.y][s.x / VW] = a_next[e];
    }
  }
  [[unroll]] for (uint e = 0u; e < LBV; ++e) {
    const uvec2 s = slot(tid + e * 256u, B_ALONG_K == 1, TN);
    if (B_ALONG_K == 1) {
      [[unroll]] for (uint c = 0u; c < VW; ++c) b_tile[s.y + c][s.x / VW][s.x % VW] = b_next[e][c];
    } else {
      b_tile[s.y][s.x / VW] = b_next[e];
    }
  }
}

// One k of the slab: every output's fma (FAST), or its rounded product, then rounded sum (NoContraction). This
// module is compiled without glslc's -O (kernels.cmake): Debian's spirv-opt drops NoContraction from the steps its
// unroller copies and folds them into fmas (tests/vulkan/kernels/contraction_test.cpp), which made the exact steps
// fmas on every device that computes an fma fused.
#define STEP(KK)                                                                             \
  {                                                                                          \
    VEC a[RM / VW];                                                                          \
    VEC b[RN / VW];                                                                          \
    [[unroll]] for (uint r = 0u; r < RM / VW; ++r) a[r] = a_tile[KK][ty + 16u * r];          \
    [[unroll]] for (uint s = 0u; s < RN / VW; ++s) b[s] = b_tile[KK][tx + 16u * s];          \
    [[unroll]] for (uint i = 0u; i < RM; ++i)                                                \
      [[unroll]] for (uint j = 0u; j < RN; ++j) {                                            \
        if (FAST == 1) {                                                                     \
          precise A_T fused = fma(a[i / VW][i % VW], b[j / VW][j % VW], acc[i][j]);          \
          acc[i][j] = fused;                                                                 \
        } else {                                                                             \
          precise A_T product = a[i / VW][i % VW] * b[j / VW][j % VW];                       \
          precise A_T sum = acc[i][j] + product;                                             \
          acc[i][j] = sum;                                                                   \
        }                                                                                    \
      }                                                                                      \
  }

void main() {
  const uint batch = pc.batch_base + gl_WorkGroupID.z;
  const uint m0 = gl_WorkGroupID.y * TM, n0 = gl_WorkGroupID.x * TN;
  const uint tid = gl_LocalInvocationID.x, tx = tid % 16u, ty = tid / 16u;
  const uint a_base = batch * pc.a_batch, b_base = batch * pc.b_batch;

  A_T acc[RM][RN];
  [[unroll]] for (uint i = 0u; i < RM; ++i)
    [[unroll]] for (uint j = 0u; j < RN; ++j) acc[i][j] = A_T(0);

  if (pc.k > 0u) load_slab(a_base, b_base, m0, n0, 0u, tid);
  for (uint k0 = 0u; k0 < pc.k; k0 += TK) {
    store_slab(tid);
    barrier();
    if (k0 + TK < pc.k) load_slab(a_base, b_base, m0, n0, k0 + TK, tid);
    if (k0 + TK <= pc.k) {
      [[unroll]] for (uint kk = 0u; kk < TK; ++kk) STEP(kk)
    } else {
      for (uint kk = 0u; kk < pc.k - k0; ++kk) STEP(kk)
    }
    barrier();
  }

  // Rows (ty + 16 r) VW + c, columns (tx + 16 s) VW + d; whole vectors where the row's N allows (y's batch and row
  // offsets are then multiples of VW too).
  const uint y_base = batch * pc.m * pc.n;
  [[unroll]] for (uint i = 0u; i < RM; ++i) {
    const uint row = m0 + (ty + 16u * (i / VW)) * VW + i % VW;
    if (row >= pc.m) continue;
    [[unroll]] for (uint s = 0u; s < RN / VW; ++s) {
      const uint col = n0 + (tx + 16u * s) * VW;
      const uint at = y_base + row * pc.n + col;
      if (pc.n % VW == 0u && col + VW <= pc.n) {
        VEC v;
        [[unroll]] for (uint d = 0u; d < VW; ++d) v[d] = acc[i][s * VW + d];
        y_vec[at / VW] = TO_MEM(v);
      } else {
        [[unroll]] for (uint d = 0u; d < VW; ++d)
          if (col + d < pc.n) y_data[at + d] = A_PACK(acc[i][s * VW + d]);
      }
    }
  }
}
