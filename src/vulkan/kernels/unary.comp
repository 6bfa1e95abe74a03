// Unary elementwise ops (OpCode::unary, and OpCode::unary_test when TEST is defined): out[i] = f(x[i]) on
// contiguous tensors of one shape. OP (the function id of shared/elementwise.def) is a specialization constant,
// so the driver keeps only one branch of the table below. Invocation i computes elements 4i .. 4i+3 (one vector
// load and store when all four exist, element by element at the tail); each element is the table's expression
// alone, so the results are those of one element per invocation.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"
#include "lib/elementwise.glsl"

layout(local_size_x = NXV_GROUP_SIZE) in;
layout(constant_id = 0) const int OP = 0;

layout(std430, binding = 0) readonly buffer In { A_STORE x_data[]; };
layout(std430, binding = 1) writeonly buffer Out { OUT_STORE y_data[]; };
layout(std430, binding = 0) readonly buffer In4 { A_VEC4 x4[]; };
layout(std430, binding = 1) writeonly buffer Out4 { OUT_VEC4 y4[]; };
layout(push_constant) uniform Push { uint count; } pc;

#ifdef TEST
#define NXV_UNARY_NUM(id, expr)
#define NXV_UNARY_FLOAT(id, expr)
#define NXV_UNARY_INT(id, expr)
#define NXV_UNARY_TEST(id, expr) if (OP == id) { return expr; }
#define RESULT_T uint
#else
#define NXV_UNARY_NUM(id, expr) if (OP == id) { precise A_T r = expr; return r; }
#if defined(A_IS_FLOAT)
#define NXV_UNARY_FLOAT(id, expr) if (OP == id) { precise A_T r = expr; return r; }
#define NXV_UNARY_INT(id, expr)
#else
#define NXV_UNARY_FLOAT(id, expr)
#define NXV_UNARY_INT(id, expr) if (OP == id) { precise A_T r = expr; return r; }
#endif
#define NXV_UNARY_TEST(id, expr)
#define RESULT_T A_T
#endif

const int nxv_bits = A_BITS;  // for the bit-counting ops (shared/elementwise.def)

RESULT_T apply(A_T x) {
#define NXV_UNARY(id, name, cls, expr) NXV_UNARY_##cls(id, expr)
#define NXV_BINARY(id, name, cls, expr)
#include "shared/elementwise.def"
  return RESULT_T(0);
}

void main() {
  const uint i = nxv_linear_index();
  const uint e = i * 4u;  // the host dispatches ceil(count / 4) invocations: no overflow
  if (e >= pc.count) return;
  const bool full = pc.count - e >= 4u;
  A_VEC4 v = A_VEC4(0);
  if (full) {
    v = x4[i];
  } else {
    for (uint k = 0u; e + k < pc.count; ++k) v[k] = x_data[e + k];
  }
  OUT_VEC4 r;
  for (int k = 0; k < 4; ++k) r[k] = OUT_PACK(apply(A_LOAD(v[k])));
  if (full) {
    y4[i] = r;
  } else {
    for (uint k = 0u; e + k < pc.count; ++k) y_data[e + k] = r[k];
  }
}
