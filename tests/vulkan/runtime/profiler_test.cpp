// NXV_PROFILE (src/vulkan/runtime/profiler.hpp): a runtime started with it times every dispatch and adds the GPU time
// up per shader; without it nothing is recorded.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "support/runtime.hpp"

namespace nxv::vulkan::test {
namespace {

std::uint64_t dispatches_of(const std::string& shader) {
  const auto rows = kernel_profile();
  const auto it = std::find_if(rows.begin(), rows.end(), [&](const KernelProfile& p) { return p.shader == shader; });
  return it == rows.end() ? 0 : it->dispatches;
}

void run_adds(Runtime& rt, int n) {
  BufferPtr x = upload_floats(rt, std::vector<float>(1000, 1.0f));
  BufferPtr y = rt.allocate(1000 * sizeof(float));
  for (int i = 0; i < n; ++i) add_scalar(rt, x, y, 1000, 2.0f);
  rt.flush();
}

TEST(KernelProfileVulkan, CountsAndTimesEveryDispatchPerShader) {
  NXV_REQUIRE_VULKAN();
  setenv("NXV_PROFILE", "1", 1);
  auto rt = make_runtime({});
  unsetenv("NXV_PROFILE");
  reset_kernel_profile();
  run_adds(*rt, 7);
  if (kernel_profile().empty()) GTEST_SKIP() << "the device has no timestamps on its compute queue";
  EXPECT_EQ(dispatches_of("test_add_scalar"), 7u);
  const auto rows = kernel_profile();
  EXPECT_GT(rows.front().gpu_ms, 0.0);
  reset_kernel_profile();
  EXPECT_TRUE(kernel_profile().empty());
}

TEST(KernelProfileVulkan, NothingIsRecordedWithoutNxvProfile) {
  NXV_REQUIRE_VULKAN();
  unsetenv("NXV_PROFILE");
  auto rt = make_runtime({});
  reset_kernel_profile();
  run_adds(*rt, 3);
  EXPECT_EQ(dispatches_of("test_add_scalar"), 0u);
}

}  // namespace
}  // namespace nxv::vulkan::test
