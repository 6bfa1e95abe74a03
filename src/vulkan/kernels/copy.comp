// The strided copy behind every movement op (transpose, broadcast, slice, pad, concatenate, reverse) and behind
// materialising an operand: iterates an index space of rank <= 8 (row-major) and moves element
// in[in_offset + sum c_d * in_stride_d] to out[out_offset + sum c_d * out_stride_d]. Strides are signed
// (reverse walks backwards). Byte moves only: one variant per element size (ELEM_1, ELEM_2, ELEM_4, ELEM_8).
// CONTIGUOUS (a specialization constant) is the fast path of a plain run of `count` elements from in_offset to
// out_offset, both 16-byte aligned (the host checks): invocation i < count / PER moves 16 bytes as one uvec4,
// the next count % PER invocations move the tail element by element. The uvec4 blocks alias the element blocks
// (same bindings, which Vulkan allows); buffers start 16-byte aligned (the allocator's offsets are multiples of
// 64 bytes).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"

#if defined(ELEM_1)
#define E uint8_t
#define PER 16u
#elif defined(ELEM_2)
#define E uint16_t
#define PER 8u
#elif defined(ELEM_4)
#define E uint
#define PER 4u
#else
#define E uvec2
#define PER 2u
#endif

layout(local_size_x = NXV_GROUP_SIZE) in;
layout(std430, binding = 0) readonly buffer In { E x_data[]; };
layout(std430, binding = 1) writeonly buffer Out { E y_data[]; };
layout(std430, binding = 0) readonly buffer In4 { uvec4 x4[]; };
layout(std430, binding = 1) writeonly buffer Out4 { uvec4 y4[]; };
layout(constant_id = 0) const bool CONTIGUOUS = false;
// 28 words (112 bytes).
layout(push_constant) uniform Push {
  uint count;
  uint rank;
  uint in_offset;
  uint out_offset;
  uint shape[8];
  int in_stride[8];
  int out_stride[8];
} pc;

void main() {
  uint i = nxv_linear_index();
  if (CONTIGUOUS) {
    const uint units = pc.count / PER;
    if (i < units) {
      y4[pc.out_offset / PER + i] = x4[pc.in_offset / PER + i];
    } else {
      const uint e = units * PER + (i - units);
      if (e < pc.count) y_data[pc.out_offset + e] = x_data[pc.in_offset + e];
    }
    return;
  }
  if (i >= pc.count) return;
  int src = int(pc.in_offset);
  int dst = int(pc.out_offset);
  uint rest = i;
  for (int d = int(pc.rank) - 1; d >= 0; --d) {
    int c = int(rest % pc.shape[d]);
    rest /= pc.shape[d];
    src += c * pc.in_stride[d];
    dst += c * pc.out_stride[d];
  }
  y_data[uint(dst)] = x_data[uint(src)];
}
