# Compiles GLSL compute shaders to SPIR-V at build time and embeds them in the library, so nothing is looked up
# on disk at run time. Usage (in src/vulkan/kernels/CMakeLists.txt):
#   nxv_shader(NAME unary_f32 SOURCE unary.comp DEFINES T=float)
#   nxv_shader(NAME dot_mid_f32 SOURCE dot_blocked.comp UNOPTIMIZED DEFINES ...)
#   nxv_embed_shaders(nxv_shaders)   # after all nxv_shader() calls: builds the registry library
# The registry is read through src/vulkan/runtime/shader_registry.hpp: nxv::vulkan::embedded_shader("unary_f32").

set(NXV_SHADER_NAMES "" CACHE INTERNAL "")
set(NXV_SHADER_SPVS "" CACHE INTERNAL "")

# With NXV_SPIRV_FROM set, the .spv files of that tree are embedded as they are (no glslc rule here).

# UNOPTIMIZED compiles without glslc's -O, for a shader with `precise` arithmetic inside [[unroll]] loops: Debian's
# spirv-opt (SPIRV-Tools 2022.4) drops the NoContraction decoration from the unrolled copies and folds their product
# and sum into one fma (tests/vulkan/kernels/contraction_test.cpp), which breaks the exact contract. The
# driver's own compiler unrolls and optimises such modules anyway.
function(nxv_shader)
  cmake_parse_arguments(S "UNOPTIMIZED" "NAME;SOURCE" "DEFINES" ${ARGN})
  if(NXV_SPIRV_FROM)
    file(RELATIVE_PATH rel ${CMAKE_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR})
    set(spv ${NXV_SPIRV_FROM}/${rel}/spv/${S_NAME}.spv)
    if(NOT EXISTS ${spv})
      message(FATAL_ERROR "NXV_SPIRV_FROM=${NXV_SPIRV_FROM}: ${spv} is missing (build that tree's shaders first)")
    endif()
    set(NXV_SHADER_NAMES "${NXV_SHADER_NAMES};${S_NAME}" CACHE INTERNAL "")
    set(NXV_SHADER_SPVS "${NXV_SHADER_SPVS};${spv}" CACHE INTERNAL "")
    return()
  endif()
  set(spv ${CMAKE_CURRENT_BINARY_DIR}/spv/${S_NAME}.spv)
  set(dep ${CMAKE_CURRENT_BINARY_DIR}/spv/${S_NAME}.d)
  set(defs "")
  set(optimize -O)
  if(S_UNOPTIMIZED)
    set(optimize "")
  endif()
  foreach(d IN LISTS S_DEFINES)
    list(APPEND defs "-D${d}")
  endforeach()
  add_custom_command(
    OUTPUT ${spv}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/spv
    COMMAND ${GLSLC} --target-env=vulkan1.2 ${optimize} -I ${CMAKE_SOURCE_DIR}/src/vulkan/kernels -I ${CMAKE_SOURCE_DIR}/src
            ${defs} -MD -MF ${dep} -o ${spv} ${CMAKE_CURRENT_SOURCE_DIR}/${S_SOURCE}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${S_SOURCE}
    DEPFILE ${dep}
    COMMENT "glslc ${S_NAME}"
    VERBATIM)
  set(NXV_SHADER_NAMES "${NXV_SHADER_NAMES};${S_NAME}" CACHE INTERNAL "")
  set(NXV_SHADER_SPVS "${NXV_SHADER_SPVS};${spv}" CACHE INTERNAL "")
endfunction()

function(nxv_embed_shaders target)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/embedded_shaders.cpp)
  set(names ${NXV_SHADER_NAMES})
  set(spvs ${NXV_SHADER_SPVS})
  list(FILTER names EXCLUDE REGEX "^$")
  list(FILTER spvs EXCLUDE REGEX "^$")
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} "-DNAMES=${names}" "-DSPVS=${spvs}" -DOUT=${out}
            -P ${CMAKE_SOURCE_DIR}/cmake/embed_spirv.cmake
    DEPENDS ${spvs} ${CMAKE_SOURCE_DIR}/cmake/embed_spirv.cmake
    COMMENT "embedding SPIR-V"
    VERBATIM)
  add_library(${target} OBJECT ${out})
  target_include_directories(${target} PRIVATE ${CMAKE_SOURCE_DIR}/src)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()
