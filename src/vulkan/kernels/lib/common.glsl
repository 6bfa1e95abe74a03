// Common GLSL of the kernels: extensions, the grid index, and per-dtype helpers.
//
// Each variant is compiled with its types as defines (src/vulkan/kernels/kernels.cmake, nxv_type_defines): for a prefix P
// (A, B, OUT, ...) P_STORE is the buffer element type (uint8_t for pred/u8), P_T the compute type of
// shared/elementwise.def (uint, int, int64_t, uint64_t, float, double), P_IS_FLOAT / P_IS_INT / P_IS_UINT its kind
// and P_BITS its width in memory. P_LOAD(x) reads a P_STORE element as P_T and P_PACK(x) writes a P_T value as a
// P_STORE element: plain conversions, but for f16 and bf16, which sit in uint16_t and convert by lib/half.glsl.
// The includer starts with `#version 450` and enables GL_GOOGLE_include_directive.
#ifndef NXV_LIB_COMMON_GLSL
#define NXV_LIB_COMMON_GLSL
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
#include "lib/half.glsl"

// f32 denormals: NVIDIA flushes them to zero by default, so on an H200 x != 0, x * y and f32 -> f64 can differ from
// the reference on denormal inputs. SPIR-V DenormPreserve would fix that, but only where the device reports
// shaderDenormPreserveFloat32 (lavapipe does not, and the validation layer rejects every module that asks), so it
// needs a per-device shader variant: not done yet, a known gap.

// Elementwise kernels run NXV_GROUP_SIZE invocations per workgroup on a 2-D grid: maxComputeWorkGroupCount[0] may
// be 65535, so the host spreads the groups over x and y (src/vulkan/kernels/layout.hpp) and a shader computes the
// linear group x + y * numX. A constant rather than gl_WorkGroupSize: glslang binds gl_WorkGroupSize where a
// function is defined, which is before the includer's local_size declaration (it read 1 here). 128: Vulkan's minimum
// maxComputeWorkGroupInvocations, so that every device runs them (kernels whose order is defined over 256 lanes,
// like reduce.comp's, give each invocation two).
#define NXV_GROUP_SIZE 128u
uint nxv_linear_group() { return gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x; }
uint nxv_linear_index() { return nxv_linear_group() * NXV_GROUP_SIZE + gl_LocalInvocationID.x; }

// Vectors of four buffer elements, for the vectorised paths of the contiguous kernels (unary, binary, reduce):
// A_VEC4 / OUT_VEC4 hold four A_STORE / OUT_STORE elements, one 4..32-byte load or store. Where a block of them
// aliases a block of scalars its index is the scalar index / 4; buffers start at least 64-byte aligned (the
// allocator's sub-allocation offsets are multiples of 64 bytes), so every such vector is naturally aligned.
#if defined(A_F32)
#define A_VEC4 vec4
#elif defined(A_F64)
#define A_VEC4 dvec4
#elif defined(A_S32)
#define A_VEC4 ivec4
#elif defined(A_S64)
#define A_VEC4 i64vec4
#elif defined(A_U8) || defined(A_PRED)
#define A_VEC4 u8vec4
#elif defined(A_S8)
#define A_VEC4 i8vec4
#elif defined(A_S16)
#define A_VEC4 i16vec4
#elif defined(A_U16)
#define A_VEC4 u16vec4
#elif defined(A_U32)
#define A_VEC4 uvec4
#elif defined(A_U64)
#define A_VEC4 u64vec4
#elif defined(A_F16) || defined(A_BF16)
#define A_VEC4 u16vec4
#endif
#if defined(OUT_F32)
#define OUT_VEC4 vec4
#elif defined(OUT_F64)
#define OUT_VEC4 dvec4
#elif defined(OUT_S32)
#define OUT_VEC4 ivec4
#elif defined(OUT_S64)
#define OUT_VEC4 i64vec4
#elif defined(OUT_U8) || defined(OUT_PRED)
#define OUT_VEC4 u8vec4
#elif defined(OUT_S8)
#define OUT_VEC4 i8vec4
#elif defined(OUT_S16)
#define OUT_VEC4 i16vec4
#elif defined(OUT_U16)
#define OUT_VEC4 u16vec4
#elif defined(OUT_U32)
#define OUT_VEC4 uvec4
#elif defined(OUT_U64)
#define OUT_VEC4 u64vec4
#elif defined(OUT_F16) || defined(OUT_BF16)
#define OUT_VEC4 u16vec4
#endif

#if defined(A_F16)
#define A_LOAD(x) nxv_f16_to_float(x)
#define A_PACK(x) nxv_f16_from_float(x)
#elif defined(A_BF16)
#define A_LOAD(x) nxv_bf16_to_float(x)
#define A_PACK(x) nxv_bf16_from_float(x)
#else
#define A_LOAD(x) A_T(x)
#define A_PACK(x) A_STORE(x)
#endif
#if defined(OUT_F16)
#define OUT_LOAD(x) nxv_f16_to_float(x)
#define OUT_PACK(x) nxv_f16_from_float(x)
#elif defined(OUT_BF16)
#define OUT_LOAD(x) nxv_bf16_to_float(x)
#define OUT_PACK(x) nxv_bf16_from_float(x)
#else
#define OUT_LOAD(x) OUT_T(x)
#define OUT_PACK(x) OUT_STORE(x)
#endif

// P_LOWEST / P_HIGHEST: the range of an integer dtype, as constants of its compute type (the identities of max and
// min; pred and u8 share the u8 variant, whose highest value the reductions take as a specialization constant).
#if defined(A_S8)
#define A_LOWEST (-128)
#define A_HIGHEST 127
#elif defined(A_S16)
#define A_LOWEST (-32768)
#define A_HIGHEST 32767
#elif defined(A_S32)
#define A_LOWEST int(0x80000000u)
#define A_HIGHEST 0x7fffffff
#elif defined(A_S64)
#define A_LOWEST int64_t(0x8000000000000000ul)
#define A_HIGHEST int64_t(0x7fffffffffffffffl)
#elif defined(A_U8)
#define A_LOWEST 0u
#define A_HIGHEST 255u
#elif defined(A_U16)
#define A_LOWEST 0u
#define A_HIGHEST 65535u
#elif defined(A_U32)
#define A_LOWEST 0u
#define A_HIGHEST 0xffffffffu
#elif defined(A_U64)
#define A_LOWEST uint64_t(0)
#define A_HIGHEST (~uint64_t(0))
#endif
#if defined(OUT_S8)
#define OUT_LOWEST (-128)
#define OUT_HIGHEST 127
#elif defined(OUT_S16)
#define OUT_LOWEST (-32768)
#define OUT_HIGHEST 32767
#elif defined(OUT_S32)
#define OUT_LOWEST int(0x80000000u)
#define OUT_HIGHEST 0x7fffffff
#elif defined(OUT_S64)
#define OUT_LOWEST int64_t(0x8000000000000000ul)
#define OUT_HIGHEST int64_t(0x7fffffffffffffffl)
#elif defined(OUT_U8)
#define OUT_LOWEST 0u
#define OUT_HIGHEST 255u
#elif defined(OUT_U16)
#define OUT_LOWEST 0u
#define OUT_HIGHEST 65535u
#elif defined(OUT_U32)
#define OUT_LOWEST 0u
#define OUT_HIGHEST 0xffffffffu
#elif defined(OUT_U64)
#define OUT_LOWEST uint64_t(0)
#define OUT_HIGHEST (~uint64_t(0))
#endif

bool nxv_nan(uint x) { return false; }
bool nxv_nan(int x) { return false; }
bool nxv_nan(int64_t x) { return false; }
bool nxv_nan(uint64_t x) { return false; }
bool nxv_nan(float x) { return isnan(x); }
bool nxv_nan(double x) { return isnan(x); }

// x != 0 with NaN counting as nonzero, whatever comparison opcode a compiler picks for `!=`.
uint nxv_nonzero(uint x) { return x == 0u ? 0u : 1u; }
uint nxv_nonzero(int x) { return x == 0 ? 0u : 1u; }
uint nxv_nonzero(int64_t x) { return x == int64_t(0) ? 0u : 1u; }
uint nxv_nonzero(uint64_t x) { return x == uint64_t(0) ? 0u : 1u; }
uint nxv_nonzero(float x) { return x == 0.0 ? 0u : 1u; }
uint nxv_nonzero(double x) { return x == 0.0lf ? 0u : 1u; }

#endif
