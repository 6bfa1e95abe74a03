// OpCode::reduce in the fixed order that makes sums bit-identical to the reference backend:
// one workgroup of 256 lanes per (output, chunk of CHUNK = 16384 reduced elements); lane l accumulates the
// chunk's elements l, l+256, ... in increasing order from the identity, then a shared-memory tree
// (s = 128, 64, ..., 1: lane[i] = lane[i] OP lane[i+s]) gives lane[0]. No subgroup operations: their size
// differs by device and would change the order. More than one chunk writes partials [outputs, chunks] that the
// host reduces again with this shader (src/vulkan/kernels/reduce.cpp).
// BOOL variants compute all/any over x != 0 into pred; the others sum/product/max/min in A_T.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"
#ifndef BOOL
#include "lib/elementwise.glsl"
#endif

layout(local_size_x = NXV_GROUP_SIZE) in;
layout(constant_id = 0) const int FN = 0;  // ReduceFn: sum, product, max, min, all, any
// The identity of min for the uint variant, shared by u8 (255) and pred (1): an empty reduction stores it.
layout(constant_id = 1) const uint UINT_HIGHEST = 255u;
#define CHUNK 16384u

layout(std430, binding = 0) readonly buffer In { A_STORE x_data[]; };
layout(std430, binding = 1) writeonly buffer Out { OUT_STORE y_data[]; };
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
ACC_T load(uint i) { return nxv_nonzero(A_T(x_data[i])); }
#else
#define ACC_T A_T
ACC_T identity() {
#if defined(A_IS_FLOAT)
  const A_T inf = A_T(uintBitsToFloat(0x7f800000u));
  return FN == 0 ? A_T(0) : FN == 1 ? A_T(1) : FN == 2 ? -inf : inf;
#elif defined(A_S32)
  return FN == 0 ? 0 : FN == 1 ? 1 : FN == 2 ? int(0x80000000u) : 0x7fffffff;
#elif defined(A_S64)
  return FN == 0 ? int64_t(0) : FN == 1 ? int64_t(1) : FN == 2 ? int64_t(0x8000000000000000ul)
                                                              : int64_t(0x7fffffffffffffffl);
#else
  return FN == 0 ? 0u : FN == 1 ? 1u : FN == 2 ? 0u : UINT_HIGHEST;
#endif
}
ACC_T combine(ACC_T a, ACC_T b) {
  precise ACC_T r;
  if (FN == 0) r = a + b;
  else if (FN == 1) r = a * b;
  else if (FN == 2) r = nxv_max(a, b);
  else r = nxv_min(a, b);
  return r;
}
ACC_T load(uint i) { return A_T(x_data[i]); }
#endif

shared ACC_T lanes[256];

void main() {
  uint g = nxv_linear_group();
  if (g >= pc.outputs * pc.chunks) return;  // whole workgroups only: no barrier is skipped by part of a group
  uint lane = gl_LocalInvocationID.x;
  uint o = g / pc.chunks;
  uint begin = (g % pc.chunks) * CHUNK;
  uint end = min(pc.reduced, begin + CHUNK);

  uint base = 0u;
  uint rest = o;
  for (int d = int(pc.kept_rank) - 1; d >= 0; --d) {
    base += (rest % pc.kept_shape[d]) * pc.kept_stride[d];
    rest /= pc.kept_shape[d];
  }
  ACC_T acc = identity();
  for (uint r = begin + lane; r < end; r += 256u) {
    uint offset = base;
    uint rr = r;
    for (int d = int(pc.reduced_rank) - 1; d >= 0; --d) {
      offset += (rr % pc.reduced_shape[d]) * pc.reduced_stride[d];
      rr /= pc.reduced_shape[d];
    }
    acc = combine(acc, load(offset));
  }
  lanes[lane] = acc;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (lane < s) lanes[lane] = combine(lanes[lane], lanes[lane + s]);
    barrier();
  }
  if (lane == 0u) y_data[g] = OUT_STORE(lanes[0]);
}
