// SPIR-V layout (spec 2.4): header (5 words), capabilities, extensions, imports, memory model, entry points,
// execution modes, ... The new capability goes first, the extension right after the capabilities, the execution
// modes right after the entry points.
#include "vulkan/runtime/spirv_patch.hpp"

#include <cstring>
#include <string_view>

#include "nxv/error.hpp"

namespace nxv::vulkan {
namespace {

constexpr std::uint32_t kOpExtension = 10, kOpEntryPoint = 15, kOpExecutionMode = 16, kOpCapability = 17;
constexpr std::uint32_t kCapabilityDenormPreserve = 4464, kExecutionModeDenormPreserve = 4459;
constexpr std::uint32_t kCapabilitySignedZeroInfNanPreserve = 4466, kExecutionModeSignedZeroInfNanPreserve = 4461;

std::uint32_t instruction(std::uint32_t words, std::uint32_t opcode) { return (words << 16) | opcode; }

void append_extension(std::vector<std::uint32_t>& out, std::string_view name) {
  const std::size_t words = name.size() / 4 + 1;  // the string and its terminating zero, padded
  std::vector<std::uint32_t> text(words, 0);
  std::memcpy(text.data(), name.data(), name.size());
  out.push_back(instruction(static_cast<std::uint32_t>(words + 1), kOpExtension));
  out.insert(out.end(), text.begin(), text.end());
}

}  // namespace

std::vector<std::uint32_t> with_float_controls(std::span<const std::uint32_t> spirv, const FloatControls& controls) {
  std::vector<std::uint32_t> out(spirv.begin(), spirv.end());
  if (!controls.any()) return out;
  if (spirv.size() < 5 || spirv[0] != 0x07230203u) detail::fail("vulkan: not a SPIR-V module (bad magic number)");

  std::vector<std::uint32_t> entry_points;
  std::size_t first_after_capabilities = 0, after_entry_points = 0;
  for (std::size_t i = 5; i < spirv.size();) {
    const std::uint32_t words = spirv[i] >> 16, opcode = spirv[i] & 0xffff;
    if (words == 0 || i + words > spirv.size()) detail::fail("vulkan: malformed SPIR-V instruction at word ", i);
    if (opcode != kOpCapability && first_after_capabilities == 0) first_after_capabilities = i;
    if (opcode == kOpEntryPoint) {
      entry_points.push_back(spirv[i + 2]);
      after_entry_points = i + words;
    }
    i += words;
  }
  if (entry_points.empty()) return out;

  struct Mode {
    bool wanted;
    std::uint32_t capability, mode, width;
  };
  const Mode wanted[] = {
      {controls.denorm_preserve_f32, kCapabilityDenormPreserve, kExecutionModeDenormPreserve, 32},
      {controls.denorm_preserve_f64, kCapabilityDenormPreserve, kExecutionModeDenormPreserve, 64},
      {controls.signed_zero_inf_nan_f32, kCapabilitySignedZeroInfNanPreserve, kExecutionModeSignedZeroInfNanPreserve,
       32},
      {controls.signed_zero_inf_nan_f64, kCapabilitySignedZeroInfNanPreserve, kExecutionModeSignedZeroInfNanPreserve,
       64},
  };
  std::vector<std::uint32_t> capability;
  for (std::uint32_t cap : {kCapabilityDenormPreserve, kCapabilitySignedZeroInfNanPreserve})
    for (const Mode& m : wanted)
      if (m.wanted && m.capability == cap) {
        capability.insert(capability.end(), {instruction(2, kOpCapability), cap});
        break;
      }
  std::vector<std::uint32_t> extension;
  append_extension(extension, "SPV_KHR_float_controls");
  std::vector<std::uint32_t> modes;
  for (std::uint32_t id : entry_points)
    for (const Mode& m : wanted)
      if (m.wanted) modes.insert(modes.end(), {instruction(4, kOpExecutionMode), id, m.mode, m.width});

  out.clear();
  out.insert(out.end(), spirv.begin(), spirv.begin() + 5);
  out.insert(out.end(), capability.begin(), capability.end());
  out.insert(out.end(), spirv.begin() + 5, spirv.begin() + static_cast<std::ptrdiff_t>(first_after_capabilities));
  out.insert(out.end(), extension.begin(), extension.end());
  out.insert(out.end(), spirv.begin() + static_cast<std::ptrdiff_t>(first_after_capabilities),
             spirv.begin() + static_cast<std::ptrdiff_t>(after_entry_points));
  out.insert(out.end(), modes.begin(), modes.end());
  out.insert(out.end(), spirv.begin() + static_cast<std::ptrdiff_t>(after_entry_points), spirv.end());
  return out;
}

}  // namespace nxv::vulkan
