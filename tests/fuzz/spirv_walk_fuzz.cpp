// The SPIR-V walkers (src/vulkan/runtime/spirv_patch.hpp: count_bindings, capabilities,
// without_unused_width_capabilities, with_float_controls) on arbitrary words,
// whatever their word counts say: refused with nxv::Error or walked, never read past the end. The input's first
// byte picks the float-control modes asked for; the rest are the words (a whole multiple of 4 bytes, in a heap
// block of exactly that size so ASan sees any overread), with a SPIR-V header put in front unless the input
// begins with the magic number, so that most inputs reach the instruction walk.
#include <cstring>

#include "fuzz.hpp"
#include "vulkan/runtime/spirv_patch.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace nxv::vulkan;
  if (size == 0) return 0;
  const std::uint8_t modes = data[0];
  const FloatControls controls{.denorm_preserve_f32 = (modes & 1) != 0,
                               .denorm_preserve_f64 = (modes & 2) != 0,
                               .signed_zero_inf_nan_f32 = (modes & 4) != 0,
                               .signed_zero_inf_nan_f64 = (modes & 8) != 0};
  const std::size_t count = (size - 1) / 4;
  std::uint32_t first = 0;
  if (count > 0) std::memcpy(&first, data + 1, 4);
  const bool headed = first == 0x07230203u;
  std::vector<std::uint32_t> words(count + (headed ? 0 : 5));
  constexpr std::uint32_t kHeader[5] = {0x07230203u, 0x00010500u, 0, 64, 0};  // magic, SPIR-V 1.5, bound 64
  if (!headed) std::memcpy(words.data(), kHeader, sizeof kHeader);
  if (count > 0) std::memcpy(words.data() + (headed ? 0 : 5), data + 1, count * 4);
  try {
    (void)count_bindings(words);
  } catch (const nxv::Error&) {
  }
  try {
    (void)capabilities(without_unused_width_capabilities(words));
  } catch (const nxv::Error&) {
  }
  try {
    const std::vector<std::uint32_t> patched = with_float_controls(words, controls);
    (void)count_bindings(patched);  // what the runtime does next
  } catch (const nxv::Error&) {
  }
  return 0;
}
