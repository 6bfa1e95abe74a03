# The CNN kernels (src/vulkan/kernels/conv.cpp, window.cpp): conv and its split second pass in the float dtypes
# (its result is always a float); window reductions and the two passes of window_scatter in every numeric variant (pred is cast to u8 by
# the front end).
foreach(t f32 f64)
  nxv_type_defines(a A ${t})
  nxv_shader(NAME conv_${t} SOURCE conv.comp DEFINES ${a})
  nxv_shader(NAME conv_combine_${t} SOURCE conv_combine.comp DEFINES ${a})
endforeach()

foreach(t IN LISTS NXV_NUMERIC_VARIANTS)
  nxv_type_defines(a A ${t})
  nxv_shader(NAME window_reduce_${t} SOURCE window.comp DEFINES ${a})
  nxv_shader(NAME window_select_${t} SOURCE window_scatter.comp DEFINES SELECT ${a})
  nxv_shader(NAME window_scatter_${t} SOURCE window_scatter.comp DEFINES ${a})
endforeach()
