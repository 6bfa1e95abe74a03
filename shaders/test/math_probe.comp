#version 450
// math_probe.comp -- compiles every function of the shared math library and
// evaluates one of them (selected by the specialization constant FN) over a
// buffer, for GPU-vs-CPU bit-exactness tests.
//
//   glslc --target-env=vulkan1.2 -I shaders shaders/test/math_probe.comp -o probe.spv
//
// Bindings (set 0, std430):
//   0: readonly  double a[]   first argument
//   1: readonly  double b[]   second argument (pow, atan2, fmod; else unused)
//   2: writeonly double r[]   result
// push constant: uint n (element count). local_size_x = 64.
// f32 variants (FN >= 100): arguments are float(a[i]) / float(b[i]) (the host
// should pass float-representable values), result double(float result)
// (exact).
//
// FN:   0 exp     1 expm1   2 log     3 log1p   4 pow(a,b)  5 sin    6 cos
//       7 tanh    8 erf     9 atan   10 atan2(a,b)  11 fmod(a,b)  12 sigmoid
//      13 round_half_away  14 sqrt
//     100 + the above: the f32 entry point (nxv_expf, ...).
#extension GL_GOOGLE_include_directive : require

#include "lib/math.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const int FN = 0;

layout(std430, set = 0, binding = 0) readonly buffer InA { double a[]; };
layout(std430, set = 0, binding = 1) readonly buffer InB { double b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { double r[]; };
layout(push_constant) uniform PC { uint n; } pc;

double eval64(int fn, double x, double y) {
    if (fn == 0) return nxv_exp(x);
    if (fn == 1) return nxv_expm1(x);
    if (fn == 2) return nxv_log(x);
    if (fn == 3) return nxv_log1p(x);
    if (fn == 4) return nxv_pow(x, y);
    if (fn == 5) return nxv_sin(x);
    if (fn == 6) return nxv_cos(x);
    if (fn == 7) return nxv_tanh(x);
    if (fn == 8) return nxv_erf(x);
    if (fn == 9) return nxv_atan(x);
    if (fn == 10) return nxv_atan2(x, y);
    if (fn == 11) return nxv_fmod(x, y);
    if (fn == 12) return nxv_sigmoid(x);
    if (fn == 13) return nxv_round_half_away(x);
    return nxv_sqrt(x);
}

float eval32(int fn, float x, float y) {
    if (fn == 0) return nxv_expf(x);
    if (fn == 1) return nxv_expm1f(x);
    if (fn == 2) return nxv_logf(x);
    if (fn == 3) return nxv_log1pf(x);
    if (fn == 4) return nxv_powf(x, y);
    if (fn == 5) return nxv_sinf(x);
    if (fn == 6) return nxv_cosf(x);
    if (fn == 7) return nxv_tanhf(x);
    if (fn == 8) return nxv_erff(x);
    if (fn == 9) return nxv_atanf(x);
    if (fn == 10) return nxv_atan2f(x, y);
    if (fn == 11) return nxv_fmodf(x, y);
    if (fn == 12) return nxv_sigmoidf(x);
    if (fn == 13) return nxv_round_half_awayf(x);
    return nxv_sqrtf(x);
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.n) return;
    if (FN >= 100) {
        r[i] = double(eval32(FN - 100, float(a[i]), float(b[i])));
    } else {
        r[i] = eval64(FN, a[i], b[i]);
    }
}
