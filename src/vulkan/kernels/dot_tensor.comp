// OpCode::dot for f16 in Precision::fast on tensor cores (the `tensor` variant, src/vulkan/kernels/dot.hpp):
// 16x16x16 products of f16 matrices accumulated in f32 by cooperative matrices (GL_NV_cooperative_matrix, the one
// Debian 12's glslc compiles), then each output rounded once to f16 by the library's own conversion, as the
// portable kernels round theirs. Only devices with DeviceFeatures::tensor_cores_f16 create this pipeline.
// The operand strides, push block and grid are dot.comp's, so every orientation and batching runs without a
// transposing copy. The summation order inside a tensor core is the hardware's (fixed, so the results are the same
// run after run, but not dot.comp's k order, and its alignment truncates): include/nxv/precision.hpp states the
// bound.
//
// A workgroup of 8 subgroups of 32 owns a TM x TN tile of the output (specialization constants; the subgroups
// 2 high and 4 wide, each TM/2 x TN/4 of it in 16x16 accumulators). K advances in slabs of TK: each invocation
// loads its 16-byte pieces (8 halves along the operand's contiguous axis) of the next slab into registers while
// the tensor cores work on the current one from shared memory. Shared tiles keep the operand's own orientation
// (rows along its contiguous axis, padded by 8 halves against bank conflicts); the cooperative loads read them
// row- or column-major to match. Outside M, N and K the tiles hold zeros (a padded K adds +0 products).
// The accumulators leave through a 16x16 f32 staging area per subgroup, from which each invocation rounds and
// stores 8 outputs: whole 16-byte stores where the row allows, else element by element inside M and N.
#version 450
#pragma use_vulkan_memory_model
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#include "lib/common.glsl"

#ifndef A_F16
#error dot_tensor.comp: f16 only (VK_NV_cooperative_matrix has no bf16 component type)
#endif

layout(local_size_x = 256) in;
layout(constant_id = 0) const int A_ALONG_K = 1;  // as in dot.comp: the axis each operand is contiguous along
layout(constant_id = 1) const int B_ALONG_K = 0;
layout(constant_id = 2) const int FAST = 1;  // always 1 here; kept for dot.comp's specialization layout
layout(constant_id = 3) const uint TM = 128u;
layout(constant_id = 4) const uint TN = 128u;
#define TK 32u
#define PAD 8u                 // halves of padding per shared row
#define SUBGROUP_ROWS 2u       // subgroups along M
#define SUBGROUP_COLS 4u       // and along N
const uint FRAG_ROWS = TM / SUBGROUP_ROWS / 16u;  // accumulators per subgroup along M
const uint FRAG_COLS = TN / SUBGROUP_COLS / 16u;  // and along N
// Shared rows run along the operand's contiguous axis: [tile][TK + PAD] (along K) or [TK][tile + PAD] (along the
// free axis), in 16-byte pieces; sized for the larger of the two.
const uint A_PIECES = (TM + PAD) * (TK + PAD) / 8u;
const uint B_PIECES = (TN + PAD) * (TK + PAD) / 8u;
const uint A_LOADS = TM * TK / 8u / 256u;  // 16-byte pieces each invocation loads per slab
const uint B_LOADS = TN * TK / 8u / 256u;

layout(std430, binding = 0) readonly buffer InA { A_STORE a_data[]; };
layout(std430, binding = 0) readonly buffer InAV { uvec4 a_vec[]; };  // aliases InA
layout(std430, binding = 1) readonly buffer InB { A_STORE b_data[]; };
layout(std430, binding = 1) readonly buffer InBV { uvec4 b_vec[]; };  // aliases InB
layout(std430, binding = 2) writeonly buffer Out { A_STORE y_data[]; };
layout(std430, binding = 2) writeonly buffer OutV { uvec4 y_vec[]; };  // aliases Out
layout(push_constant) uniform Push {
  uint m, n, k;
  uint batch_base;
  uint a_batch, a_m, a_k;
  uint b_batch, b_k, b_n;
} pc;

shared uvec4 a_tile[A_PIECES];
shared uvec4 b_tile[B_PIECES];
shared float staging[8][256];

uvec4 a_next[A_LOADS];
uvec4 b_next[B_LOADS];

// Piece `idx` of an operand's slab as (row, first column) of its shared tile, in halves: rows along K hold TK / 8
// pieces, rows along the free axis tile / 8.
uvec2 piece(uint idx, bool along_k, uint tile) {
  const uint per_row = (along_k ? TK : tile) / 8u;
  return uvec2(idx / per_row, (idx % per_row) * 8u);
}

// Whether 16-byte pieces can be read whole: the contiguous axis has stride 1 and the other strides are multiples
// of 8 halves (buffers start 64-byte aligned).
bool whole_pieces(bool along_k, uint batch, uint free_stride, uint k_stride) {
  return along_k ? k_stride == 1u && free_stride % 8u == 0u && batch % 8u == 0u
                 : free_stride == 1u && k_stride % 8u == 0u && batch % 8u == 0u;
}

// 8 halves from `data` at `at`, `step` apart, those whose (free, k) index lies inside the problem; zeros elsewhere.
#define GATHER(DATA, AT, STEP, FREE, K, ALONG_K, FREE_EXTENT)                                  \
  {                                                                                          \
    uint h[8];                                                                               \
    [[unroll]] for (uint c = 0u; c < 8u; ++c) {                                              \
      const uint fc = ALONG_K ? FREE : FREE + c, kc = ALONG_K ? K + c : K;                   \
      h[c] = fc < FREE_EXTENT && kc < pc.k ? uint(DATA[AT + c * STEP]) : 0u;                 \
    }                                                                                        \
    v = uvec4(h[0] | h[1] << 16, h[2] | h[3] << 16, h[4] | h[5] << 16, h[6] | h[7] << 16);  \
  }

void load_slab(uint a_base, uint b_base, uint m0, uint n0, uint k0, uint tid) {
  const bool a_whole = whole_pieces(A_ALONG_K == 1, pc.a_batch, pc.a_m, pc.a_k);
  const bool b_whole = whole_pieces(B_ALONG_K == 1, pc.b_batch, pc.b_n, pc.b_k);
  [[unroll]] for (uint e = 0u; e < A_LOADS; ++e) {
    const uvec2 s = piece(tid + e * 256u, A_ALONG_K == 1, TM);
    const uint m = m0 + (A_ALONG_K == 1 ? s.x : s.y), k = k0 + (A_ALONG_K == 1 ? s.y : s.x);
    const uint at = a_base + m * pc.a_m + k * pc.a_k;
    const bool inside = A_ALONG_K == 1 ? m < pc.m && k + 8u <= pc.k : m + 8u <= pc.m && k < pc.k;
    uvec4 v;
    if (a_whole && inside) {
      v = a_vec[at / 8u];
    } else {
      GATHER(a_data, at, (A_ALONG_K == 1 ? pc.a_k : pc.a_m), m, k, A_ALONG_K == 1, pc.m)
    }
    a_next[e] = v;
  }
  [[unroll]] for (uint e = 0u; e < B_LOADS; ++e) {
    const uvec2 s = piece(tid + e * 256u, B_ALONG_K == 1, TN);
    const uint n = n0 + (B_ALONG_K == 1 ? s.x : s.y), k = k0 + (B_ALONG_K == 1 ? s.y : s.x);
    const uint at = b_base + k * pc.b_k + n * pc.b_n;
    const bool inside = B_ALONG_K == 1 ? n < pc.n && k + 8u <= pc.k : n + 8u <= pc.n && k < pc.k;
    uvec4 v;
    if (b_whole && inside) {
      v = b_vec[at / 8u];
    } else {
      GATHER(b_data, at, (B_ALONG_K == 1 ? pc.b_k : pc.b_n), n, k, B_ALONG_K == 1, pc.n)
    }
    b_next[e] = v;
  }
}

void store_slab(uint tid) {
  const uint a_row = (A_ALONG_K == 1 ? TK : TM) + PAD, b_row = (B_ALONG_K == 1 ? TK : TN) + PAD;
  [[unroll]] for (uint e = 0u; e < A_LOADS; ++e) {
    const uvec2 s = piece(tid + e * 256u, A_ALONG_K == 1, TM);
    a_tile[(s.x * a_row + s.y) / 8u] = a_next[e];
  }
  [[unroll]] for (uint e = 0u; e < B_LOADS; ++e) {
    const uvec2 s = piece(tid + e * 256u, B_ALONG_K == 1, TN);
    b_tile[(s.x * b_row + s.y) / 8u] = b_next[e];
  }
}

void main() {
  const uint batch = pc.batch_base + gl_WorkGroupID.z;
  const uint m0 = gl_WorkGroupID.y * TM, n0 = gl_WorkGroupID.x * TN;
  const uint tid = gl_LocalInvocationID.x;
  const uint sg = gl_SubgroupID, sg_m = sg / SUBGROUP_COLS, sg_n = sg % SUBGROUP_COLS;
  const uint a_base = batch * pc.a_batch, b_base = batch * pc.b_batch;
  // Shared row lengths in 16-byte pieces; A is read column-major when its rows run along M, B when along K.
  const uint a_row = ((A_ALONG_K == 1 ? TK : TM) + PAD) / 8u, b_row = ((B_ALONG_K == 1 ? TK : TN) + PAD) / 8u;

  fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> acc[FRAG_ROWS][FRAG_COLS];
  [[unroll]] for (uint i = 0u; i < FRAG_ROWS; ++i)
    [[unroll]] for (uint j = 0u; j < FRAG_COLS; ++j) acc[i][j] = fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>(0.0);

  if (pc.k > 0u) load_slab(a_base, b_base, m0, n0, 0u, tid);
  for (uint k0 = 0u; k0 < pc.k; k0 += TK) {
    barrier();  // the previous slab's cooperative loads are done
    store_slab(tid);
    barrier();
    if (k0 + TK < pc.k) load_slab(a_base, b_base, m0, n0, k0 + TK, tid);
    [[unroll]] for (uint kk = 0u; kk < TK; kk += 16u) {
      fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> a[FRAG_ROWS];
      [[unroll]] for (uint i = 0u; i < FRAG_ROWS; ++i) {
        const uint row = (sg_m * FRAG_ROWS + i) * 16u;  // within the tile, along M
        if (A_ALONG_K == 1)
          coopMatLoadNV(a[i], a_tile, row * a_row + kk / 8u, a_row, false);
        else
          coopMatLoadNV(a[i], a_tile, kk * a_row + row / 8u, a_row, true);
      }
      [[unroll]] for (uint j = 0u; j < FRAG_COLS; ++j) {
        const uint col = (sg_n * FRAG_COLS + j) * 16u;  // within the tile, along N
        fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> b;
        if (B_ALONG_K == 1)
          coopMatLoadNV(b, b_tile, col * b_row + kk / 8u, b_row, true);
        else
          coopMatLoadNV(b, b_tile, kk * b_row + col / 8u, b_row, false);
        [[unroll]] for (uint i = 0u; i < FRAG_ROWS; ++i) acc[i][j] = coopMatMulAddNV(a[i], b, acc[i][j]);
      }
    }
  }

  // Each accumulator through the subgroup's staging area: invocation l stores row l / 2, columns (l % 2) * 8 + 0..7.
  const uint lane = gl_SubgroupInvocationID, r = lane / 2u, c0 = (lane % 2u) * 8u;
  const uint y_base = batch * pc.m * pc.n;
  [[unroll]] for (uint i = 0u; i < FRAG_ROWS; ++i)
    [[unroll]] for (uint j = 0u; j < FRAG_COLS; ++j) {
      coopMatStoreNV(acc[i][j], staging[sg], 0, 16, false);
      subgroupMemoryBarrierShared();
      subgroupBarrier();
      const uint row = m0 + (sg_m * FRAG_ROWS + i) * 16u + r, col = n0 + (sg_n * FRAG_COLS + j) * 16u + c0;
      if (row < pc.m && col < pc.n) {
        uint h[8];
        [[unroll]] for (uint d = 0u; d < 8u; ++d) h[d] = uint(A_PACK(staging[sg][r * 16u + c0 + d]));
        const uint at = y_base + row * pc.n + col;
        if (pc.n % 8u == 0u && col + 8u <= pc.n) {
          y_vec[at / 8u] = uvec4(h[0] | h[1] << 16, h[2] | h[3] << 16, h[4] | h[5] << 16, h[6] | h[7] << 16);
        } else {
          [[unroll]] for (uint d = 0u; d < 8u; ++d)
            if (col + d < pc.n) y_data[at + d] = A_STORE(h[d]);
        }
      }
      subgroupBarrier();  // the staging area is read before the next accumulator overwrites it
    }
}
