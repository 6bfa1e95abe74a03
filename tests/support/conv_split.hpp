// Choosing how the Vulkan conv kernel splits its contraction (src/vulkan/kernels/kernels.hpp's set_conv_split) for
// the scope of a test.
#pragma once
#include "vulkan/kernels/kernels.hpp"

namespace nxv::vulkan::test {

// Sets `policy` while it lives, then the automatic rule again.
class SplitPolicy {
 public:
  explicit SplitPolicy(kernels::ConvSplit policy) { kernels::set_conv_split(policy); }
  ~SplitPolicy() { kernels::set_conv_split(kernels::ConvSplit::automatic); }
  SplitPolicy(const SplitPolicy&) = delete;
  SplitPolicy& operator=(const SplitPolicy&) = delete;
};

}  // namespace nxv::vulkan::test
