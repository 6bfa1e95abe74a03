# Small shaders that only the runtime tests (tests/vulkan/runtime/) and nxv-bench run: dispatch, batching and
# memory probes, and the multiply-add peak that nxv-bench's roofline rows divide by.
nxv_shader(NAME test_add_scalar SOURCE probes/add_scalar.comp)
nxv_shader(NAME test_increment SOURCE probes/increment.comp)
nxv_shader(NAME test_fill_constant SOURCE probes/fill_constant.comp)
foreach(t f32 f64)
  set(type float)
  if(t STREQUAL f64)
    set(type double)
  endif()
  nxv_shader(NAME fma_peak_${t} SOURCE probes/fma_peak.comp UNOPTIMIZED DEFINES T=${type})
  nxv_shader(NAME fma_peak_precise_fma_${t} SOURCE probes/fma_peak.comp UNOPTIMIZED DEFINES T=${type} PRECISE_FMA)
  nxv_shader(NAME fma_peak_precise_mul_add_${t} SOURCE probes/fma_peak.comp UNOPTIMIZED DEFINES T=${type} PRECISE_MUL_ADD)
endforeach()
