// Forcing a variant of the Vulkan dot kernel (src/vulkan/kernels/dot.hpp) for the scope of a test.
#pragma once
#include <optional>

#include "vulkan/kernels/dot.hpp"

namespace nxv::vulkan::test {

// Forces `k` (nullopt: the size rule) while it lives, then restores whatever was forced before.
class ForcedDotKernel {
 public:
  explicit ForcedDotKernel(std::optional<kernels::DotKernel> k) : previous_(kernels::forced_dot_kernel()) {
    kernels::force_dot_kernel(k);
  }
  ~ForcedDotKernel() { kernels::force_dot_kernel(previous_); }
  ForcedDotKernel(const ForcedDotKernel&) = delete;
  ForcedDotKernel& operator=(const ForcedDotKernel&) = delete;

 private:
  std::optional<kernels::DotKernel> previous_;
};

}  // namespace nxv::vulkan::test
