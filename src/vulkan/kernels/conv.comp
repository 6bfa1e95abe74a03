// OpCode::conv as an implicit GEMM per group, register-blocked: rows are the group's output channels, columns
// the (output batch, output position) pairs, and the contraction runs over k = input channel * kernel_size +
// kernel position. The im2col matrix is never stored: each invocation gathers its columns' input values for
// one k (zeros at padding and input-dilation holes) and multiplies them with RM kernel values, so every load
// feeds RM x RN products. Spatial axes are padded to 3 (leading size 1).
// Workgroups of 64 invocations; an invocation owns RM consecutive output channels x RN columns 64 apart (so
// at each step the lanes of a workgroup read neighbouring input elements, and all read the same kernel values).
// Measured on lavapipe (LeNet's five forward and backward convs, CPU time): 3-7x less than a shared-memory
// tiled GEMM (16-deep slabs, 8-64 x 128 tiles), whose barriers and shared-memory gathers cost more there than
// the global loads they save; 2-5x less than one invocation per output.
// Every output follows src/reference/conv.cpp's order (include/nxv/conv.hpp): the k = 0, 1, ..., K - 1 sequence
// in chunks of CHUNK terms, each chunk summed serially from 0 (acc = acc + x * w, `precise`, so the product and
// the sum are rounded separately: NoContraction), then the chunk sums added in order (for K <= CHUNK, one chunk).
// SPLIT = 1 (the host's choice wherever there is more than one chunk): workgroup z = group * chunks + chunk
// computes one chunk's sums into partials [chunks, outputs], which conv_combine.comp adds in chunk order.
// SPLIT = 0: an invocation runs all chunks of its outputs (one chunk, or partials too large to keep).
// FAST = 1 (Precision::fast): each term is one fma, acc = fma(x, w, acc), in the same order and chunks.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "lib/common.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const uint RM = 1;  // output channels per invocation (1..8)
layout(constant_id = 1) const uint RN = 4;  // columns per invocation (1 or 4)
layout(constant_id = 2) const uint CHUNK = 256;  // include/nxv/conv.hpp's kConvChunkTerms
layout(constant_id = 3) const bool SPLIT = false;
// Terms whose loads are issued before any of them is added (1..8): with few invocations per SM the loop is bound
// by load latency, and independent loads in flight hide it; the adds stay in k order.
layout(constant_id = 4) const uint KB = 1;
// Whether any input or kernel dilation differs from 1. Without, the dilation arithmetic drops out at pipeline
// creation: as registers it cost the 64 -> 64 3x3 layer 14% on the H200 (5.75 against 6.67 TFLOP/s).
layout(constant_id = 5) const bool DILATED = false;
layout(constant_id = 6) const bool FAST = false;

layout(std430, binding = 0) readonly buffer InX { A_STORE x_data[]; };
layout(std430, binding = 1) readonly buffer InW { A_STORE w_data[]; };
layout(std430, binding = 2) writeonly buffer Out { A_STORE y_data[]; };
layout(push_constant) uniform Push {
  uint batch_out;           // output batch (input batch / batch groups)
  uint channels;            // input channels C
  uint out_channels;        // O
  uint group_rows;          // output channels per group
  uint in_per_group;        // kernel input channels I
  uint group_channel_step;  // input channels skipped per group: I for feature groups, else 0
  uint group_batch_step;    // input batch elements skipped per group: batch_out for batch groups, else 0
  uint in_size[3];
  uint kernel[3];
  uint out_size[3];
  uint stride[3];
  int low[3];
  uint dilation[3];  // input dilation | kernel dilation << 16 (room for the fusion compiler's epilogue words)
  // @epilogue-push
} pc;
// @epilogue-code (the fusion compiler's copies put their epilogue here: src/vulkan/fusion/codegen.cpp)

uvec3 in_dilation, kernel_dilation;
ivec3 dilated;
bool holes;

// The input term (channel c, kernel position k0, k1, k2) of the column whose window starts at `origin` (in the
// dilated, padded input) and whose image starts at x_base: zero where the window reads padding or a hole.
A_T load_x(ivec3 origin, uint x_base, uint c, uint k0, uint k1, uint k2, uint in_spatial) {
  int q0 = origin.x + int(k0 * kernel_dilation.x);
  int q1 = origin.y + int(k1 * kernel_dilation.y);
  int q2 = origin.z + int(k2 * kernel_dilation.z);
  bool inside = q0 >= 0 && q0 < dilated.x && q1 >= 0 && q1 < dilated.y && q2 >= 0 && q2 < dilated.z;
  if (inside && holes) {
    inside = uint(q0) % in_dilation.x == 0u && uint(q1) % in_dilation.y == 0u && uint(q2) % in_dilation.z == 0u;
    q0 = int(uint(q0) / in_dilation.x);
    q1 = int(uint(q1) / in_dilation.y);
    q2 = int(uint(q2) / in_dilation.z);
  }
  uint at = x_base + c * in_spatial + (uint(q0) * pc.in_size[1] + uint(q1)) * pc.in_size[2] + uint(q2);
  return inside ? A_LOAD(x_data[at]) : A_T(0);
}

void main() {
  uint kernel_size = pc.kernel[0] * pc.kernel[1] * pc.kernel[2];
  uint k_total = pc.in_per_group * kernel_size;
  uint chunks = SPLIT ? (k_total + CHUNK - 1u) / CHUNK : 1u;
  uint group = gl_WorkGroupID.z / chunks;
  uint chunk = gl_WorkGroupID.z % chunks;
  uint row0 = gl_WorkGroupID.y * RM;
  uint col0 = gl_WorkGroupID.x * 64u * RN + gl_LocalInvocationID.x;
  uint in_spatial = pc.in_size[0] * pc.in_size[1] * pc.in_size[2];
  uint out_spatial = pc.out_size[0] * pc.out_size[1] * pc.out_size[2];
  uint cols = pc.batch_out * out_spatial;
  uint o_base = group * pc.group_rows;
  // Scalars, not arrays filled in a loop: an array the driver cannot keep in registers is read from local memory
  // on every term.
  in_dilation = DILATED ? uvec3(pc.dilation[0] & 0xffffu, pc.dilation[1] & 0xffffu, pc.dilation[2] & 0xffffu)
                        : uvec3(1u);
  kernel_dilation = DILATED ? uvec3(pc.dilation[0] >> 16, pc.dilation[1] >> 16, pc.dilation[2] >> 16) : uvec3(1u);
  dilated = ivec3((uvec3(pc.in_size[0], pc.in_size[1], pc.in_size[2]) - 1u) * in_dilation + 1u);
  holes = in_dilation != uvec3(1u);

  // Each column's window origin in the dilated, padded input and its input offset (columns past the end
  // repeat the last one and are not stored).
  ivec3 origin[4];
  uint x_base[4];
  for (uint j = 0u; j < RN; ++j) {
    uint col = min(col0 + j * 64u, cols - 1u);
    uint n = col / out_spatial;
    uint p = col % out_spatial;
    origin[j].z = int((p % pc.out_size[2]) * pc.stride[2]) - pc.low[2];
    origin[j].y = int(((p / pc.out_size[2]) % pc.out_size[1]) * pc.stride[1]) - pc.low[1];
    origin[j].x = int((p / (pc.out_size[2] * pc.out_size[1])) * pc.stride[0]) - pc.low[0];
    x_base[j] = ((group * pc.group_batch_step + n) * pc.channels + group * pc.group_channel_step) * in_spatial;
  }
  uint w_base[8];
  for (uint i = 0u; i < RM; ++i) w_base[i] = (o_base + min(row0 + i, pc.group_rows - 1u)) * k_total;

  A_T acc[8][4];    // the current chunk's sums
  A_T total[8][4];  // the sum of the finished chunks
  for (uint i = 0u; i < RM; ++i)
    for (uint j = 0u; j < RN; ++j) acc[i][j] = total[i][j] = A_T(0);

  uint k_begin = SPLIT ? chunk * CHUNK : 0u;
  uint k_end = SPLIT ? min(k_total, k_begin + CHUNK) : k_total;
  // (c, k0, k1, k2): k_begin's input channel and kernel position, then advanced like an odometer.
  uint c = k_begin / kernel_size;
  uint position = k_begin % kernel_size;
  uint k2 = position % pc.kernel[2];
  uint k1 = (position / pc.kernel[2]) % pc.kernel[1];
  uint k0 = position / (pc.kernel[2] * pc.kernel[1]);
#define NXV_NEXT_TERM()         \
  if (++k2 == pc.kernel[2]) {   \
    k2 = 0u;                    \
    if (++k1 == pc.kernel[1]) { \
      k1 = 0u;                  \
      if (++k0 == pc.kernel[0]) { \
        k0 = 0u;                \
        ++c;                    \
      }                         \
    }                           \
  }
// One term into an accumulator: a rounded product then a rounded sum (NoContraction), or in FAST one fma.
#define NXV_ADD_TERM(ACC, X, W)                \
  if (FAST) {                                  \
    precise A_T fused = fma(X, W, ACC);        \
    ACC = fused;                               \
  } else {                                     \
    precise A_T product = (X) * (W);           \
    precise A_T sum = ACC + product;           \
    ACC = sum;                                 \
  }
#define NXV_CHUNK_BOUNDARY(term)                                  \
  if (!SPLIT && term != 0u && term % CHUNK == 0u)                 \
    for (uint i = 0u; i < RM; ++i)                                \
      for (uint j = 0u; j < RN; ++j) {                            \
        precise A_T sum = total[i][j] + acc[i][j];                \
        total[i][j] = term == CHUNK ? acc[i][j] : sum;            \
        acc[i][j] = A_T(0);                                       \
      }
  if (KB == 1u) {
    // One term at a time, each weight read where it is used: the many-output convs (a layer's forward pass).
    // The batched loop below with KB = 1 ran a 64 -> 64 3x3 layer at a third of this speed on the H200.
    for (uint k = k_begin; k < k_end; ++k) {
      NXV_CHUNK_BOUNDARY(k)
      A_T xv[4];
      for (uint j = 0u; j < RN; ++j) xv[j] = load_x(origin[j], x_base[j], c, k0, k1, k2, in_spatial);
      for (uint i = 0u; i < RM; ++i) {
        A_T wv = A_LOAD(w_data[w_base[i] + k]);
        for (uint j = 0u; j < RN; ++j) NXV_ADD_TERM(acc[i][j], xv[j], wv)
      }
      NXV_NEXT_TERM()
    }
  } else {
    for (uint k = k_begin; k < k_end; k += KB) {
      A_T xv[KB][4];
      A_T wv[KB][8];
      [[unroll]] for (uint t = 0u; t < KB; ++t) {
        if (k + t >= k_end) break;
        for (uint j = 0u; j < RN; ++j) xv[t][j] = load_x(origin[j], x_base[j], c, k0, k1, k2, in_spatial);
        for (uint i = 0u; i < RM; ++i) wv[t][i] = A_LOAD(w_data[w_base[i] + k + t]);
        NXV_NEXT_TERM()
      }
      [[unroll]] for (uint t = 0u; t < KB; ++t) {
        uint term = k + t;
        if (term >= k_end) break;
        NXV_CHUNK_BOUNDARY(term)
        for (uint i = 0u; i < RM; ++i)
          for (uint j = 0u; j < RN; ++j) NXV_ADD_TERM(acc[i][j], xv[t][j], wv[t][i])
      }
    }
  }
  if (!SPLIT && k_total > CHUNK)
    for (uint i = 0u; i < RM; ++i)
      for (uint j = 0u; j < RN; ++j) {
        precise A_T sum = total[i][j] + acc[i][j];
        acc[i][j] = sum;
      }

  // SPLIT: this chunk's block of the partials.
  uint y_offset = chunk * pc.batch_out * pc.out_channels * out_spatial;
  for (uint i = 0u; i < RM; ++i) {
    uint row = row0 + i;
    if (row >= pc.group_rows) continue;
    for (uint j = 0u; j < RN; ++j) {
      uint col = col0 + j * 64u;
      if (col >= cols) continue;
      uint at = y_offset + ((col / out_spatial) * pc.out_channels + o_base + row) * out_spatial + col % out_spatial;
      y_data[at] = A_PACK(acc[i][j]);
#ifdef NXV_EPILOGUE
      if (!SPLIT) nxv_epilogue(at, acc[i][j]);
#endif
    }
  }
}
