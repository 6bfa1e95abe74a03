// Fills out[offset, offset + count) with one element given as bits (OpCode::full, the background of pad).
// Byte moves only: one variant per element size (ELEM_1, ELEM_2, ELEM_4, ELEM_8).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"

#if defined(ELEM_1)
#define E uint8_t
#define VALUE uint8_t(pc.low)
#elif defined(ELEM_2)
#define E uint16_t
#define VALUE uint16_t(pc.low)
#elif defined(ELEM_4)
#define E uint
#define VALUE pc.low
#else
#define E uvec2
#define VALUE uvec2(pc.low, pc.high)
#endif

layout(local_size_x = NXV_GROUP_SIZE) in;
layout(std430, binding = 0) writeonly buffer Out { E y_data[]; };
layout(push_constant) uniform Push {
  uint count;
  uint low;   // the element's bits (the low word of an 8-byte element)
  uint high;  // the high word of an 8-byte element
} pc;

void main() {
  uint i = nxv_linear_index();
  if (i >= pc.count) return;
  y_data[i] = VALUE;
}
