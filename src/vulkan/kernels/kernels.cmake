# The kernels of the Vulkan backend (src/vulkan/kernels/), one nxv_shader() per variant.
# Variants are named <family>_<dtype>; pred shares the u8 variant wherever both compute in uint on one byte
# (src/vulkan/kernels/layout.cpp, variant_name()). Op ids, layouts and the reduction function are
# specialization constants, so each variant serves many ops.

# <prefix>_STORE (buffer element type), <prefix>_T (compute type), <prefix>_IS_FLOAT|INT|UINT and
# <prefix>_<DTYPE> for one dtype; see src/vulkan/kernels/lib/common.glsl.
function(nxv_type_defines out prefix dtype)
  if(dtype STREQUAL "pred" OR dtype STREQUAL "u8")
    set(store uint8_t)
    set(compute uint)
    set(kind UINT)
  elseif(dtype STREQUAL "s32")
    set(store int)
    set(compute int)
    set(kind INT)
  elseif(dtype STREQUAL "s64")
    set(store int64_t)
    set(compute int64_t)
    set(kind INT)
  elseif(dtype STREQUAL "f32")
    set(store float)
    set(compute float)
    set(kind FLOAT)
  elseif(dtype STREQUAL "f64")
    set(store double)
    set(compute double)
    set(kind FLOAT)
  else()
    message(FATAL_ERROR "nxv_type_defines: unknown dtype ${dtype}")
  endif()
  string(TOUPPER ${dtype} upper)
  set(${out} ${prefix}_STORE=${store} ${prefix}_T=${compute} ${prefix}_IS_${kind}=1 ${prefix}_${upper}=1 PARENT_SCOPE)
endfunction()

set(NXV_NUMERIC_VARIANTS u8 s32 s64 f32 f64)
set(NXV_ALL_DTYPES pred u8 s32 s64 f32 f64)

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

# The register-blocked GEMM (dot_blocked.comp), f32 and f64: RM x RN outputs per invocation, slabs of TK.
# "big": 128 x 128 tiles (f32) / 128 x 64 (f64); "mid": 64 x 64 tiles.
nxv_type_defines(a A f32)
nxv_shader(NAME dot_big_f32 SOURCE dot_blocked.comp DEFINES ${a} RM=8u RN=8u TK=16u)
nxv_shader(NAME dot_mid_f32 SOURCE dot_blocked.comp DEFINES ${a} RM=4u RN=4u TK=16u)
nxv_type_defines(a A f64)
nxv_shader(NAME dot_big_f64 SOURCE dot_blocked.comp DEFINES ${a} RM=8u RN=4u TK=16u)
nxv_shader(NAME dot_mid_f64 SOURCE dot_blocked.comp DEFINES ${a} RM=4u RN=4u TK=16u)

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
foreach(bytes 1 4 8)
  nxv_shader(NAME copy_${bytes} SOURCE copy.comp DEFINES ELEM_${bytes})
  nxv_shader(NAME fill_${bytes} SOURCE fill.comp DEFINES ELEM_${bytes})
endforeach()
