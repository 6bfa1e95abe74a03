// SPIR-V capabilities (spec 3.31) mapped to the device features that allow them.
#include "vulkan/runtime/capabilities.hpp"

#include <string>
#include <utility>

#include "vulkan/runtime/spirv_patch.hpp"

namespace nxv::vulkan {

DeviceLacks::DeviceLacks(std::string_view shader, std::string feature)
    : Error("vulkan: shader '" + std::string(shader) + "' needs " + feature + ", which the device lacks"),
      feature_(std::move(feature)) {}

namespace {

struct Needed {
  std::uint32_t capability;
  bool DeviceFeatures::*has;
  const char* feature;
};

// The capabilities glslang emits for the types the kernels use: f64/int64/int16/int8/f16 arithmetic, 8/16-bit
// buffer access, and tensor cores. (Vulkan 1.1 already requires the subgroup basics the kernels use.)
constexpr Needed kNeeded[] = {
    {10, &DeviceFeatures::float64, "shaderFloat64"},
    {11, &DeviceFeatures::int64, "shaderInt64"},
    {12, &DeviceFeatures::int64, "shaderInt64"},  // Int64Atomics (shaderBufferInt64Atomics too, not used)
    {22, &DeviceFeatures::int16, "shaderInt16"},
    {39, &DeviceFeatures::int8_arithmetic, "shaderInt8"},
    {9, &DeviceFeatures::float16, "shaderFloat16"},
    {4433, &DeviceFeatures::storage16, "storageBuffer16BitAccess"},
    {4434, &DeviceFeatures::storage16, "uniformAndStorageBuffer16BitAccess"},
    {4435, &DeviceFeatures::storage16, "storagePushConstant16"},
    {4448, &DeviceFeatures::storage8, "storageBuffer8BitAccess"},
    {4449, &DeviceFeatures::storage8, "uniformAndStorageBuffer8BitAccess"},
    {4450, &DeviceFeatures::storage8, "storagePushConstant8"},
    {5357, &DeviceFeatures::tensor_cores_f16, "cooperativeMatrix (VK_NV_cooperative_matrix)"},
};

}  // namespace

std::string missing_feature(std::span<const std::uint32_t> spirv, const DeviceFeatures& features) {
  for (const std::uint32_t capability : capabilities(spirv))
    for (const Needed& n : kNeeded)
      if (n.capability == capability && !(features.*n.has)) return n.feature;
  return {};
}

std::string exceeded_limit(const WorkgroupNeeds& needs, const DeviceFeatures& features) {
  const auto n = [](std::uint64_t v) { return std::to_string(v); };
  if (needs.invocations() > features.max_workgroup_invocations)
    return n(needs.invocations()) +
           " invocations per workgroup (maxComputeWorkGroupInvocations: " + n(features.max_workgroup_invocations) + ")";
  for (int i = 0; i < 3; ++i)
    if (needs.size[i] > features.max_workgroup_size[i])
      return n(needs.size[i]) + " invocations along " + "xyz"[i] +
             " (maxComputeWorkGroupSize: " + n(features.max_workgroup_size[i]) + ")";
  if (needs.shared_bytes > features.max_shared_memory)
    return n(needs.shared_bytes) +
           " bytes of shared memory (maxComputeSharedMemorySize: " + n(features.max_shared_memory) + ")";
  return {};
}

std::vector<std::uint32_t> trimmed_for(std::span<const std::uint32_t> spirv, const DeviceFeatures& features) {
  if (missing_feature(spirv, features).empty()) return {spirv.begin(), spirv.end()};
  return without_unused_width_capabilities(spirv);
}

}  // namespace nxv::vulkan
