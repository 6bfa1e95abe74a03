// Broadcast indexing of the elementwise kernels with several inputs (binary, select, clip).
//
// The host collapses the output shape (src/vulkan/kernels/layout.cpp) and classifies every input, through the
// specialization constant KIND_<n>, as contiguous (its index is the output index), a single element (index 0)
// or strided: stride[d] per output axis d, 0 along broadcast axes. Only the strided case divides.
#ifndef NXV_LIB_BROADCAST_GLSL
#define NXV_LIB_BROADCAST_GLSL
#define NXV_CONTIGUOUS 0
#define NXV_SCALAR 1
#define NXV_STRIDED 2

// The output coordinate of axis d of linear index i (row-major over `rank` axes); used by the strided
// offset below one axis at a time, from the innermost outwards.
#define NXV_BROADCAST_OFFSETS(i, rank, shape, KIND0, stride0, o0, KIND1, stride1, o1, KIND2, stride2, o2) \
  {                                                                                                        \
    o0 = KIND0 == NXV_CONTIGUOUS ? i : 0u;                                                                 \
    o1 = KIND1 == NXV_CONTIGUOUS ? i : 0u;                                                                 \
    o2 = KIND2 == NXV_CONTIGUOUS ? i : 0u;                                                                 \
    if (KIND0 == NXV_STRIDED || KIND1 == NXV_STRIDED || KIND2 == NXV_STRIDED) {                            \
      uint rest = i;                                                                                       \
      for (int d = int(rank) - 1; d >= 0; --d) {                                                           \
        uint c = rest % shape[d];                                                                          \
        rest = rest / shape[d];                                                                            \
        if (KIND0 == NXV_STRIDED) o0 += c * stride0[d];                                                    \
        if (KIND1 == NXV_STRIDED) o1 += c * stride1[d];                                                    \
        if (KIND2 == NXV_STRIDED) o2 += c * stride2[d];                                                    \
      }                                                                                                    \
    }                                                                                                      \
  }
#endif
