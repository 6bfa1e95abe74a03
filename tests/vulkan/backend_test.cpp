// The Vulkan backend's own checks (src/vulkan/backend.cpp): a tensor larger than a device buffer is refused before
// anything is built, on the device or on the host.
#include <gtest/gtest.h>

#include <string>

#include "nxv/fallback.hpp"
#include "nxv/ops.hpp"
#include "nxv/vulkan.hpp"
#include "support/expect_error.hpp"
#include "support/parity.hpp"

namespace nxv {
namespace {

using nxv::testing::error_of;

// 2^32 + 1 bytes pass the shaders' uint32 indexing, so creation would run on the host fallback (4 GiB built
// there, 86 s and 8.4 GB under lavapipe) before the upload failed. Now no fallback runs at all.
TEST(VulkanBackend, TensorsPastTheBufferLimitAreRefusedBeforeTheHostBuildsThem) {
  NXV_REQUIRE_VULKAN();
  Backend& vk = vulkan::backend();
  const std::int64_t past_u32 = (std::int64_t{1} << 32) + 1;
  std::string error;
  const std::uint64_t fallbacks =
      fallback::count_total([&] { error = error_of([&] { zeros({past_u32}, DType::u8, vk); }); });
  EXPECT_EQ(fallbacks, 0u);
  EXPECT_NE(error.find("full: a u8[4294967297] tensor needs 4294967297 bytes"), std::string::npos) << error;
  EXPECT_NE(error.find("maxStorageBufferRange"), std::string::npos) << error;
  EXPECT_NE(error_of([&] { iota({past_u32}, 0, DType::u8, vk); }).find("iota"), std::string::npos);
  EXPECT_NE(error_of([&] { zeros({1000000000000}, DType::f32, vk); }).find("full"), std::string::npos);
}

// A refused tensor in the middle of pending work leaves that work intact.
TEST(VulkanBackend, ARefusedTensorMidBatchLeavesPendingWorkIntact) {
  NXV_REQUIRE_VULKAN();
  Backend& vk = vulkan::backend();
  const Tensor x = iota({4}, 0, DType::f32, vk);
  const Tensor y = x + x;  // recorded, not yet submitted
  EXPECT_THROW(iota({1000000000000}, 0, DType::f32, vk), Error);
  const Tensor z = y + 1.0;
  EXPECT_EQ(z.to_vector<float>(), (std::vector<float>{1, 3, 5, 7}));
}

}  // namespace
}  // namespace nxv
