// The discrete-GPU transfer path (staging ring uploads, readback downloads), forced on this machine's
// unified-memory device with RuntimeOptions::force_staging.
#include <gtest/gtest.h>

#include <numeric>

#include "support/runtime.hpp"

namespace nxv::vulkan::test {
namespace {

std::unique_ptr<Runtime> staged_runtime() { return make_runtime({.force_staging = true}); }

TEST(VulkanStaging, UploadDispatchDownloadRoundTrips) {
  NXV_REQUIRE_VULKAN();
  auto rt = staged_runtime();
  BatchMaxGuard cap(64);
  std::vector<float> values(5000);
  std::iota(values.begin(), values.end(), 0.0f);
  const Counters before = counters();
  BufferPtr x = upload_floats(*rt, values);
  BufferPtr y = rt->allocate(values.size() * sizeof(float));
  for (int step = 0; step < 100; ++step)
    step % 2 == 0 ? add_scalar(*rt, x, y, 5000, 1.0f) : add_scalar(*rt, y, x, 5000, 1.0f);
  const auto result = download_floats(*rt, x, values.size());
  EXPECT_LE(counters().submits - before.submits, 2u) << "the upload copy rides in the first batch";
  for (std::size_t i = 0; i < values.size(); ++i) ASSERT_EQ(result[i], values[i] + 100.0f) << i;
}

TEST(VulkanStaging, BatchMaxZeroSubmitsEachDispatchAndTheDownload) {
  NXV_REQUIRE_VULKAN();
  auto rt = staged_runtime();
  BatchMaxGuard cap(0);
  BufferPtr x = upload_floats(*rt, std::vector<float>(100, 1.0f));
  BufferPtr y = rt->allocate(100 * sizeof(float));
  const Counters before = counters();
  for (int step = 0; step < 100; ++step)
    step % 2 == 0 ? add_scalar(*rt, x, y, 100, 1.0f) : add_scalar(*rt, y, x, 100, 1.0f);
  EXPECT_EQ(download_floats(*rt, x, 100), std::vector<float>(100, 101.0f));
  EXPECT_EQ(counters().submits - before.submits, 101u) << "100 dispatches and the readback copy";
}

TEST(VulkanStaging, TransfersLargerThanTheRingAndReadbackBufferArriveWhole) {
  NXV_REQUIRE_VULKAN();
  auto rt = staged_runtime();
  const std::size_t n = (40 << 20) / sizeof(std::uint32_t);  // 40 MiB: past the 32 MiB ring, 16 MiB readback
  std::vector<std::uint32_t> values(n);
  std::iota(values.begin(), values.end(), 7u);
  BufferPtr x = rt->allocate(n * sizeof(std::uint32_t));
  rt->upload(x, std::as_bytes(std::span(values)));
  const std::uint32_t incremented = 1 << 20;  // within one dispatch's 65535 workgroups of 64
  increment(*rt, x, incremented);
  std::vector<std::uint32_t> out(n);
  rt->download(x, std::as_writable_bytes(std::span(out)));
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], values[i] + (i < incremented ? 1 : 0)) << i;
}

TEST(VulkanStaging, ARingSizedUploadAfterASmallOneFits) {
  NXV_REQUIRE_VULKAN();
  auto rt = staged_runtime();
  // The small upload leaves the ring's head off 0; the next one's first piece is the whole 32 MiB ring, which fits
  // only once the ring has emptied and starts over (it used to find no room and crash).
  BufferPtr small = upload_floats(*rt, std::vector<float>(3, 2.0f));
  const std::size_t n = (40 << 20) / sizeof(std::uint32_t);
  std::vector<std::uint32_t> values(n);
  std::iota(values.begin(), values.end(), 11u);
  BufferPtr x = rt->allocate(n * sizeof(std::uint32_t));
  rt->upload(x, std::as_bytes(std::span(values)));
  std::vector<std::uint32_t> out(n);
  rt->download(x, std::as_writable_bytes(std::span(out)));
  EXPECT_EQ(out, values);
  EXPECT_EQ(download_floats(*rt, small, 3), std::vector<float>(3, 2.0f));
}

TEST(VulkanStaging, ManySmallUploadsWrapTheRing) {
  NXV_REQUIRE_VULKAN();
  auto rt = staged_runtime();
  BatchMaxGuard cap(64);
  const std::uint32_t n = 1 << 20;  // 4 MiB each: 20 uploads go round the 32 MiB ring more than twice
  std::vector<BufferPtr> outputs;
  for (int i = 0; i < 20; ++i) {
    BufferPtr part = upload_floats(*rt, std::vector<float>(n, static_cast<float>(i)));
    outputs.push_back(rt->allocate(n * sizeof(float)));
    add_scalar(*rt, part, outputs.back(), n, 1.0f);
  }  // each part is dropped while its copy and dispatch are pending
  for (int i = 0; i < 20; ++i) {
    const auto out = download_floats(*rt, outputs[i], n);
    EXPECT_EQ(out.front(), static_cast<float>(i + 1)) << i;
    EXPECT_EQ(out.back(), static_cast<float>(i + 1)) << i;
  }
}

}  // namespace
}  // namespace nxv::vulkan::test
