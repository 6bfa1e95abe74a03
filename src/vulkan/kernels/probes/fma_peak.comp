// The device's multiply-add rate for T (float or double) as Vulkan shaders reach it, for nxv-bench's roofline rows:
// each invocation runs 8 independent chains of ITERATIONS fmas in registers (2 flops each) and stores their sum,
// so that nothing is optimised away and no memory traffic counts. STEP=precise_fma writes each step as the dot
// kernels' fast mode does (a `precise` fma), STEP=precise_mul_add as their exact mode (a `precise` product, then a
// `precise` sum): what those decorations cost on the device.
#version 450
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 256) in;
layout(constant_id = 0) const int ITERATIONS = 1024;
layout(binding = 0) writeonly buffer Out { T y[]; };
layout(push_constant) uniform Push { float scale, offset; } pc;
void main() {
  const T x = T(pc.scale), c = T(pc.offset);
  T a[8];
  [[unroll]] for (int i = 0; i < 8; ++i) a[i] = T(gl_GlobalInvocationID.x + uint(i)) * T(1e-6);
  for (int it = 0; it < ITERATIONS; ++it)
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
  y[gl_GlobalInvocationID.x] = ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
}
