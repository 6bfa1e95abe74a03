# Small shaders that only the runtime tests (tests/vulkan/runtime/) and nxv-bench run: dispatch, batching and
# memory probes, and the multiply-add peak that nxv-bench's roofline rows divide by.
nxv_shader(NAME test_add_scalar SOURCE probes/add_scalar.comp)
nxv_shader(NAME test_increment SOURCE probes/increment.comp)
nxv_shader(NAME test_fill_constant SOURCE probes/fill_constant.comp)
nxv_shader(NAME fma_peak_f32 SOURCE probes/fma_peak.comp DEFINES T=float)
nxv_shader(NAME fma_peak_f64 SOURCE probes/fma_peak.comp DEFINES T=double)
