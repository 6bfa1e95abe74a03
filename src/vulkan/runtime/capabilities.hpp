// What a shader needs of the device beyond Vulkan 1.2's required features, read from its SPIR-V capabilities, and
// the exception that sends an op without it to the host fallback.
//
// Vulkan 1.2 requires none of shaderFloat64, shaderInt64, shaderInt16, shaderInt8, shaderFloat16 or the 8/16-bit
// storage features, and most devices outside desktop NVIDIA/AMD lack some of them (Apple's through MoltenVK have no
// f64, many phones no int64). A kernel whose module needs such a capability cannot run there, even specialized to
// its pipeline's constants (spirv_specialize.hpp): creating its pipeline throws DeviceLacks, VulkanBackend::execute
// catches it and runs the op through the counted host-fallback choke point (the event names the feature), the
// fusion compiler leaves such nodes eager (kernels::elementwise_native) and declines a graph whose generated kernel
// still needs one (it runs op by op).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nxv/error.hpp"
#include "vulkan/runtime/runtime.hpp"
#include "vulkan/runtime/spirv_patch.hpp"

namespace nxv::vulkan {

// The specialization constant every pipeline gets: whether the device has shaderFloat64 (the kernels' f32 division
// then goes through f64, else through integer arithmetic: src/vulkan/kernels/lib/f32_exact.glsl).
inline constexpr std::uint32_t kDeviceHasF64ConstantId = 63;

class DeviceLacks : public Error {
 public:
  DeviceLacks(std::string_view shader, std::string feature);
  const std::string& feature() const { return feature_; }  // the Vulkan feature's name, e.g. "shaderFloat64"

 private:
  std::string feature_;
};

// The Vulkan feature behind the first capability `spirv` declares that `features` lacks, e.g. "shaderFloat64";
// empty when the device has everything the module needs.
std::string missing_feature(std::span<const std::uint32_t> spirv, const DeviceFeatures& features);

// What a workgroup needs beyond the device's limits, e.g. "256 invocations per workgroup
// (maxComputeWorkGroupInvocations: 128)"; empty when it fits. Vulkan guarantees only 128 invocations (128 x 128 x 64)
// and 16 KiB of shared memory; a kernel written for more takes the counted fallback where the device has less.
std::string exceeded_limit(const WorkgroupNeeds& needs, const DeviceFeatures& features);

// The module's words for a device with `features`: as they are, or, where the device lacks a feature the module
// declares, without the width capabilities no type of it uses (without_unused_width_capabilities).
std::vector<std::uint32_t> trimmed_for(std::span<const std::uint32_t> spirv, const DeviceFeatures& features);

}  // namespace nxv::vulkan
