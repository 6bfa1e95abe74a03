# Shaders used only by the runtime tests (tests/vulkan/); paths are relative to shaders/.
nxv_shader(NAME test_add_scalar SOURCE test/add_scalar.comp)
nxv_shader(NAME test_increment SOURCE test/increment.comp)
nxv_shader(NAME test_fill_constant SOURCE test/fill_constant.comp)
