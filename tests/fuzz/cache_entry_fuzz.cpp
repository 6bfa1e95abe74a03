// The cache file reader (src/vulkan/runtime/disk_cache.hpp) as the fusion compiler's SPIR-V cache uses it: the input
// is a whole cache file, parsed against kind "SPRV" and key "fuzz" (the seeds carry both, so mutations reach the
// payload); a payload that passes is checked as SPIR-V (spirv_check.hpp), and one that passes that is walked as the
// runtime walks a module before creating it (spirv_patch.hpp). No device: nothing here creates a Vulkan object.
#include <cstring>
#include <string_view>

#include "fuzz.hpp"
#include "vulkan/runtime/disk_cache.hpp"
#include "vulkan/runtime/spirv_check.hpp"
#include "vulkan/runtime/spirv_patch.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace nxv::vulkan;
  constexpr std::string_view key = "fuzz";
  const ParsedCacheEntry entry = parse_cache_entry(nxv::fuzz::bytes(data, size), "SPRV", std::as_bytes(std::span(key)));
  if (entry.payload.has_value() == !entry.problem.empty()) std::abort();  // exactly one of the two
  if (!entry.payload || !spirv_problem(*entry.payload).empty()) return 0;
  std::vector<std::uint32_t> words(entry.payload->size() / 4);
  std::memcpy(words.data(), entry.payload->data(), entry.payload->size());
  try {
    (void)count_bindings(words);
    (void)with_float_controls(words, {.denorm_preserve_f32 = true, .signed_zero_inf_nan_f32 = true});
  } catch (const nxv::Error&) {
    std::abort();  // a module the validator accepts is well-formed: the walkers must take it
  }
  return 0;
}
