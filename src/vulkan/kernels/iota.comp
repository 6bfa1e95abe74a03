// OpCode::iota (EYE = 0): element i is its coordinate along one axis, (i / inner) % dim.
// OpCode::eye (EYE = 1): element i of [..., dim, inner] is 1 on the diagonal of the last two axes, else 0.
// The index is converted to OUT as an integer would be cast (wrapping to u8, x != 0 for pred, RNE to floats).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"

layout(local_size_x = NXV_GROUP_SIZE) in;
layout(constant_id = 0) const int EYE = 0;
layout(std430, binding = 0) writeonly buffer Out { OUT_STORE y_data[]; };
layout(push_constant) uniform Push {
  uint count;
  uint dim;
  uint inner;
} pc;

void main() {
  uint i = nxv_linear_index();
  if (i >= pc.count) return;
  uint row = (i / pc.inner) % pc.dim;
  uint v = EYE == 0 ? row : (row == i % pc.inner ? 1u : 0u);
#if defined(OUT_PRED)
  y_data[i] = OUT_PACK(nxv_nonzero(v));
#else
  y_data[i] = OUT_PACK(OUT_T(v));
#endif
}
