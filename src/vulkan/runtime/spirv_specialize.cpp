// specialized() through SPIRV-Tools' optimiser (linked statically with shaderc, CMakeLists.txt), and the width
// capabilities read from the type declarations (SPIR-V spec 3.31 capabilities, 3.49 OpTypeInt/OpTypeFloat).
#include "vulkan/runtime/spirv_specialize.hpp"

#include <spirv-tools/optimizer.hpp>

#include <string>
#include <unordered_map>

#include "vulkan/runtime/capabilities.hpp"
#include "vulkan/runtime/spirv_patch.hpp"

namespace nxv::vulkan {
namespace {

constexpr std::uint32_t kOpCapability = 17, kOpTypeInt = 21, kOpTypeFloat = 22;

// The type widths a capability is about: needed while the module declares an OpTypeInt (`integer`) or OpTypeFloat
// of one of them.
struct WidthCapability {
  std::uint32_t capability;
  bool integer, floating;
  std::uint32_t width;
};
constexpr WidthCapability kWidthCapabilities[] = {
    {10, false, true, 64},                                                   // Float64
    {9, false, true, 16},                                                    // Float16
    {11, true, false, 64},                                                   // Int64
    {12, true, false, 64},                                                   // Int64Atomics
    {22, true, false, 16},                                                   // Int16
    {39, true, false, 8},                                                    // Int8
    {4433, true, true, 16}, {4434, true, true, 16}, {4435, true, true, 16},  // 16-bit storage
    {4448, true, false, 8}, {4449, true, false, 8}, {4450, true, false, 8},  // 8-bit storage
};

}  // namespace

std::vector<std::uint32_t> without_unused_width_capabilities(std::span<const std::uint32_t> spirv) {
  bool int_width[65] = {}, float_width[65] = {};
  const std::vector<std::uint32_t> declared = capabilities(spirv);  // (checks the header and the word counts)
  for (std::size_t i = 5; i < spirv.size(); i += spirv[i] >> 16) {
    const std::uint32_t words = spirv[i] >> 16, opcode = spirv[i] & 0xffff;
    if ((opcode == kOpTypeInt || opcode == kOpTypeFloat) && words >= 3 && spirv[i + 2] <= 64)
      (opcode == kOpTypeInt ? int_width : float_width)[spirv[i + 2]] = true;
  }
  const auto unused = [&](std::uint32_t capability) {
    for (const WidthCapability& w : kWidthCapabilities)
      if (w.capability == capability)
        return !((w.integer && int_width[w.width]) || (w.floating && float_width[w.width]));
    return false;
  };
  std::vector<std::uint32_t> out(spirv.begin(), spirv.begin() + 5);
  for (std::size_t i = 5; i < spirv.size(); i += spirv[i] >> 16) {
    const std::uint32_t words = spirv[i] >> 16, opcode = spirv[i] & 0xffff;
    if (!(opcode == kOpCapability && words == 2 && unused(spirv[i + 1])))
      out.insert(out.end(), spirv.begin() + static_cast<std::ptrdiff_t>(i),
                 spirv.begin() + static_cast<std::ptrdiff_t>(i + words));
  }
  return out;
}

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
