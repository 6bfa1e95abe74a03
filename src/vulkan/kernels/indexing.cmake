# The indexing, sorting and scan kernels (src/vulkan/kernels/indexing.cpp, sort.cpp). take, gather and put_slice
# move bytes: one variant per element size (and index dtype); the others compute: one variant per dtype.
foreach(bytes 1 2 4 8)
  nxv_shader(NAME put_slice_${bytes} SOURCE put_slice.comp DEFINES ELEM_${bytes})
  foreach(index s32 s64)
    string(TOUPPER ${index} upper)
    nxv_shader(NAME take_${bytes}_${index} SOURCE take.comp DEFINES ELEM_${bytes} IDX_${upper})
    nxv_shader(NAME gather_${bytes}_${index} SOURCE gather.comp DEFINES ELEM_${bytes} IDX_${upper})
  endforeach()
endforeach()

foreach(index s32 s64)
  string(TOUPPER ${index} upper)
  nxv_shader(NAME scatter_keys_${index} SOURCE scatter.comp DEFINES KEYS IDX_${upper})
endforeach()

foreach(t IN LISTS NXV_NUMERIC_VARIANTS)
  nxv_type_defines(a A ${t})
  nxv_shader(NAME scatter_${t} SOURCE scatter.comp DEFINES ${a})
  nxv_shader(NAME sort_tile_${t} SOURCE sort.comp DEFINES TILE ${a})
  nxv_shader(NAME sort_merge_${t} SOURCE sort.comp DEFINES MERGE ${a})
  nxv_shader(NAME cumulative_${t} SOURCE cumulative.comp DEFINES ${a})
endforeach()
