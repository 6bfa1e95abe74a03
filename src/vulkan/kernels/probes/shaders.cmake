# Small shaders that only the runtime tests run (tests/vulkan/runtime/), to probe dispatch, batching and memory.
nxv_shader(NAME test_add_scalar SOURCE probes/add_scalar.comp)
nxv_shader(NAME test_increment SOURCE probes/increment.comp)
nxv_shader(NAME test_fill_constant SOURCE probes/fill_constant.comp)
