// The caching allocator through the runtime: size classes, reuse, limits and out-of-memory handling.
#include <gtest/gtest.h>

#include <string>

#include "nxv/error.hpp"
#include "support/expect_error.hpp"
#include "support/runtime.hpp"

namespace nxv::vulkan::test {
namespace {

using nxv::testing::error_of;

TEST(VulkanMemory, RequestsRoundUpToQuarterPowerOfTwoClasses) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  for (auto [bytes, size_class] : {std::pair<std::size_t, std::uint64_t>{1, 256},
                                   {256, 256},
                                   {257, 320},
                                   {1000, 1024},
                                   {1025, 1280},
                                   {3 << 20, 3 << 20}}) {
    const std::uint64_t before = memory_stats().bytes_in_use;
    BufferPtr b = rt.allocate(bytes);
    EXPECT_EQ(b->size(), bytes);
    EXPECT_EQ(memory_stats().bytes_in_use - before, size_class) << bytes << " bytes";
  }
}

TEST(VulkanMemory, FreedBuffersAreReusedWithoutNewDeviceAllocations) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  rt.allocate(5 << 20);  // warm the 5 MiB class
  // Buffers that work an earlier test of the same process left pending hold are released by the flush, not
  // during this test's own (the whole suite runs in one process under the validation and sanitizer passes).
  rt.flush();
  const MemoryStats before = memory_stats();
  for (int i = 0; i < 20; ++i) {
    BufferPtr b = rt.allocate((5 << 20) - i * 1000);  // all in one class
    increment(rt, b, 16);
    rt.flush();  // the buffer returns to the cache once its work completed
  }
  const MemoryStats after = memory_stats();
  EXPECT_EQ(after.device_allocations, before.device_allocations);
  EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
}

TEST(VulkanMemory, ReleaseCachedMemoryFreesIdleBlocks) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  { BufferPtr b = rt.allocate(7 << 20); }
  EXPECT_GE(memory_stats().bytes_cached, std::uint64_t{7} << 20);
  release_cached_memory();
  EXPECT_EQ(memory_stats().bytes_cached, 0u);
  BufferPtr live = upload_floats(rt, {1.0f, 2.0f});
  release_cached_memory();  // must not touch live buffers
  EXPECT_EQ(download_floats(rt, live, 2), (std::vector<float>{1.0f, 2.0f}));
}

TEST(VulkanMemory, AbsurdSizesThrowAndTheRuntimeStillWorks) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  const std::string huge = error_of([&] { rt.allocate(std::size_t{1} << 62); });
  EXPECT_NE(huge.find(std::to_string(std::size_t{1} << 62)), std::string::npos) << huge;
  const std::size_t limit = rt.features().max_storage_buffer_range;
  const std::string over = error_of([&] { rt.allocate(limit + 1); });
  EXPECT_NE(over.find(std::to_string(limit + 1)), std::string::npos) << over;
  EXPECT_NE(over.find(std::to_string(limit)), std::string::npos) << "names the limit: " << over;
  BufferPtr x = upload_floats(rt, {1.0f, 2.0f, 3.0f});
  add_scalar(rt, x, x, 3, 1.0f);
  EXPECT_EQ(download_floats(rt, x, 3), (std::vector<float>{2.0f, 3.0f, 4.0f}));
}

TEST(VulkanMemory, OutOfMemoryReleasesTheCacheRetriesThenThrows) {
  NXV_REQUIRE_VULKAN();
  auto rt = make_runtime({.simulated_memory_limit = 8 << 20});
  { BufferPtr cached = rt->allocate(5 << 20); }
  EXPECT_EQ(memory_stats(*rt).bytes_cached, std::uint64_t{5} << 20);
  BufferPtr b = rt->allocate(6 << 20);  // fits only once the cached 5 MiB are released
  EXPECT_EQ(memory_stats(*rt).bytes_cached, 0u);
  const std::string error = error_of([&] { rt->allocate(3 << 20); });
  EXPECT_NE(error.find("out of device memory allocating 3145728 bytes (in use: 6291456, cached: 0)"), std::string::npos)
      << error;
  b.reset();
  BufferPtr c = rt->allocate(3 << 20);  // works again once memory is free
  increment(*rt, c, 8);
  rt->flush();
}

}  // namespace
}  // namespace nxv::vulkan::test
