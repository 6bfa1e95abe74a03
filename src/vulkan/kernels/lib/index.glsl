// Index tensors of the indexing kernels, s32 (IDX_S32) or s64 (IDX_S64), clamped (reads) or range-checked
// (writes) in their own width (include/nxv/indexing.hpp defines the out-of-range rules). s32 indices are never
// widened before the test: lavapipe compiled `int64_t(i) >= 0` on an int i = -1 to true.
#ifndef NXV_LIB_INDEX_GLSL
#define NXV_LIB_INDEX_GLSL
#if defined(IDX_S32)
#define IDX_STORE int
// i clamped into [0, n - 1] (n >= 1).
uint nxv_clamp_index(int i, uint n) { return i < 0 ? 0u : min(uint(i), n - 1u); }
bool nxv_index_inside(int i, uint n) { return i >= 0 && uint(i) < n; }
#else
// s64 indices as their two 32-bit words (low, high: the same 8 bytes, std430 stride 8), so that the indexing kernels
// need no shaderInt64: negative where the high word's sign bit is set, past any n < 2^32 where it is otherwise nonzero.
#define IDX_STORE uvec2
uint nxv_clamp_index(uvec2 i, uint n) { return int(i.y) < 0 ? 0u : i.y != 0u ? n - 1u : min(i.x, n - 1u); }
bool nxv_index_inside(uvec2 i, uint n) { return i.y == 0u && i.x < n; }
#endif
#endif
