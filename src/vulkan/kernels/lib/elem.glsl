// The element type of the byte-move kernels (take, gather, put_slice, copy-like): one variant per element size
// (ELEM_1, ELEM_2, ELEM_4, ELEM_8), whatever the dtype, since they move elements without computing on them.
#ifndef NXV_LIB_ELEM_GLSL
#define NXV_LIB_ELEM_GLSL
#if defined(ELEM_1)
#define E uint8_t
#elif defined(ELEM_2)
#define E uint16_t
#elif defined(ELEM_4)
#define E uint
#else
#define E uvec2
#endif
#endif
