// specialized() through SPIRV-Tools' optimiser (linked statically with shaderc, CMakeLists.txt).
#include "vulkan/runtime/spirv_specialize.hpp"

#include <spirv-tools/optimizer.hpp>

#include <unordered_map>

#include "vulkan/runtime/capabilities.hpp"
#include "vulkan/runtime/spirv_patch.hpp"

namespace nxv::vulkan {
std::vector<std::uint32_t> specialized(std::span<const std::uint32_t> spirv, std::span<const std::int32_t> values,
                                       bool device_f64) {
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> frozen;
  for (std::uint32_t i = 0; i < values.size(); ++i) frozen[i] = {static_cast<std::uint32_t>(values[i])};
  frozen[kDeviceHasF64ConstantId] = {device_f64 ? 1u : 0u};
  spvtools::Optimizer optimizer(SPV_ENV_VULKAN_1_2);
  optimizer.SetMessageConsumer([](spv_message_level_t, const char*, const spv_position_t&, const char*) {});
  optimizer.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(frozen))
      .RegisterPass(spvtools::CreateFreezeSpecConstantValuePass())
      .RegisterPass(spvtools::CreateFoldSpecConstantOpAndCompositePass())
      .RegisterPass(spvtools::CreateCCPPass())
      .RegisterPass(spvtools::CreateDeadBranchElimPass())
      .RegisterPass(spvtools::CreateCFGCleanupPass())
      .RegisterPass(spvtools::CreateAggressiveDCEPass())
      .RegisterPass(spvtools::CreateEliminateDeadFunctionsPass())
      .RegisterPass(spvtools::CreateEliminateDeadConstantPass())
      .RegisterPass(spvtools::CreateAggressiveDCEPass());
  std::vector<std::uint32_t> out;
  if (!optimizer.Run(spirv.data(), spirv.size(), &out)) return {};
  return without_unused_width_capabilities(out);
}

}  // namespace nxv::vulkan
