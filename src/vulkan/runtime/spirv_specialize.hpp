// Specializing a shader on the host, for devices that lack a feature part of it needs: a kernel family's shader
// holds every op of its table behind specialization constants (binary_f32 has 26 functions, some computing through
// f64), so the module as a whole needs shaderFloat64 even where the one function a pipeline runs (add) does not.
// Frozen to that pipeline's constants and stripped of the code they make dead, the module needs only what that
// function needs. Used only where the device lacks a feature the whole module needs (pipelines.cpp).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace nxv::vulkan {

// The module with its specialization constants frozen (constant_id i = values[i], kDeviceHasF64ConstantId to
// `device_f64`, the others at their defaults)
// and the branches, functions and constants they leave dead removed by SPIRV-Tools' optimiser (constant
// propagation and dead-code passes only, which keep the arithmetic and its NoContraction decorations as they are),
// then without_unused_width_capabilities (spirv_patch.hpp). Empty when the optimiser refuses the module.
std::vector<std::uint32_t> specialized(std::span<const std::uint32_t> spirv, std::span<const std::int32_t> values,
                                       bool device_f64);

}  // namespace nxv::vulkan
