// Binary elementwise ops (OpCode::binary, and OpCode::binary_test when TEST is defined): out[i] = f(a, b) with
// a and b broadcast to the output shape (lib/broadcast.glsl). OP is the function id of shared/elementwise.def.
// When neither input is strided (each is contiguous or a single element) invocation i computes elements
// 4i .. 4i+3 with vector loads and stores (element by element at the tail); each element is still the table's
// expression alone. Otherwise one element per invocation through the broadcast offsets.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"
#include "lib/elementwise.glsl"
#include "lib/broadcast.glsl"

layout(local_size_x = NXV_GROUP_SIZE) in;
layout(constant_id = 0) const int OP = 0;
layout(constant_id = 1) const int KIND_A = 0;
layout(constant_id = 2) const int KIND_B = 0;

layout(std430, binding = 0) readonly buffer InA { A_STORE a_data[]; };
layout(std430, binding = 1) readonly buffer InB { A_STORE b_data[]; };
layout(std430, binding = 2) writeonly buffer Out { OUT_STORE y_data[]; };
layout(std430, binding = 0) readonly buffer InA4 { A_VEC4 a4[]; };
layout(std430, binding = 1) readonly buffer InB4 { A_VEC4 b4[]; };
layout(std430, binding = 2) writeonly buffer Out4 { OUT_VEC4 y4[]; };
// 26 words: within the 128 bytes every Vulkan device offers.
layout(push_constant) uniform Push {
  uint count;
  uint rank;
  uint shape[8];
  uint stride_a[8];
  uint stride_b[8];
} pc;

#ifdef TEST
#define NXV_BINARY_NUM(id, expr)
#define NXV_BINARY_FLOAT(id, expr)
#define NXV_BINARY_INT(id, expr)
#define NXV_BINARY_TEST(id, expr) if (OP == id) { return expr; }
#define RESULT_T uint
#else
#define NXV_BINARY_NUM(id, expr) if (OP == id) { precise A_T r = expr; return r; }
#if defined(A_IS_FLOAT)
#define NXV_BINARY_FLOAT(id, expr) if (OP == id) { precise A_T r = expr; return r; }
#define NXV_BINARY_INT(id, expr)
#else
#define NXV_BINARY_FLOAT(id, expr)
#define NXV_BINARY_INT(id, expr) if (OP == id) { precise A_T r = expr; return r; }
#endif
#define NXV_BINARY_TEST(id, expr)
#define RESULT_T A_T
#endif

RESULT_T apply(A_T a, A_T b) {
#define NXV_UNARY(id, name, cls, expr)
#define NXV_BINARY(id, name, cls, expr) NXV_BINARY_##cls(id, expr)
#include "shared/elementwise.def"
  return RESULT_T(0);
}

// Elements e .. e+3 of a contiguous or single-element input (`full`: all four exist; else only those < count).
#define NXV_LOAD4(KIND, data, data4, v)                                   \
  if (KIND == NXV_SCALAR) {                                               \
    v = A_VEC4(data[0]);                                                  \
  } else if (full) {                                                      \
    v = data4[i];                                                         \
  } else {                                                                \
    for (uint k = 0u; e + k < pc.count; ++k) v[k] = data[e + k];          \
  }

void main() {
  uint i = nxv_linear_index();
  if (KIND_A != NXV_STRIDED && KIND_B != NXV_STRIDED) {
    const uint e = i * 4u;  // the host dispatches ceil(count / 4) invocations: no overflow
    if (e >= pc.count) return;
    const bool full = pc.count - e >= 4u;
    A_VEC4 va = A_VEC4(0), vb = A_VEC4(0);
    NXV_LOAD4(KIND_A, a_data, a4, va)
    NXV_LOAD4(KIND_B, b_data, b4, vb)
    OUT_VEC4 r;
    for (int k = 0; k < 4; ++k) r[k] = OUT_PACK(apply(A_LOAD(va[k]), A_LOAD(vb[k])));
    if (full) {
      y4[i] = r;
    } else {
      for (uint k = 0u; e + k < pc.count; ++k) y_data[e + k] = r[k];
    }
    return;
  }
  if (i >= pc.count) return;
  uint ia, ib, unused;
  NXV_BROADCAST_OFFSETS(i, pc.rank, pc.shape, KIND_A, pc.stride_a, ia, KIND_B, pc.stride_b, ib, NXV_SCALAR,
                        pc.stride_b, unused);
  y_data[i] = OUT_PACK(apply(A_LOAD(a_data[ia]), A_LOAD(b_data[ib])));
}
