// SPIR-V layout (spec 2.4): header (5 words), capabilities, extensions, imports, memory model, entry points,
// execution modes, ... The new capability goes first, the extension right after the capabilities, the execution
// modes right after the entry points.
#include "vulkan/runtime/spirv_patch.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "nxv/error.hpp"

namespace nxv::vulkan {
namespace {

constexpr std::uint32_t kOpExtension = 10, kOpEntryPoint = 15, kOpExecutionMode = 16, kOpCapability = 17;
constexpr std::uint32_t kOpTypeInt = 21, kOpTypeFloat = 22;
constexpr std::uint32_t kCapabilityDenormPreserve = 4464, kExecutionModeDenormPreserve = 4459;
constexpr std::uint32_t kCapabilitySignedZeroInfNanPreserve = 4466, kExecutionModeSignedZeroInfNanPreserve = 4461;

std::uint32_t instruction(std::uint32_t words, std::uint32_t opcode) { return (words << 16) | opcode; }

void check_header(std::span<const std::uint32_t> spirv) {
  if (spirv.size() < 5 || spirv[0] != 0x07230203u) detail::fail("vulkan: not a SPIR-V module (bad magic number)");
}

// Calls f(offset, opcode, instruction) for each instruction after the header, `instruction` holding all of its words
// (the first is (words << 16) | opcode). nxv::Error for a word count of zero or one that runs past the end.
template <class F>
void for_each_instruction(std::span<const std::uint32_t> spirv, F&& f) {
  for (std::size_t i = 5; i < spirv.size();) {
    const std::uint32_t words = spirv[i] >> 16, opcode = spirv[i] & 0xffff;
    if (words == 0 || words > spirv.size() - i)
      detail::fail("vulkan: malformed SPIR-V instruction at word ", i, " (", words, " words of ", spirv.size(), ")");
    f(i, opcode, spirv.subspan(i, words));
    i += words;
  }
}

void append_extension(std::vector<std::uint32_t>& out, std::string_view name) {
  const std::size_t words = name.size() / 4 + 1;  // the string and its terminating zero, padded
  std::vector<std::uint32_t> text(words, 0);
  std::memcpy(text.data(), name.data(), name.size());
  out.push_back(instruction(static_cast<std::uint32_t>(words + 1), kOpExtension));
  out.insert(out.end(), text.begin(), text.end());
}

}  // namespace

std::uint32_t count_bindings(std::span<const std::uint32_t> spirv) {
  constexpr std::uint32_t kOpDecorate = 71, kDecorationBinding = 33;
  check_header(spirv);
  std::uint32_t count = 0;
  for_each_instruction(spirv, [&](std::size_t, std::uint32_t opcode, std::span<const std::uint32_t> in) {
    // OpDecorate target Binding n; a binding of 2^32 - 1 would wrap to 0, so it saturates (and fails the limit).
    if (opcode == kOpDecorate && in.size() >= 4 && in[2] == kDecorationBinding)
      count = std::max(count, in[3] == UINT32_MAX ? in[3] : in[3] + 1);
  });
  return count;
}

std::vector<std::uint32_t> capabilities(std::span<const std::uint32_t> spirv) {
  check_header(spirv);
  std::vector<std::uint32_t> found;
  for_each_instruction(spirv, [&](std::size_t, std::uint32_t opcode, std::span<const std::uint32_t> in) {
    if (opcode == kOpCapability && in.size() >= 2) found.push_back(in[1]);
  });
  return found;
}

namespace {

// The type widths a capability is about (SPIR-V spec 3.31): needed while the module declares an OpTypeInt
// (`integer`) or OpTypeFloat of that width.
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
  check_header(spirv);
  bool int_width[65] = {}, float_width[65] = {};
  for_each_instruction(spirv, [&](std::size_t, std::uint32_t opcode, std::span<const std::uint32_t> in) {
    if ((opcode == kOpTypeInt || opcode == kOpTypeFloat) && in.size() >= 3 && in[2] <= 64)
      (opcode == kOpTypeInt ? int_width : float_width)[in[2]] = true;
  });
  const auto unused = [&](std::uint32_t capability) {
    for (const WidthCapability& w : kWidthCapabilities)
      if (w.capability == capability)
        return !((w.integer && int_width[w.width]) || (w.floating && float_width[w.width]));
    return false;
  };
  std::vector<std::uint32_t> out(spirv.begin(), spirv.begin() + 5);
  for_each_instruction(spirv, [&](std::size_t, std::uint32_t opcode, std::span<const std::uint32_t> in) {
    if (!(opcode == kOpCapability && in.size() == 2 && unused(in[1]))) out.insert(out.end(), in.begin(), in.end());
  });
  return out;
}

std::vector<std::uint32_t> with_float_controls(std::span<const std::uint32_t> spirv, const FloatControls& controls) {
  std::vector<std::uint32_t> out(spirv.begin(), spirv.end());
  if (!controls.any()) return out;
  check_header(spirv);

  std::vector<std::uint32_t> entry_points;
  std::size_t first_after_capabilities = 0, after_entry_points = 0;
  for_each_instruction(spirv, [&](std::size_t i, std::uint32_t opcode, std::span<const std::uint32_t> in) {
    if (opcode != kOpCapability && first_after_capabilities == 0) first_after_capabilities = i;
    if (opcode == kOpEntryPoint) {
      // OpEntryPoint execution-model id name...: without its id it is malformed, not an entry point to patch.
      if (in.size() < 3) detail::fail("vulkan: malformed SPIR-V OpEntryPoint at word ", i);
      entry_points.push_back(in[2]);
      after_entry_points = i + in.size();
    }
  });
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
