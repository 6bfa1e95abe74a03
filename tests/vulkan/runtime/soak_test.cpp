// A long run of small dispatches with allocation churn: device memory, device allocations and process RSS must
// stay flat after warm-up (no per-dispatch leak in the batch, the allocator or the driver calls we make).
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "support/runtime.hpp"
#include "vulkan/runtime/context.hpp"
#include "vulkan/runtime/descriptors.hpp"

namespace nxv::vulkan::test {
namespace {

std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

TEST(VulkanSoak, HundredThousandDispatchesKeepMemoryFlat) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  BatchMaxGuard cap(64);
  // The validation layer makes each dispatch ~50x slower; a tenth of the run still covers many batches.
  const int total = validation_requested() ? 10'000 : 100'000, warm_up = total / 10;
  BufferPtr counter = rt.allocate(16 * sizeof(std::uint32_t));
  const std::vector<std::uint32_t> zeros(16, 0);
  rt.upload(counter, std::as_bytes(std::span(zeros)));
  MemoryStats warm{};
  std::uint64_t warm_rss = 0;
  for (int i = 0; i < total; ++i) {
    if (i == warm_up) {
      rt.flush();
      warm = memory_stats();
      warm_rss = resident_bytes();
    }
    if (i % 8 == 0) {  // churn: a short-lived buffer, dropped while its dispatch is pending
      BufferPtr scratch = rt.allocate(64 + (i / 8) % 7 * 64);
      increment(rt, scratch, 16);
    }
    increment(rt, counter, 16);
  }
  std::vector<std::uint32_t> out(16);
  rt.download(counter, std::as_writable_bytes(std::span(out)));
  EXPECT_EQ(out[0], static_cast<std::uint32_t>(total));
  const MemoryStats end = memory_stats();
  EXPECT_EQ(end.bytes_in_use + end.bytes_cached, warm.bytes_in_use + warm.bytes_cached);
  EXPECT_EQ(end.device_allocations, warm.device_allocations);
  const std::int64_t growth = static_cast<std::int64_t>(resident_bytes()) - static_cast<std::int64_t>(warm_rss);
  EXPECT_LT(growth, 4 << 20) << "process RSS grew by " << growth << " bytes after warm-up";
}

// Without push descriptors (a device without VK_KHR_push_descriptor, or NXV_DEVICE_MASK=push-descriptors as the
// `masked_soak` ctest and CI's validation pass run it): a million dispatches, and recordings made, replayed and
// dropped, leave the descriptor pools as they were after warm-up (each batch's sets are recycled when its fence
// signals, each recording's go with it) and every increment lands.
TEST(VulkanSoak, AMillionDispatchesWithoutPushDescriptorsKeepDescriptorPoolsFlat) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  if (rt.features().push_descriptors)
    GTEST_SKIP() << "the device pushes descriptors (NXV_DEVICE_MASK=push-descriptors)";
  BatchMaxGuard cap(64);
  const int total = validation_requested() ? 10'000 : 1'000'000, warm_up = total / 10;
  BufferPtr counter = rt.allocate(16 * sizeof(std::uint32_t));
  const std::vector<std::uint32_t> zeros(16, 0);
  rt.upload(counter, std::as_bytes(std::span(zeros)));
  std::int64_t warm_pools = 0;
  int replayed = 0;
  for (int i = 0; i < total; ++i) {
    if (i == warm_up) {
      rt.flush();
      warm_pools = descriptor_pools_alive();
    }
    if (i % 50'000 == 0) {  // a recording of 200 dispatches (two pools' worth of sets), replayed, then dropped
      ASSERT_TRUE(rt.begin_capture());
      for (int r = 0; r < 200; ++r) increment(rt, counter, 16);
      const RecordingPtr recording = rt.end_capture();
      ASSERT_NE(recording, nullptr);
      rt.replay(recording);
      replayed += 400;
    }
    increment(rt, counter, 16);
  }
  std::vector<std::uint32_t> out(16);
  rt.download(counter, std::as_writable_bytes(std::span(out)));
  EXPECT_EQ(out[0], static_cast<std::uint32_t>(total + replayed));
  rt.flush();  // every batch retired, every recording dropped
  EXPECT_GT(warm_pools, 0);
  EXPECT_EQ(descriptor_pools_alive(), warm_pools) << "descriptor pools after " << total << " dispatches";
}

}  // namespace
}  // namespace nxv::vulkan::test
