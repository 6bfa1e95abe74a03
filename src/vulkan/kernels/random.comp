// OpCode::random_uniform (DIST = 0) and random_normal (DIST = 1), f32 or f64 out. Element i (row-major) is
// Philox-4x32-10 (shared/philox.glsl.h) of counter (i, 0, 0, 0) under key (k0, k1) -- tensors have < 2^32
// elements, so i >> 32 is 0 -- turned into a value in double and rounded once to OUT:
//   uniform: u = (w0 >> 8) * 2^-24 (f32) or ((w0 << 32 | w1) >> 11) * 2^-53 (f64); low + (high - low) * u
//   normal:  u1 = (((w0 << 32 | w1) >> 11) + 1) * 2^-53, u2 = ((w2 << 32 | w3) >> 11) * 2^-53,
//            mean + stddev * sqrt(-2 log u1) cos(2 pi u2) with the shared nxv_log / nxv_cos
// Every step is `precise`, so no driver fuses a multiply-add the reference backend rounds twice.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"
#include "lib/math.glsl"
#include "shared/philox.glsl.h"

layout(local_size_x = NXV_GROUP_SIZE) in;
layout(constant_id = 0) const int DIST = 0;
layout(std430, binding = 0) writeonly buffer Out { OUT_STORE y_data[]; };
layout(push_constant) uniform Push {
  uint count;
  uint k0;
  uint k1;
  uint unused;
  double a;  // low, or mean
  double b;  // high, or stddev
} pc;

double bits53(uint hi, uint lo) { return double((uint64_t(hi) << 32 | uint64_t(lo)) >> 11); }

void main() {
  uint i = nxv_linear_index();
  if (i >= pc.count) return;
  uint w0, w1, w2, w3;
  nxv_philox(i, 0u, 0u, 0u, pc.k0, pc.k1, w0, w1, w2, w3);
  precise double v;
  if (DIST == 0) {
#ifdef OUT_F32
    precise double u = double(w0 >> 8) * (1.0lf / 16777216.0lf);
#else
    precise double u = bits53(w0, w1) * (1.0lf / 9007199254740992.0lf);
#endif
    precise double span = pc.b - pc.a;
    precise double scaled = span * u;
    v = pc.a + scaled;
  } else {
    precise double n1 = bits53(w0, w1) + 1.0lf;
    precise double u1 = n1 * (1.0lf / 9007199254740992.0lf);
    precise double u2 = bits53(w2, w3) * (1.0lf / 9007199254740992.0lf);
    precise double l = nxv_log(u1);
    precise double t = -2.0lf * l;
    precise double radius = nxv_sqrt(t);
    precise double angle = 6.283185307179586lf * u2;
    precise double c = nxv_cos(angle);
    precise double z = radius * c;
    precise double scaled = pc.b * z;
    v = pc.a + scaled;
  }
  y_data[i] = OUT_PACK(v);
}
