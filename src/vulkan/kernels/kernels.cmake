# The kernels of the Vulkan backend (src/vulkan/kernels/), one nxv_shader() per variant.
# Variants are named <family>_<variant>, the variant column of src/shared/dtypes.def: pred shares the u8 variant,
# both computing in uint on one byte (read in C++ by layout.cpp's variant_name()). Op ids, layouts and the
# reduction function are specialization constants, so each variant serves many ops.

# The dtypes, read from the rows of src/shared/dtypes.def (configure re-runs when it changes):
#   NXV_ALL_DTYPES        every dtype, in the table's order
#   NXV_NUMERIC_VARIANTS  every shader variant (the `variant` column without repeats: pred shares u8's)
#   NXV_GLSL_<dtype>      its glsl_store;glsl_compute;glsl_kind;bits (8 x bytes), for nxv_type_defines
set(NXV_DTYPES_DEF ${PROJECT_SOURCE_DIR}/src/shared/dtypes.def)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${NXV_DTYPES_DEF})
file(STRINGS ${NXV_DTYPES_DEF} nxv_dtype_rows REGEX "^NXV_DTYPE\\(")
if(NOT nxv_dtype_rows)
  message(FATAL_ERROR "${NXV_DTYPES_DEF}: no NXV_DTYPE rows")
endif()
set(NXV_ALL_DTYPES "")
set(NXV_NUMERIC_VARIANTS "")
# NXV_DTYPE(name, bytes, kind, bits, value, storage, compute, glsl_store, glsl_compute, glsl_kind, variant). CMake's
# regexes keep 9 groups at most and have no non-capturing ones: only the columns read here are captured.
set(nxv_any " *[^, ]+,")
set(nxv_word " *([A-Za-z0-9_]+)")
string(CONCAT nxv_dtype_row "^NXV_DTYPE\\(${nxv_word}, *([0-9]+),${nxv_any}${nxv_any}${nxv_any}${nxv_any}${nxv_any}"
       "${nxv_word},${nxv_word}, *(FLOAT|INT|UINT),${nxv_word}\\)$")
foreach(row IN LISTS nxv_dtype_rows)
  if(NOT row MATCHES "${nxv_dtype_row}")
    message(FATAL_ERROR "${NXV_DTYPES_DEF}: a row not of the form the file's header describes:\n  ${row}")
  endif()
  list(APPEND NXV_ALL_DTYPES ${CMAKE_MATCH_1})
  math(EXPR nxv_bits "${CMAKE_MATCH_2} * 8")
  set(NXV_GLSL_${CMAKE_MATCH_1} ${CMAKE_MATCH_3} ${CMAKE_MATCH_4} ${CMAKE_MATCH_5} ${nxv_bits})
  list(APPEND NXV_NUMERIC_VARIANTS ${CMAKE_MATCH_6})
endforeach()
list(REMOVE_DUPLICATES NXV_NUMERIC_VARIANTS)
foreach(variant IN LISTS NXV_NUMERIC_VARIANTS)  # a variant is compiled with the types of the dtype it is named after
  if(NOT variant IN_LIST NXV_ALL_DTYPES)
    message(FATAL_ERROR "${NXV_DTYPES_DEF}: the variant ${variant} is not the name of a dtype")
  endif()
endforeach()

# <prefix>_STORE (buffer element type), <prefix>_T (compute type), <prefix>_IS_FLOAT|INT|UINT, <prefix>_BITS and
# <prefix>_<DTYPE> for one dtype; see src/vulkan/kernels/lib/common.glsl.
function(nxv_type_defines out prefix dtype)
  if(NOT DEFINED NXV_GLSL_${dtype})
    message(FATAL_ERROR "nxv_type_defines: unknown dtype ${dtype} (not a row of ${NXV_DTYPES_DEF})")
  endif()
  list(GET NXV_GLSL_${dtype} 0 store)
  list(GET NXV_GLSL_${dtype} 1 compute)
  list(GET NXV_GLSL_${dtype} 2 kind)
  list(GET NXV_GLSL_${dtype} 3 bits)
  string(TOUPPER ${dtype} upper)
  set(${out} ${prefix}_STORE=${store} ${prefix}_T=${compute} ${prefix}_IS_${kind}=1 ${prefix}_${upper}=1
      ${prefix}_BITS=${bits} PARENT_SCOPE)
endfunction()

foreach(t IN LISTS NXV_NUMERIC_VARIANTS)
  nxv_type_defines(a A ${t})
  nxv_type_defines(same OUT ${t})
  nxv_type_defines(pred OUT pred)
  nxv_shader(NAME unary_${t} SOURCE unary.comp DEFINES ${a} ${same})
  nxv_shader(NAME unary_test_${t} SOURCE unary.comp DEFINES TEST ${a} ${pred})
  nxv_shader(NAME binary_${t} SOURCE binary.comp DEFINES ${a} ${same})
  nxv_shader(NAME binary_test_${t} SOURCE binary.comp DEFINES TEST ${a} ${pred})
  nxv_shader(NAME select_${t} SOURCE select.comp DEFINES SELECT ${a})
  nxv_shader(NAME clip_${t} SOURCE select.comp DEFINES CLIP ${a})
  nxv_shader(NAME reduce_${t} SOURCE reduce.comp DEFINES ${a} ${same})
  nxv_shader(NAME reduce_vec4_${t} SOURCE reduce.comp DEFINES VEC4 ${a} ${same})
  nxv_shader(NAME reduce_bool_${t} SOURCE reduce.comp DEFINES BOOL ${a} ${pred})
  nxv_shader(NAME arg_reduce_${t} SOURCE arg_reduce.comp DEFINES ${a})
  nxv_shader(NAME dot_${t} SOURCE dot.comp DEFINES ${a})
endforeach()

# f16 and bf16 reductions accumulate in f32: a reduction of more than one chunk writes f32 partials.
foreach(t f16 bf16)
  nxv_type_defines(a A ${t})
  nxv_type_defines(f32 OUT f32)
  nxv_shader(NAME reduce_${t}_to_f32 SOURCE reduce.comp DEFINES ${a} ${f32})
  nxv_shader(NAME reduce_vec4_${t}_to_f32 SOURCE reduce.comp DEFINES VEC4 ${a} ${f32})
endforeach()

# The register-blocked GEMM (dot_blocked.comp), f32 and f64: RM x RN outputs per invocation, slabs of TK.
# "big": 128 x 128 tiles (f32) / 128 x 64 (f64); "mid": 64 x 64 tiles. UNOPTIMIZED: their exact steps are
# `precise` inside unrolled loops (cmake/NxvShaders.cmake says why).
nxv_type_defines(a A f32)
nxv_shader(NAME dot_big_f32 SOURCE dot_blocked.comp UNOPTIMIZED DEFINES ${a} RM=8u RN=8u TK=16u)
nxv_shader(NAME dot_mid_f32 SOURCE dot_blocked.comp UNOPTIMIZED DEFINES ${a} RM=4u RN=4u TK=16u)
nxv_type_defines(a A f64)
nxv_shader(NAME dot_big_f64 SOURCE dot_blocked.comp UNOPTIMIZED DEFINES ${a} RM=8u RN=4u TK=16u)
nxv_shader(NAME dot_mid_f64 SOURCE dot_blocked.comp UNOPTIMIZED DEFINES ${a} RM=4u RN=4u TK=16u)
# f16 and bf16: loaded from 16 bits, tiled and accumulated in f32 (f32's tiles).
foreach(t f16 bf16)
  nxv_type_defines(a A ${t})
  nxv_shader(NAME dot_big_${t} SOURCE dot_blocked.comp UNOPTIMIZED DEFINES ${a} RM=8u RN=8u TK=16u)
  nxv_shader(NAME dot_mid_${t} SOURCE dot_blocked.comp UNOPTIMIZED DEFINES ${a} RM=4u RN=4u TK=16u)
endforeach()

# f16 on tensor cores (VK_NV_cooperative_matrix; created only on devices that have them).
nxv_type_defines(a A f16)
nxv_shader(NAME dot_tensor_f16 SOURCE dot_tensor.comp DEFINES ${a})

# cast: one variant per (source, destination) pair of distinct dtypes.
foreach(from IN LISTS NXV_ALL_DTYPES)
  foreach(to IN LISTS NXV_ALL_DTYPES)
    if(NOT from STREQUAL to)
      nxv_type_defines(a A ${from})
      nxv_type_defines(o OUT ${to})
      nxv_shader(NAME cast_${from}_${to} SOURCE cast.comp DEFINES ${a} ${o})
    endif()
  endforeach()
endforeach()

foreach(t IN LISTS NXV_ALL_DTYPES)
  nxv_type_defines(o OUT ${t})
  nxv_shader(NAME iota_${t} SOURCE iota.comp DEFINES ${o})
endforeach()

foreach(t f32 f64)
  nxv_type_defines(o OUT ${t})
  nxv_shader(NAME random_${t} SOURCE random.comp DEFINES ${o})
endforeach()

nxv_shader(NAME copy_many SOURCE copy_many.comp)

# Movement is byte moves: one variant per element size.
foreach(bytes 1 2 4 8)
  nxv_shader(NAME copy_${bytes} SOURCE copy.comp DEFINES ELEM_${bytes})
  nxv_shader(NAME fill_${bytes} SOURCE fill.comp DEFINES ELEM_${bytes})
endforeach()
