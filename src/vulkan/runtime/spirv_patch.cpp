// SPIR-V layout (spec 2.4): header (5 words), capabilities, extensions, imports, memory model, entry points,
// execution modes, ... The new capability goes first, the extension right after the capabilities, the execution
// modes right after the entry points.
#include "vulkan/runtime/spirv_patch.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <unordered_map>

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

namespace {

// The scalar values of a module's integer constants and the sizes of its types, as workgroup_needs reads them.
class ModuleSizes {
 public:
  explicit ModuleSizes(std::span<const std::int32_t> specialization) : specialization_(specialization) {}

  void decorate(std::span<const std::uint32_t> in) {  // OpDecorate target decoration operands...
    constexpr std::uint32_t kSpecId = 1, kBuiltIn = 11, kWorkgroupSize = 25;
    if (in.size() >= 4 && in[2] == kSpecId) spec_ids_[in[1]] = in[3];
    if (in.size() >= 4 && in[2] == kBuiltIn && in[3] == kWorkgroupSize) workgroup_size_id = in[1];
  }

  // Types and constants, in module order (each is declared before its uses).
  void declare(std::uint32_t opcode, std::span<const std::uint32_t> in) {
    constexpr std::uint32_t kOpTypeBool = 20, kOpTypeVector = 23, kOpTypeMatrix = 24, kOpTypeArray = 28;
    constexpr std::uint32_t kOpTypeStruct = 30, kOpTypePointer = 32, kOpConstant = 43, kOpConstantComposite = 44;
    constexpr std::uint32_t kOpSpecConstant = 50, kOpSpecConstantComposite = 51, kOpSpecConstantOp = 52;
    if (opcode == kOpTypeBool && in.size() >= 2) {
      bytes_[in[1]] = 4;
    } else if ((opcode == kOpTypeInt || opcode == kOpTypeFloat) && in.size() >= 3) {
      bytes_[in[1]] = in[2] / 8;
    } else if ((opcode == kOpTypeVector || opcode == kOpTypeMatrix) && in.size() >= 4) {
      bytes_[in[1]] = bytes(in[2]) * in[3];
    } else if (opcode == kOpTypeArray && in.size() >= 4) {
      bytes_[in[1]] = bytes(in[2]) * value(in[3]);
    } else if (opcode == kOpTypeStruct && in.size() >= 2) {
      std::uint64_t total = 0;
      for (std::size_t m = 2; m < in.size(); ++m) total += bytes(in[m]);
      bytes_[in[1]] = total;
    } else if (opcode == kOpTypePointer && in.size() >= 4) {
      pointee_[in[1]] = in[3];
    } else if ((opcode == kOpConstant || opcode == kOpSpecConstant) && in.size() >= 4) {
      std::uint32_t v = in[3];
      if (const auto id = spec_ids_.find(in[2]); opcode == kOpSpecConstant && id != spec_ids_.end())
        if (id->second < specialization_.size()) v = static_cast<std::uint32_t>(specialization_[id->second]);
      values_[in[2]] = v;
    } else if ((opcode == kOpConstantComposite || opcode == kOpSpecConstantComposite) && in.size() >= 3) {
      composites_[in[2]].assign(in.begin() + 3, in.end());
    } else if (opcode == kOpSpecConstantOp && in.size() >= 6) {
      values_[in[2]] = folded(in[3], value(in[4]), value(in[5]));
    }
  }

  std::uint64_t bytes(std::uint32_t type) const {
    const auto it = bytes_.find(type);
    return it == bytes_.end() ? 0 : it->second;
  }
  std::uint64_t pointee_bytes(std::uint32_t pointer) const {
    const auto it = pointee_.find(pointer);
    return it == pointee_.end() ? 0 : bytes(it->second);
  }
  std::uint32_t value(std::uint32_t constant) const {
    const auto it = values_.find(constant);
    return it == values_.end() ? 0 : it->second;
  }
  const std::vector<std::uint32_t>* composite(std::uint32_t constant) const {
    const auto it = composites_.find(constant);
    return it == composites_.end() ? nullptr : &it->second;
  }

  std::uint32_t workgroup_size_id = 0;

 private:
  // The integer operations glslang emits for sizes computed from specialization constants (e.g. shared x[N * 2]);
  // any other folds to 0, a size that limits nothing.
  static std::uint32_t folded(std::uint32_t op, std::uint32_t a, std::uint32_t b) {
    switch (op) {
      case 128:
        return a + b;  // OpIAdd
      case 130:
        return a - b;  // OpISub
      case 132:
        return a * b;  // OpIMul
      case 134:
        return b == 0 ? 0 : a / b;  // OpUDiv
      case 194:
        return b < 32 ? a >> b : 0;  // OpShiftRightLogical
      case 196:
        return b < 32 ? a << b : 0;  // OpShiftLeftLogical
      default:
        return 0;
    }
  }

  std::span<const std::int32_t> specialization_;
  std::unordered_map<std::uint32_t, std::uint32_t> spec_ids_, values_, pointee_;
  std::unordered_map<std::uint32_t, std::uint64_t> bytes_;
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> composites_;
};

}  // namespace

WorkgroupNeeds workgroup_needs(std::span<const std::uint32_t> spirv, std::span<const std::int32_t> specialization) {
  constexpr std::uint32_t kOpDecorate = 71, kOpVariable = 59, kOpExecutionModeId = 331;
  constexpr std::uint32_t kLocalSize = 17, kLocalSizeId = 38, kWorkgroup = 4;
  check_header(spirv);
  WorkgroupNeeds needs;
  ModuleSizes sizes(specialization);
  std::vector<std::uint32_t> size_ids;  // LocalSizeId's operands, resolved once the constants are read
  for_each_instruction(spirv, [&](std::size_t, std::uint32_t opcode, std::span<const std::uint32_t> in) {
    if (opcode == kOpExecutionMode && in.size() >= 6 && in[2] == kLocalSize) {
      for (int i = 0; i < 3; ++i) needs.size[i] = in[3 + i];
    } else if (opcode == kOpExecutionModeId && in.size() >= 6 && in[2] == kLocalSizeId) {
      size_ids.assign(in.begin() + 3, in.begin() + 6);
    } else if (opcode == kOpDecorate) {
      sizes.decorate(in);
    } else if (opcode == kOpVariable && in.size() >= 4 && in[3] == kWorkgroup) {
      needs.shared_bytes += sizes.pointee_bytes(in[1]);
    } else {
      sizes.declare(opcode, in);
    }
  });
  if (size_ids.size() == 3)
    for (int i = 0; i < 3; ++i) needs.size[i] = sizes.value(size_ids[i]);
  if (const std::vector<std::uint32_t>* built_in = sizes.composite(sizes.workgroup_size_id);
      built_in != nullptr && built_in->size() == 3)
    for (int i = 0; i < 3; ++i) needs.size[i] = sizes.value((*built_in)[i]);
  return needs;
}

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
