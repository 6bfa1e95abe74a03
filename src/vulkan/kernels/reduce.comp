// OpCode::reduce in the fixed order that makes sums bit-identical to the reference backend:
// one workgroup of 256 lanes per (output, chunk of CHUNK = 16384 reduced elements); lane l accumulates the
// chunk's elements l, l+256, ... in increasing order from the identity, then a shared-memory tree
// (s = 128, 64, ..., 1: lane[i] = lane[i] OP lane[i+s]) gives lane[0]. The scalar variants run the 256 lanes on
// NXV_GROUP_SIZE = 128 invocations (Vulkan's minimum workgroup), invocation t holding lanes t and t + 128. No subgroup operations: their size
// differs by device and would change the order. More than one chunk writes partials [outputs, chunks] that the
// host reduces again with this shader (src/vulkan/kernels/reduce.cpp). src/vulkan/fusion generates reductions in the
// same order (docs/fusion-compiler.md): change it in both places or in neither.
// BOOL variants compute all/any over x != 0 into pred; the others sum/product/max/min in A_T.
// VEC4 variants (not BOOL) are the fast path for a contiguous reduced run (one reduced axis group of stride 1)
// whose length and every kept stride are multiples of 4: 64 invocations per workgroup, invocation t keeps the
// accumulators of lanes 4t .. 4t+3 and feeds them from one vector load (the chunk's elements 4t .. 4t+3,
// + 256, + 512, ...), so each lane still adds exactly its elements in the same order, and the tree is the same.
// Only the schedule is free: each invocation issues BATCH vector loads before it adds them, in order.
// SHORT (a specialization constant of the scalar variants) is the path for rows of at most 32 elements (a sampler's
// per-chain sums over a few parameters): one invocation per output runs the same tree in registers. Lanes 32-255
// hold the identity throughout (identity OP identity is the identity), so the levels s = 128, 64, 32 combine each
// of lanes 0-31 with the identity and the levels 16 .. 1 combine lanes 0-31 as the workgroup would: the same
// operations on the same operands, so the same bits, at a 256th of the invocations.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "lib/common.glsl"
#ifndef BOOL
#include "lib/elementwise.glsl"
#endif

#ifdef VEC4
#define THREADS 64u
#define QUADS (CHUNK / 256u)  // vector loads per invocation in a full chunk
// Loads issued together (a divisor of QUADS). lavapipe's compile time grows with it: the first sum, product, max
// and min of four dtypes took 1.4x (4), 2.5x (8), 4x (16) the time of the previous single-load loop. The H200
// (f32 sum of 2^28, three alternating rounds): single load 3281-3345 GB/s, 4: 3127-3371, 8: 3391-3404,
// 16: 3203-3362 (torch.sum 3790-3995).
#define BATCH 8u
#else
#define THREADS NXV_GROUP_SIZE
#endif
layout(local_size_x = THREADS) in;
layout(constant_id = 0) const int FN = 0;  // ReduceFn: sum, product, max, min, all, any
// The identity of min for the uint variant, shared by u8 (255) and pred (1): an empty reduction stores it.
layout(constant_id = 1) const uint UINT_HIGHEST = 255u;
layout(constant_id = 2) const bool SHORT = false;  // rows of at most SHORT_ROW elements, one invocation each
#define CHUNK 16384u
#define SHORT_ROW 32u

layout(std430, binding = 0) readonly buffer In { A_STORE x_data[]; };
layout(std430, binding = 1) writeonly buffer Out { OUT_STORE y_data[]; };
#ifdef VEC4
layout(std430, binding = 0) readonly buffer In4 { A_VEC4 x4[]; };  // aliases In (same binding)
#endif
// The kept and the reduced axes, each collapsed to at most 4 (the host transposes the rare rest).
layout(push_constant) uniform Push {
  uint outputs;
  uint reduced;  // reduced elements per output
  uint chunks;  // ceil(length / CHUNK), at least 1
  uint kept_rank;
  uint reduced_rank;
  uint kept_shape[4];
  uint kept_stride[4];
  uint reduced_shape[4];
  uint reduced_stride[4];
} pc;

#ifdef BOOL
#define ACC_T uint
ACC_T identity() { return FN == 4 ? 1u : 0u; }
ACC_T combine(ACC_T a, ACC_T b) { return FN == 4 ? (a & b) : (a | b); }
ACC_T load(uint i) { return nxv_nonzero(A_LOAD(x_data[i])); }
#else
#define ACC_T A_T
ACC_T identity() {
#if defined(A_IS_FLOAT)
  const A_T inf = A_T(uintBitsToFloat(0x7f800000u));
  return FN == 0 ? A_T(0) : FN == 1 ? A_T(1) : FN == 2 ? -inf : inf;
#elif defined(A_U8)
  return FN == 0 ? 0u : FN == 1 ? 1u : FN == 2 ? 0u : UINT_HIGHEST;
#else
  return FN == 0 ? A_T(0) : FN == 1 ? A_T(1) : FN == 2 ? A_LOWEST : A_HIGHEST;
#endif
}
ACC_T combine(ACC_T a, ACC_T b) {
  precise ACC_T r;
  if (FN == 0) r = a + b;
  else if (FN == 1) r = nxv_ieee_multiply(a, b);  // lib/elementwise.glsl: why
  else if (FN == 2) r = nxv_max(a, b);
  else r = nxv_min(a, b);
  return r;
}
ACC_T load(uint i) { return A_LOAD(x_data[i]); }
#endif

#define LANES 256u
shared ACC_T lanes[LANES];

uint kept_base(uint o) {
  uint base = 0u;
  uint rest = o;
  for (int d = int(pc.kept_rank) - 1; d >= 0; --d) {
    base += (rest % pc.kept_shape[d]) * pc.kept_stride[d];
    rest /= pc.kept_shape[d];
  }
  return base;
}

uint reduced_offset(uint base, uint r) {
  uint offset = base;
  for (int d = int(pc.reduced_rank) - 1; d >= 0; --d) {
    offset += (r % pc.reduced_shape[d]) * pc.reduced_stride[d];
    r /= pc.reduced_shape[d];
  }
  return offset;
}

#ifndef VEC4
void short_row() {
  const uint o = nxv_linear_index();
  if (o >= pc.outputs) return;
  const uint base = kept_base(o);
  ACC_T lane[SHORT_ROW];
  [[unroll]] for (uint l = 0u; l < SHORT_ROW; ++l) {
    lane[l] = identity();
    if (l < pc.reduced) lane[l] = combine(lane[l], load(reduced_offset(base, l)));
  }
  [[unroll]] for (uint s = 128u; s >= SHORT_ROW; s >>= 1)
    [[unroll]] for (uint l = 0u; l < SHORT_ROW; ++l) lane[l] = combine(lane[l], identity());
  [[unroll]] for (uint s = SHORT_ROW / 2u; s > 0u; s >>= 1)
    [[unroll]] for (uint l = 0u; l < s; ++l) lane[l] = combine(lane[l], lane[l + s]);
  y_data[o] = OUT_PACK(lane[0]);
}
#endif

void main() {
#ifndef VEC4
  if (SHORT) {  // a constant: every invocation takes the same path, and the tree below has barriers
    short_row();
    return;
  }
#endif
  uint g = nxv_linear_group();
  if (g >= pc.outputs * pc.chunks) return;  // whole workgroups only: no barrier is skipped by part of a group
  uint t = gl_LocalInvocationID.x;
  uint o = g / pc.chunks;
  uint begin = (g % pc.chunks) * CHUNK;
  uint end = min(pc.reduced, begin + CHUNK);

  const uint base = kept_base(o);
#ifdef VEC4
  // Vector first + k holds the chunk's elements 4k .. 4k+3 (base and begin are multiples of 4); invocation t
  // takes k = t + 64 j, j = 0 .. 63, for lanes 4t .. 4t+3. Batches of BATCH loads are issued before their adds
  // (which stay in order); a vector past the chunk's end loads the chunk's first one instead (always in bounds,
  // branch-free) and is not added. A batch with nothing to add is skipped (the condition is uniform).
  const uint first = (base + begin) / 4u;
  const uint quads = (end - begin) / 4u;
  ACC_T acc0 = identity(), acc1 = identity(), acc2 = identity(), acc3 = identity();
  for (uint j0 = 0u; j0 < QUADS && THREADS * j0 < quads; j0 += BATCH) {
    A_VEC4 v[BATCH];
    [[unroll]] for (uint j = 0u; j < BATCH; ++j) {
      const uint k = t + THREADS * (j0 + j);
      v[j] = x4[first + (k < quads ? k : 0u)];
    }
    [[unroll]] for (uint j = 0u; j < BATCH; ++j) {
      if (t + THREADS * (j0 + j) < quads) {
        acc0 = combine(acc0, A_LOAD(v[j].x));
        acc1 = combine(acc1, A_LOAD(v[j].y));
        acc2 = combine(acc2, A_LOAD(v[j].z));
        acc3 = combine(acc3, A_LOAD(v[j].w));
      }
    }
  }
  lanes[4u * t] = acc0;
  lanes[4u * t + 1u] = acc1;
  lanes[4u * t + 2u] = acc2;
  lanes[4u * t + 3u] = acc3;
#else
  for (uint l = t; l < LANES; l += THREADS) {
    ACC_T acc = identity();
    for (uint r = begin + l; r < end; r += LANES) acc = combine(acc, load(reduced_offset(base, r)));
    lanes[l] = acc;
  }
#endif
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    for (uint lane = t; lane < s; lane += THREADS) lanes[lane] = combine(lanes[lane], lanes[lane + s]);
    barrier();
  }
  if (t == 0u) y_data[g] = OUT_PACK(lanes[0]);
}
