// spirv_problem through SPIRV-Tools' validator (linked statically with shaderc, CMakeLists.txt).
#include "vulkan/runtime/spirv_check.hpp"

#include <spirv-tools/libspirv.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace nxv::vulkan {

std::string spirv_problem(std::span<const std::byte> bytes) {
  constexpr std::uint32_t kMagic = 0x07230203;
  if (bytes.size() < 20 || bytes.size() % 4 != 0) return "not a whole number of SPIR-V words after a header";
  std::vector<std::uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  if (words[0] != kMagic) return "not SPIR-V (bad magic number)";
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::string problem;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& at, const char* message) {
    if (problem.empty()) problem = "invalid SPIR-V at word " + std::to_string(at.index) + ": " + message;
  });
  if (tools.Validate(words.data(), words.size(), spvtools::ValidatorOptions())) return {};
  return problem.empty() ? "invalid SPIR-V" : problem;
}

}  // namespace nxv::vulkan
