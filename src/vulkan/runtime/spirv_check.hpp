// The check SPIR-V from outside this build (a cache file) passes before it reaches the driver, which trusts its
// input: a malformed module may crash it, and the runtime's own walkers (spirv_patch.hpp) refuse it with an error.
#pragma once
#include <cstddef>
#include <span>
#include <string>

namespace nxv::vulkan {

// Empty if `bytes` are a valid SPIR-V module for Vulkan 1.2 (the fusion compiler's target), else what is wrong:
// the word alignment, the magic number, or SPIRV-Tools' validator's first message.
std::string spirv_problem(std::span<const std::byte> bytes);

}  // namespace nxv::vulkan
