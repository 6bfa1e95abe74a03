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
#define IDX_STORE int64_t
uint nxv_clamp_index(int64_t i, uint n) { return i < int64_t(0) ? 0u : uint(min(uint64_t(i), uint64_t(n - 1u))); }
bool nxv_index_inside(int64_t i, uint n) { return i >= int64_t(0) && uint64_t(i) < uint64_t(n); }
#endif
#endif
