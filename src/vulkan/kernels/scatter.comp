// OpCode::indexed_add and OpCode::indexed_put without atomics, in the order reference/indexing_ops.cpp defines:
// per target element, x and then its updates in increasing update index. Two variants of this file:
//  KEYS:  key[b] = the row (over x's leading k axes) that update b writes, or INT64_MAX when a coordinate is out
//         of range (the update is dropped). The host then sorts (key, b) stably (sort.comp), which groups the
//         updates by row and keeps each group in increasing b.
//  APPLY: one invocation per element (row, w) of x viewed as [rows, window]: a binary search finds the row's group
//         in the sorted keys, then acc = x; acc = acc + u (FN 0, add) or acc = u (FN 1, put) over the group.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"

layout(local_size_x = NXV_GROUP_SIZE) in;

#ifdef KEYS
#include "lib/index.glsl"
layout(std430, binding = 0) readonly buffer Indices { IDX_STORE idx_data[]; };
layout(std430, binding = 1) writeonly buffer Keys { int64_t key_data[]; };
layout(push_constant) uniform Push {
  uint n;  // updates
  uint k;
  uint dims[8];
} pc;

void main() {
  uint b = nxv_linear_index();
  if (b >= pc.n) return;
  int64_t row = int64_t(0);
  bool inside = true;
  for (uint d = 0u; d < pc.k; ++d) {
    IDX_STORE c = idx_data[b * pc.k + d];
    inside = inside && nxv_index_inside(c, pc.dims[d]);
    row = row * int64_t(pc.dims[d]) + (inside ? int64_t(c) : int64_t(0));
  }
  key_data[b] = inside ? row : int64_t(0x7fffffffffffffffl);
}

#else
layout(constant_id = 0) const int FN = 0;  // 0 add, 1 put
layout(std430, binding = 0) readonly buffer In { A_STORE x_data[]; };
layout(std430, binding = 1) readonly buffer Updates { A_STORE u_data[]; };
layout(std430, binding = 2) readonly buffer Keys { int64_t key_data[]; };   // sorted
layout(std430, binding = 3) readonly buffer Order { int64_t order_data[]; };  // update index of each sorted key
layout(std430, binding = 4) writeonly buffer Out { A_STORE y_data[]; };
layout(push_constant) uniform Push {
  uint total;   // elements of x
  uint window;  // >= 1 when total > 0
  uint n;       // updates
} pc;

void main() {
  uint t = nxv_linear_index();
  if (t >= pc.total) return;
  int64_t row = int64_t(t / pc.window);
  uint w = t % pc.window;
  uint lo = 0u;
  uint hi = pc.n;
  while (lo < hi) {  // the first sorted key >= row
    uint mid = lo + (hi - lo) / 2u;
    if (key_data[mid] < row) lo = mid + 1u;
    else hi = mid;
  }
  A_T acc = A_LOAD(x_data[t]);
  for (uint p = lo; p < pc.n && key_data[p] == row; ++p) {
    A_T u = A_LOAD(u_data[uint(order_data[p]) * pc.window + w]);
    precise A_T r = FN == 0 ? acc + u : u;
    acc = r;
  }
  y_data[t] = A_PACK(acc);
}
#endif
