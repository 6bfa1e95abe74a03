// with_float_controls (src/vulkan/runtime/spirv_patch.hpp) on the embedded shaders: the patched module keeps every
// original instruction in order, gains exactly the capabilities, the extension and one execution mode per entry
// point, mode and width, and places them where the SPIR-V logical layout allows; it and count_bindings refuse
// malformed words without reading past them.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

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

// The words up to the middle of the last instruction longer than one word.
std::vector<std::uint32_t> cut_inside_last_long_instruction(const std::vector<std::uint32_t>& spirv) {
  std::size_t cut = 0;
  for (std::size_t i = 5; i < spirv.size(); i += spirv[i] >> 16)
    if ((spirv[i] >> 16) >= 2) cut = i + 1;
  return std::vector<std::uint32_t>(spirv.begin(), spirv.begin() + static_cast<std::ptrdiff_t>(cut));
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

// Words whose counts run past the end, or are zero, or an OpEntryPoint too short to name its function: the walkers
// (count_bindings and with_float_controls) refuse them with nxv::Error and read nothing beyond the end (the
// sanitizer build and tests/fuzz/spirv_walk_fuzz.cpp check the "nothing beyond").
TEST(SpirvPatch, MalformedInstructionsAreRefusedNotReadPastTheEnd) {
  const auto shader = embedded_shader("binary_f32");
  ASSERT_FALSE(shader.empty());
  const std::vector<std::uint32_t> good(shader.begin(), shader.end());
  const FloatControls all{.denorm_preserve_f32 = true, .signed_zero_inf_nan_f32 = true};
  EXPECT_GT(count_bindings(good), 0u);

  auto with = [&](std::vector<std::uint32_t> tail) {
    std::vector<std::uint32_t> words = good;
    words.insert(words.end(), tail.begin(), tail.end());
    return words;
  };
  const std::vector<std::pair<const char*, std::vector<std::uint32_t>>> malformed = {
      {"a word count past the end", with({(100u << 16) | 71u, 1, 33})},
      {"a decoration cut short", with({(4u << 16) | 71u, 1, 33})},
      {"a word count of zero", with({0u})},
      {"an OpEntryPoint of one word", with({(1u << 16) | 15u})},
      {"cut inside its last instruction of several words", cut_inside_last_long_instruction(good)},
      {"only a header", std::vector<std::uint32_t>(good.begin(), good.begin() + 4)},
  };
  for (const auto& [what, words] : malformed) {
    SCOPED_TRACE(what);
    std::vector<std::uint32_t> exact(words);  // a heap block of exactly these words, for ASan
    try {
      (void)count_bindings(exact);
      (void)with_float_controls(exact, all);
    } catch (const nxv::Error&) {
      continue;  // refusing is fine; reading past the end is not
    }
    ADD_FAILURE() << "accepted";
  }
}

TEST(SpirvPatch, CountBindingsDoesNotWrapAtTheLargestBinding) {
  const std::vector<std::uint32_t> words{0x07230203u, 0x00010500u, 0, 1, 0, (4u << 16) | 71u, 1, 33, 0xffffffffu};
  EXPECT_EQ(count_bindings(words), 0xffffffffu);
}

}  // namespace
}  // namespace nxv::vulkan
