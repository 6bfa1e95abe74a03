// OpCode::sort and OpCode::argsort on contiguous lines [lines, n] (the host moves the sorted axis last), giving
// the sorted values and the s64 input positions. Stability comes from the order itself: element (value, position)
// sorts before another when its value does (NaN above every number, DESC reverses), or on equal values (-0.0 and
// +0.0 are equal, NaNs are equal) when its position is smaller. That order is total, so any sorting network gives
// the one stable result reference/sort.cpp computes with std::stable_sort. Two variants of this file:
//  TILE:  one workgroup per tile of TILE_SIZE (a power of two <= 1024) elements of a line: a bitonic sort in
//         shared memory (12 KiB for f64, under Vulkan's 16 KiB minimum).
//  MERGE: merges neighbouring sorted runs of `width` elements into runs of 2 * width: each element's output
//         position is its offset in its run plus the number of elements of the other run that sort before it
//         (a binary search). The host repeats it, doubling width, until one run covers the line.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"

layout(local_size_x = NXV_GROUP_SIZE) in;
layout(constant_id = 0) const int DESC = 0;
#define NONE 0xffffffffu

// Whether (a at position ia) sorts strictly before (b at position ib); NONE marks the padding of a tile.
bool before(A_T a, uint ia, A_T b, uint ib) {
  if (ia == NONE) return false;
  if (ib == NONE) return true;
  bool an = nxv_nan(a);
  bool bn = nxv_nan(b);
  if (an != bn) return DESC == 1 ? an : bn;
  if (!an && a != b) return DESC == 1 ? a > b : a < b;
  return ia < ib;
}

#ifdef TILE
layout(std430, binding = 0) readonly buffer In { A_STORE x_data[]; };
layout(std430, binding = 1) writeonly buffer Values { A_STORE v_data[]; };
// Positions (s64) as (low, high) word pairs: below 2^32, and the kernel then needs no shaderInt64.
layout(std430, binding = 2) writeonly buffer Positions { uvec2 p_data[]; };
layout(push_constant) uniform Push {
  uint lines;
  uint n;
  uint tiles;  // per line
  uint tile;   // elements per tile: a power of two <= 1024
} pc;

shared A_T values[1024];
shared uint positions[1024];

void main() {
  uint g = nxv_linear_group();
  if (g >= pc.lines * pc.tiles) return;  // whole workgroups only
  uint lane = gl_LocalInvocationID.x;
  uint line = g / pc.tiles;
  uint first = (g % pc.tiles) * pc.tile;
  uint m = min(pc.tile, pc.n - first);
  uint base = line * pc.n + first;
  for (uint e = lane; e < pc.tile; e += NXV_GROUP_SIZE) {
    if (e < m) {
      values[e] = A_LOAD(x_data[base + e]);
      positions[e] = first + e;
    } else {
      values[e] = A_T(0);
      positions[e] = NONE;
    }
  }
  barrier();
  for (uint k = 2u; k <= pc.tile; k <<= 1) {
    for (uint j = k >> 1; j > 0u; j >>= 1) {
      for (uint p = lane; p < pc.tile / 2u; p += NXV_GROUP_SIZE) {
        uint i = (p / j) * 2u * j + p % j;
        uint l = i + j;
        bool swap = (i & k) == 0u ? before(values[l], positions[l], values[i], positions[i])
                                  : before(values[i], positions[i], values[l], positions[l]);
        if (swap) {
          A_T v = values[i];
          values[i] = values[l];
          values[l] = v;
          uint q = positions[i];
          positions[i] = positions[l];
          positions[l] = q;
        }
      }
      barrier();
    }
  }
  for (uint e = lane; e < m; e += NXV_GROUP_SIZE) {
    v_data[base + e] = A_PACK(values[e]);
    p_data[base + e] = uvec2(positions[e], 0u);
  }
}

#else  // MERGE
layout(std430, binding = 0) readonly buffer InValues { A_STORE vi_data[]; };
layout(std430, binding = 1) readonly buffer InPositions { uvec2 pi_data[]; };
layout(std430, binding = 2) writeonly buffer OutValues { A_STORE vo_data[]; };
layout(std430, binding = 3) writeonly buffer OutPositions { uvec2 po_data[]; };
layout(push_constant) uniform Push {
  uint total;  // lines * n
  uint n;
  uint width;  // of the sorted runs read
} pc;

void main() {
  uint i = nxv_linear_index();
  if (i >= pc.total) return;
  uint line_base = (i / pc.n) * pc.n;
  uint pos = i % pc.n;
  uint run = pos / pc.width;
  uint pair = (run / 2u) * 2u * pc.width;
  A_T v = A_LOAD(vi_data[i]);
  uint q = pi_data[i].x;
  uint offset;
  uint other;
  uint len;
  if (run % 2u == 0u) {
    offset = pos - pair;
    other = pair + pc.width;
    len = other < pc.n ? min(pc.width, pc.n - other) : 0u;
  } else {
    offset = pos - pair - pc.width;
    other = pair;
    len = pc.width;
  }
  uint lo = 0u;
  uint hi = len;
  while (lo < hi) {  // how many elements of the other run sort before this one
    uint mid = lo + (hi - lo) / 2u;
    uint at = line_base + other + mid;
    if (before(A_LOAD(vi_data[at]), pi_data[at].x, v, q)) lo = mid + 1u;
    else hi = mid;
  }
  uint out_at = line_base + pair + offset + lo;
  vo_data[out_at] = A_PACK(v);
  po_data[out_at] = uvec2(q, 0u);
}
#endif
