// The device's multiply-add rate for T (float or double) as Vulkan shaders reach it, for nxv-bench's roofline rows:
// each invocation runs 8 independent chains of ITERATIONS fmas in registers (2 flops each) and stores their sum,
// so that nothing is optimised away and no memory traffic counts. STEP=precise_fma writes each step as the dot
// kernels' fast mode does (a `precise` fma), STEP=precise_mul_add as their exact mode (a `precise` product, then a
// `precise` sum): what those decorations cost on the device. SHARED_OPERAND takes each step's multiplier from
// shared memory, one read per lane per step of the 8 chains (lanes at consecutive elements, as a GEMM's inner loop
// reads its tile): what feeding the fmas from shared memory costs, for f64 against f32.
#version 450
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 256) in;
layout(constant_id = 0) const int ITERATIONS = 1024;
layout(binding = 0) writeonly buffer Out { T y[]; };
layout(push_constant) uniform Push { float scale, offset; } pc;
#if defined(SHARED_OPERAND)
shared T operand[256];
#endif
void main() {
  const T c = T(pc.offset);
#if defined(SHARED_OPERAND)
  operand[gl_LocalInvocationID.x] = T(pc.scale) + T(gl_LocalInvocationID.x) * T(1e-9);
  barrier();
#else
  const T x = T(pc.scale);
#endif
  T a[8];
  [[unroll]] for (int i = 0; i < 8; ++i) a[i] = T(gl_GlobalInvocationID.x + uint(i)) * T(1e-6);
  for (int it = 0; it < ITERATIONS; ++it) {
#if defined(SHARED_OPERAND)
    const T x = operand[(gl_LocalInvocationID.x + uint(it)) & 255u];
#endif
    [[unroll]] for (int i = 0; i < 8; ++i) {
#if defined(PRECISE_FMA)
      precise T fused = fma(a[i], x, c);
      a[i] = fused;
#elif defined(PRECISE_MUL_ADD)
      precise T product = a[i] * x;
      precise T sum = product + c;
      a[i] = sum;
#else
      a[i] = fma(a[i], x, c);
#endif
    }
  }
  y[gl_GlobalInvocationID.x] = ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
}
