// with_float_controls (src/vulkan/runtime/spirv_patch.hpp) on the embedded shaders: the patched module keeps every
// original instruction in order, gains exactly the capabilities, the extension and one execution mode per entry
// point, mode and width, and places them where the SPIR-V logical layout allows.
#include <gtest/gtest.h>

#include <algorithm>

#include "nxv/error.hpp"
#include "vulkan/runtime/shader_registry.hpp"
#include "vulkan/runtime/spirv_patch.hpp"

namespace nxv::vulkan {
namespace {

struct Instruction {
  std::uint32_t opcode;
  std::vector<std::uint32_t> words;
};

std::vector<Instruction> instructions(std::span<const std::uint32_t> spirv) {
  std::vector<Instruction> out;
  for (std::size_t i = 5; i < spirv.size();) {
    const std::uint32_t words = spirv[i] >> 16;
    out.push_back({spirv[i] & 0xffff, std::vector<std::uint32_t>(spirv.begin() + i, spirv.begin() + i + words)});
    i += words;
  }
  return out;
}

TEST(SpirvPatch, UnchangedWhenNothingIsAsked) {
  const auto spirv = embedded_shader("binary_f32");
  ASSERT_FALSE(spirv.empty());
  const auto same = with_float_controls(spirv, {});
  EXPECT_TRUE(std::equal(same.begin(), same.end(), spirv.begin(), spirv.end()));
}

TEST(SpirvPatch, AddsCapabilityExtensionAndModesInLayoutOrder) {
  for (std::string_view name : {"binary_f32", "unary_f64", "reduce_s32", "dot_f32"}) {
    SCOPED_TRACE(std::string(name));
    const auto spirv = embedded_shader(name);
    ASSERT_FALSE(spirv.empty());
    const auto patched = with_float_controls(
        spirv, {.denorm_preserve_f32 = true, .denorm_preserve_f64 = true, .signed_zero_inf_nan_f32 = true});
    const auto before = instructions(spirv), after = instructions(patched);
    ASSERT_EQ(after.size(), before.size() + 6) << "2 capabilities + extension + 3 execution modes (1 entry point)";

    // Every original instruction survives, in order.
    std::size_t j = 0;
    for (const auto& ins : after)
      if (j < before.size() && ins.words == before[j].words) ++j;
    EXPECT_EQ(j, before.size());

    constexpr std::uint32_t kCapability = 17, kExtension = 10, kEntryPoint = 15, kExecutionMode = 16;
    EXPECT_EQ(after[0].opcode, kCapability);
    EXPECT_EQ(after[0].words[1], 4464u) << "DenormPreserve capability first";
    EXPECT_EQ(after[1].opcode, kCapability);
    EXPECT_EQ(after[1].words[1], 4466u) << "then SignedZeroInfNanPreserve";
    const auto last_capability =
        std::find_if(after.rbegin(), after.rend(), [](const Instruction& i) { return i.opcode == kCapability; });
    const auto extension = (last_capability.base());
    ASSERT_NE(extension, after.end());
    EXPECT_EQ(extension->opcode, kExtension);
    EXPECT_STREQ(reinterpret_cast<const char*>(extension->words.data() + 1), "SPV_KHR_float_controls");

    const auto entry =
        std::find_if(after.begin(), after.end(), [](const Instruction& i) { return i.opcode == kEntryPoint; });
    ASSERT_NE(entry, after.end());
    const auto m32 = entry + 1, m64 = entry + 2, z32 = entry + 3;
    ASSERT_LT(z32 - after.begin(), static_cast<std::ptrdiff_t>(after.size()));
    EXPECT_EQ(m32->opcode, kExecutionMode);
    EXPECT_EQ(m32->words, (std::vector<std::uint32_t>{(4u << 16) | kExecutionMode, entry->words[2], 4459u, 32u}));
    EXPECT_EQ(m64->words, (std::vector<std::uint32_t>{(4u << 16) | kExecutionMode, entry->words[2], 4459u, 64u}));
    EXPECT_EQ(z32->words, (std::vector<std::uint32_t>{(4u << 16) | kExecutionMode, entry->words[2], 4461u, 32u}));
  }
}

TEST(SpirvPatch, RejectsWhatIsNotSpirv) {
  const std::vector<std::uint32_t> junk{1, 2, 3, 4, 5, 6};
  EXPECT_THROW(with_float_controls(junk, {.denorm_preserve_f32 = true}), nxv::Error);
}

}  // namespace
}  // namespace nxv::vulkan
