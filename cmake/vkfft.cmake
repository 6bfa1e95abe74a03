# VkFFT (Debian's libvkfft-dev 1.2.26, header-only) for src/vulkan/kernels/fft.cpp, its only includer.
#
# Its header does not compile against Debian 12's glslang 12: VkFFT fills glslang's resource limits positionally,
# and glslang 12 inserted nine mesh-shader limits (the *_EXT ones) after maxMeshViewCountNV, so the rest of the list
# lands on the wrong fields ("cannot convert '<brace-enclosed initializer list>' to 'int'"). The build uses a copy
# with glslang's own default values for those nine inserted (both places VkFFT fills the limits); the system header
# is left alone. configure_file rewrites the copy only when it changes, so fft.cpp recompiles only then.
find_file(NXV_VKFFT_HEADER vkFFT.h PATHS /usr/include REQUIRED)
file(READ ${NXV_VKFFT_HEADER} nxv_vkfft)
set(nxv_vkfft_anchor "/* .maxMeshViewCountNV = */ 4,")
string(REPLACE "${nxv_vkfft_anchor}" "${nxv_vkfft_anchor} /* glslang 12: */ 256, 256, 128, 128, 128, 128, 128, 128, 4,"
       nxv_vkfft_patched "${nxv_vkfft}")
string(REGEX MATCHALL "glslang 12: \\*/" nxv_vkfft_sites "${nxv_vkfft_patched}")
list(LENGTH nxv_vkfft_sites nxv_vkfft_count)
if(NOT nxv_vkfft_count EQUAL 2)
  message(FATAL_ERROR "${NXV_VKFFT_HEADER}: expected VkFFT 1.2.26's two glslang limit lists, found ${nxv_vkfft_count}")
endif()
file(WRITE ${CMAKE_BINARY_DIR}/vkfft/vkFFT.h.new "${nxv_vkfft_patched}")
configure_file(${CMAKE_BINARY_DIR}/vkfft/vkFFT.h.new ${CMAKE_BINARY_DIR}/vkfft/vkFFT.h COPYONLY)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${NXV_VKFFT_HEADER})
# -isystem: VkFFT's own code is not held to the library's warnings. The header costs ~20 s to compile.
set_source_files_properties(${PROJECT_SOURCE_DIR}/src/vulkan/kernels/fft.cpp PROPERTIES
  COMPILE_OPTIONS "-isystem;${CMAKE_BINARY_DIR}/vkfft"
  SKIP_PRECOMPILE_HEADERS ON)
