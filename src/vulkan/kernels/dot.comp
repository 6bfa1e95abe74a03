// OpCode::dot as a batch of [M, K] x [K, N] products read through strides, so that every orientation of a
// and b (and batch axes) runs without a transpose. This is the `tiled` variant: every dtype, and floats below
// the size where the register-blocked dot_blocked.comp takes over (src/vulkan/kernels/dot.hpp). Tiles of 64 x 64 outputs per workgroup of 16 x 8
// invocations (128: Vulkan's minimum workgroup), each owning an 8 x 4 register block (rows ty + 8 i, columns
// tx + 16 j, so that the shared-memory reads of a warp are conflict-free and its stores coalesced); K advances in slabs of 16 through shared memory
// (16 KiB for f64: fits lavapipe's 32 KiB and NVIDIA's 48 KiB).
// Every output is acc = acc + a_k * b_k for k = 0, 1, ..., K-1 in order, the product and the sum each rounded
// (`precise`: never contracted into an fma; integers wrap),
// exactly the reference backend's loop; a partial last slab stops at K rather than adding padded zeros
// (0 * 0 + -0 would turn -0 into +0). With FAST = 1 (floats in Precision::fast, include/nxv/precision.hpp) each
// step is acc = fma(a_k, b_k, acc) in the same order: `precise` makes every such fma compute alike in every shader
// of the device (GLSL 4.60, 8.3), so this kernel, dot_blocked.comp and the fusion compiler's copies agree bit for bit.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"

layout(local_size_x = 16, local_size_y = 8) in;
// Which of the slab's axes consecutive invocations walk when loading: k where the operand is contiguous
// along k (a row-major a, a transposed b), else the free axis, so that global loads coalesce.
layout(constant_id = 0) const int A_ALONG_K = 1;
layout(constant_id = 1) const int B_ALONG_K = 0;
layout(constant_id = 2) const int FAST = 0;
#define TM 64u
#define TN 64u
#define TK 16u

layout(std430, binding = 0) readonly buffer InA { A_STORE a_data[]; };
layout(std430, binding = 1) readonly buffer InB { A_STORE b_data[]; };
layout(std430, binding = 2) writeonly buffer Out { A_STORE y_data[]; };
layout(push_constant) uniform Push {
  uint m, n, k;
  uint batch_base;  // the host splits more than 65535 batches over several dispatches
  uint a_batch, a_m, a_k;
  uint b_batch, b_k, b_n;
  // @epilogue-push
} pc;
// @epilogue-code (the fusion compiler's copies put their epilogue here: src/vulkan/fusion/codegen.cpp)


shared A_T a_tile[TK][TM];
shared A_T b_tile[TK][TN];

void main() {
  uint batch = pc.batch_base + gl_WorkGroupID.z;
  uint m0 = gl_WorkGroupID.y * TM;
  uint n0 = gl_WorkGroupID.x * TN;
  uint tx = gl_LocalInvocationID.x;
  uint ty = gl_LocalInvocationID.y;
  uint tid = ty * 16u + tx;
  uint a_base = batch * pc.a_batch;
  uint b_base = batch * pc.b_batch;

  A_T acc[8][4];
  for (uint i = 0u; i < 8u; ++i)
    for (uint j = 0u; j < 4u; ++j) acc[i][j] = A_T(0);

  for (uint k0 = 0u; k0 < pc.k; k0 += TK) {
    for (uint e = 0u; e < 8u; ++e) {
      uint idx = tid + e * 128u;
      uint kk = A_ALONG_K == 1 ? idx % TK : idx / TM;
      uint mm = A_ALONG_K == 1 ? idx / TK : idx % TM;
      bool inside = m0 + mm < pc.m && k0 + kk < pc.k;
      a_tile[kk][mm] = inside ? A_LOAD(a_data[a_base + (m0 + mm) * pc.a_m + (k0 + kk) * pc.a_k]) : A_T(0);
      kk = B_ALONG_K == 1 ? idx % TK : idx / TN;
      uint nn = B_ALONG_K == 1 ? idx / TK : idx % TN;
      inside = n0 + nn < pc.n && k0 + kk < pc.k;
      b_tile[kk][nn] = inside ? A_LOAD(b_data[b_base + (k0 + kk) * pc.b_k + (n0 + nn) * pc.b_n]) : A_T(0);
    }
    barrier();
    uint slab = min(TK, pc.k - k0);
    for (uint kk = 0u; kk < slab; ++kk) {
      A_T a[8];
      A_T b[4];
      for (uint i = 0u; i < 8u; ++i) a[i] = a_tile[kk][ty + 8u * i];
      for (uint j = 0u; j < 4u; ++j) b[j] = b_tile[kk][tx + 16u * j];
      for (uint i = 0u; i < 8u; ++i)
        for (uint j = 0u; j < 4u; ++j) {
          // Vulkan only guarantees correctly rounded multiplies and adds (fma may be split, as lavapipe does),
          // so the portable definition that every device reproduces bit for bit is a rounded product, then a
          // rounded sum.
#if defined(A_F32) || defined(A_F64)
          if (FAST == 1) {
            precise A_T r = fma(a[i], b[j], acc[i][j]);
            acc[i][j] = r;
            continue;
          }
#endif
          precise A_T r = acc[i][j] + a[i] * b[j];
          acc[i][j] = r;
        }
    }
    barrier();
  }

  uint y_base = batch * pc.m * pc.n;
  for (uint i = 0u; i < 8u; ++i) {
    uint row = m0 + ty + 8u * i;
    if (row >= pc.m) continue;
    for (uint j = 0u; j < 4u; ++j) {
      uint col = n0 + tx + 16u * j;
      if (col >= pc.n) continue;
      y_data[y_base + row * pc.n + col] = A_PACK(acc[i][j]);
#ifdef NXV_EPILOGUE
      nxv_epilogue(y_base + row * pc.n + col, acc[i][j]);
#endif
    }
  }
}
