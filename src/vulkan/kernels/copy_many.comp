// Up to 8 buffer-to-buffer copies in one dispatch (a compiled call's inputs into its recording's buffers and its
// outputs out of them, src/vulkan/kernels/copy_many.cpp): one dispatch instead of a transfer command per buffer.
// Whole 32-bit words: a buffer's descriptor range is its size rounded up to words (memory.hpp), so the last
// partial word stays inside both ranges. Workgroup row y copies pair y; unused pairs have 0 words.
#version 450

layout(local_size_x = 128) in;  // Vulkan's minimum maxComputeWorkGroupInvocations
layout(std430, binding = 0) readonly buffer S0 { uint s0[]; };
layout(std430, binding = 1) readonly buffer S1 { uint s1[]; };
layout(std430, binding = 2) readonly buffer S2 { uint s2[]; };
layout(std430, binding = 3) readonly buffer S3 { uint s3[]; };
layout(std430, binding = 4) readonly buffer S4 { uint s4[]; };
layout(std430, binding = 5) readonly buffer S5 { uint s5[]; };
layout(std430, binding = 6) readonly buffer S6 { uint s6[]; };
layout(std430, binding = 7) readonly buffer S7 { uint s7[]; };
layout(std430, binding = 8) writeonly buffer D0 { uint d0[]; };
layout(std430, binding = 9) writeonly buffer D1 { uint d1[]; };
layout(std430, binding = 10) writeonly buffer D2 { uint d2[]; };
layout(std430, binding = 11) writeonly buffer D3 { uint d3[]; };
layout(std430, binding = 12) writeonly buffer D4 { uint d4[]; };
layout(std430, binding = 13) writeonly buffer D5 { uint d5[]; };
layout(std430, binding = 14) writeonly buffer D6 { uint d6[]; };
layout(std430, binding = 15) writeonly buffer D7 { uint d7[]; };
layout(push_constant) uniform Push { uint words[8]; } pc;

void main() {
  uint pair = gl_WorkGroupID.y;
  uint n = pc.words[pair];
  uint step = gl_NumWorkGroups.x * 128u;
  for (uint i = gl_GlobalInvocationID.x; i < n; i += step) {
    switch (pair) {
      case 0u: d0[i] = s0[i]; break;
      case 1u: d1[i] = s1[i]; break;
      case 2u: d2[i] = s2[i]; break;
      case 3u: d3[i] = s3[i]; break;
      case 4u: d4[i] = s4[i]; break;
      case 5u: d5[i] = s5[i]; break;
      case 6u: d6[i] = s6[i]; break;
      default: d7[i] = s7[i]; break;
    }
  }
}
