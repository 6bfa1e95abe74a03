# Decorates every GLSL.std.450 Fma result of a SPIR-V module with NoContraction, in place (cmake -DSPV=... -P).
#
# Why: the SPIR-V spec makes Fma a single fused operation only when it carries NoContraction, and glslang 12 never
# emits that decoration for fma(), `precise` or not. Mesa then treats the ffma as contractible and lavapipe splits
# it into a multiply and an add (checked: fma(1 + 2^-23, 1 - 2^-23, -1) gave 0 instead of -2^-46), which breaks
# dot's bit-identity with the reference's std::fma. kernels.cmake runs this after glslc for the dot shaders.
find_program(SPIRV_DIS spirv-dis REQUIRED)
find_program(SPIRV_AS spirv-as REQUIRED)
execute_process(COMMAND ${SPIRV_DIS} --raw-id ${SPV} OUTPUT_VARIABLE text COMMAND_ERROR_IS_FATAL ANY)
string(REGEX MATCHALL "(%[0-9]+) = OpExtInst %[0-9]+ %[0-9]+ Fma" fmas "${text}")
if(NOT fmas)
  return()
endif()
set(decorations "")
foreach(f IN LISTS fmas)
  string(REGEX REPLACE " = .*" "" id "${f}")
  string(APPEND decorations "OpDecorate ${id} NoContraction\n")
endforeach()
# Annotations precede the type declarations: put the new ones just before the first OpDecorate.
string(FIND "${text}" "OpDecorate" at)
if(at EQUAL -1)
  message(FATAL_ERROR "decorate_fma: ${SPV} has no OpDecorate to anchor the new decorations")
endif()
string(SUBSTRING "${text}" 0 ${at} head)
string(SUBSTRING "${text}" ${at} -1 tail)
file(WRITE ${SPV}.fma.spvasm "${head}${decorations}${tail}")
execute_process(COMMAND ${SPIRV_AS} --target-env vulkan1.2 --preserve-numeric-ids -o ${SPV} ${SPV}.fma.spvasm
                COMMAND_ERROR_IS_FATAL ANY)
file(REMOVE ${SPV}.fma.spvasm)
