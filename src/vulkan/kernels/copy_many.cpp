// Buffer-to-buffer copies, up to 8 per dispatch of src/vulkan/kernels/copy_many.comp (kernels.hpp's copy_buffers).
#include <algorithm>
#include <array>

#include "vulkan/kernels/kernels.hpp"
#include "vulkan/kernels/layout.hpp"
#include "vulkan/runtime/runtime_shaders.hpp"

namespace nxv::vulkan::kernels {

void copy_buffers(std::span<const BufferCopy> copies) {
  constexpr std::size_t kPairs = kCopiesPerDispatch;
  constexpr std::uint64_t kMaxGroupsX = 65535;
  const Pipeline* pipeline = runtime().pipeline("copy_many");
  std::vector<const BufferCopy*> pending;
  for (const BufferCopy& c : copies)
    if (c.bytes > 0) pending.push_back(&c);
  for (std::size_t at = 0; at < pending.size(); at += kPairs) {
    const std::size_t n = std::min(kPairs, pending.size() - at);
    std::array<std::uint32_t, kPairs> words{};
    std::vector<Binding> bindings(2 * kPairs);
    std::uint64_t most = 0;
    for (std::size_t p = 0; p < kPairs; ++p) {
      // Unused slots bind the first pair's buffers, which they never touch (0 words).
      const BufferCopy& c = *pending[at + (p < n ? p : 0)];
      if (p < n) {
        if (c.bytes > c.src->size() || c.bytes > c.dst->size() || (c.bytes + 3) / 4 > 0xffffffffULL)
          detail::fail("copy_buffers: got ", c.bytes, " bytes for buffers of ", c.src->size(), " and ", c.dst->size(),
                       " bytes");
        words[p] = static_cast<std::uint32_t>((c.bytes + 3) / 4);
        most = std::max<std::uint64_t>(most, words[p]);
      }
      bindings[p] = {&c.src, false};
      bindings[kPairs + p] = {&c.dst, p < n};
    }
    // copy_many.comp: 128 invocations a group
    const auto groups_x = static_cast<std::uint32_t>(std::min(kMaxGroupsX, (most + 127) / 128));
    dispatch_bindings(runtime(), pipeline, bindings, std::as_bytes(std::span(words)), groups_x,
                      static_cast<std::uint32_t>(n));
  }
}

}  // namespace nxv::vulkan::kernels
