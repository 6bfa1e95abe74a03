// The runtime's batching, barriers, pipelines and thread safety, through runtime.hpp and the test shaders.
#include <gtest/gtest.h>

#include <thread>

#include "nxv/error.hpp"
#include "support/runtime.hpp"

namespace nxv::vulkan::test {
namespace {

// 100 dependent dispatches ping-ponging between two buffers (each reads what the previous one wrote), then one
// download. Returns the downloaded values.
std::vector<float> dependent_chain(Runtime& rt, std::size_t n) {
  std::vector<float> start(n);
  for (std::size_t i = 0; i < n; ++i) start[i] = static_cast<float>(i);
  BufferPtr a = upload_floats(rt, start);
  BufferPtr b = rt.allocate(n * sizeof(float));
  for (int step = 0; step < 100; ++step) step % 2 == 0 ? add_scalar(rt, a, b, n, 1.0f) : add_scalar(rt, b, a, n, 1.0f);
  return download_floats(rt, a, n);
}

TEST(VulkanRuntime, DependentChainWithDefaultCapSubmitsAtMostTwice) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  rt.flush();
  BatchMaxGuard cap(64);
  const Counters before = counters();
  const auto result = dependent_chain(rt, 1000);
  const Counters after = counters();
  EXPECT_EQ(after.dispatches - before.dispatches, 100u);
  EXPECT_LE(after.submits - before.submits, 2u);
  // Staged transfers add a barrier after the upload copy and one before the download copy.
  const std::uint64_t transfer_barriers = maps_device_memory(rt) ? 0 : 2;
  EXPECT_EQ(after.barriers - before.barriers, 99u + transfer_barriers)
      << "one barrier between each pair of dependent dispatches";
  for (std::size_t i = 0; i < result.size(); ++i) ASSERT_EQ(result[i], static_cast<float>(i) + 100.0f) << i;
}

TEST(VulkanRuntime, DependentChainWithBatchMaxZeroSubmitsEveryDispatch) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  rt.flush();
  std::vector<float> batched;
  {
    BatchMaxGuard cap(64);
    batched = dependent_chain(rt, 1000);
  }
  BatchMaxGuard cap(0);
  const Counters before = counters();
  const auto result = dependent_chain(rt, 1000);
  const Counters after = counters();
  const std::uint64_t download_submits = maps_device_memory(rt) ? 0 : 1;  // the readback copy
  EXPECT_EQ(after.submits - before.submits, 100u + download_submits);
  EXPECT_EQ(after.fence_waits - before.fence_waits, 100u + download_submits);
  EXPECT_EQ(result, batched);
}

TEST(VulkanRuntime, IndependentDispatchesRecordNoBarrier) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  rt.flush();
  BatchMaxGuard cap(64);
  BufferPtr x = upload_floats(rt, std::vector<float>(256, 1.0f));
  std::vector<BufferPtr> outputs;
  for (int i = 0; i < 10; ++i) outputs.push_back(rt.allocate(256 * sizeof(float)));
  add_scalar(rt, x, outputs[0], 256, 0.0f);  // after the upload (a staged copy needs a barrier first)
  const Counters before = counters();
  for (int i = 1; i < 10; ++i) add_scalar(rt, x, outputs[i], 256, static_cast<float>(i));
  EXPECT_EQ(counters().barriers - before.barriers, 0u) << "dispatches reading one buffer share no hazard";
  for (int i = 0; i < 10; ++i) EXPECT_EQ(download_floats(rt, outputs[i], 256)[255], 1.0f + static_cast<float>(i));
}

TEST(VulkanRuntime, InPlaceUpdatesAreOrdered) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  BufferPtr x = rt.allocate(100 * sizeof(std::uint32_t));
  const std::vector<std::uint32_t> zeros(100, 0);
  rt.upload(x, std::as_bytes(std::span(zeros)));
  for (int i = 0; i < 200; ++i) increment(rt, x, 100);
  std::vector<std::uint32_t> out(100);
  rt.download(x, std::as_writable_bytes(std::span(out)));
  EXPECT_EQ(out, std::vector<std::uint32_t>(100, 200));
}

TEST(VulkanRuntime, SpecializationConstantsMakeOnePipelineEach) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  const std::int32_t c12[] = {1, 2}, c34[] = {3, 4}, c99[] = {9, 9};
  const Pipeline* p12 = rt.pipeline("test_fill_constant", c12);
  const std::uint64_t created = counters().pipelines_created;
  const Pipeline* p34 = rt.pipeline("test_fill_constant", c34);
  const Pipeline* p99 = rt.pipeline("test_fill_constant", c99);
  EXPECT_EQ(rt.pipeline("test_fill_constant", c12), p12) << "a cached pipeline is returned again";
  EXPECT_EQ(counters().pipelines_created - created, 2u);
  EXPECT_NE(p12, p34);
  BufferPtr y = rt.allocate(70 * sizeof(std::int32_t));
  std::int32_t out[70];
  for (auto [p, expected] : {std::pair{p12, 1002}, std::pair{p34, 3004}, std::pair{p99, 9009}}) {
    rt.dispatch(p, {{&y, true}}, push_bytes(std::uint32_t{70}), 2);
    rt.download(y, std::as_writable_bytes(std::span(out)));
    EXPECT_EQ(out[0], expected);
    EXPECT_EQ(out[69], expected);
  }
}

TEST(VulkanRuntime, UnknownShaderNameThrows) {
  NXV_REQUIRE_VULKAN();
  try {
    runtime().pipeline("no_such_shader");
    FAIL() << "expected nxv::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_shader"), std::string::npos) << e.what();
  }
}

TEST(VulkanRuntime, MisusedDispatchThrows) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  const Pipeline* add = rt.pipeline("test_add_scalar");
  BufferPtr x = rt.allocate(16);
  EXPECT_THROW(rt.dispatch(add, {{&x, false}}, push_bytes(std::uint64_t{0}), 1), Error) << "one binding of two";
  const std::byte too_many[256] = {};
  EXPECT_THROW(rt.dispatch(add, {{&x, false}, {&x, true}}, too_many, 1), Error) << "push constants over 128 bytes";
  EXPECT_THROW(rt.dispatch(add, {{&x, false}, {&x, true}}, push_bytes(std::uint64_t{0}), 0xffffffffu), Error);
  increment(rt, x, 4);  // the runtime still works
  rt.flush();
}

TEST(VulkanRuntime, ZeroByteBuffersWork) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  BufferPtr empty = rt.allocate(0);
  EXPECT_EQ(empty->size(), 0u);
  rt.upload(empty, {});
  add_scalar(rt, empty, empty, 0, 1.0f);
  rt.download(empty, {});
  rt.flush();
}

TEST(VulkanRuntime, BuffersDroppedWhileTheirWorkIsPendingStillWork) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  rt.flush();
  BatchMaxGuard cap(64);
  const std::size_t n = 4096;
  BufferPtr result = rt.allocate(n * sizeof(float));
  const MemoryStats start = memory_stats();
  {
    BufferPtr x = upload_floats(rt, std::vector<float>(n, 1.0f));
    BufferPtr y = rt.allocate(n * sizeof(float));
    add_scalar(rt, x, y, n, 1.0f);
    add_scalar(rt, y, result, n, 1.0f);
  }  // x and y are dropped here, their dispatches still pending
  EXPECT_GT(memory_stats().bytes_in_use, start.bytes_in_use) << "pending work keeps dropped buffers alive";
  EXPECT_EQ(download_floats(rt, result, n), std::vector<float>(n, 3.0f));
  const MemoryStats end = memory_stats();
  EXPECT_EQ(end.bytes_in_use, start.bytes_in_use) << "dropped buffers return once their batch completed";
  EXPECT_GE(end.bytes_cached, 2 * n * sizeof(float)) << "...to the cache, not to the driver";
}

TEST(VulkanRuntime, EightThreadsDispatchAndDownloadAtOnce) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  std::vector<std::thread> threads;
  std::vector<int> failures(8, 0);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 40; ++round) {
        const std::size_t n = 100 + 37 * t;
        BufferPtr x = upload_floats(rt, std::vector<float>(n, static_cast<float>(t)));
        BufferPtr y = rt.allocate(n * sizeof(float));
        for (int step = 0; step < 6; ++step)
          step % 2 == 0 ? add_scalar(rt, x, y, n, 1.0f) : add_scalar(rt, y, x, n, 1.0f);
        if (download_floats(rt, x, n) != std::vector<float>(n, static_cast<float>(t + 6))) ++failures[t];
      }
    });
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures, std::vector<int>(8, 0));
}

// Held by a static object, so it outlives the default runtime, which is shut down by an exit handler: the
// process must still exit cleanly (the device is then kept, not destroyed after the driver's exit handlers).
BufferPtr g_buffer_alive_at_exit;

TEST(VulkanRuntime, BuffersMayOutliveTheRuntimeAtExit) {
  NXV_REQUIRE_VULKAN();
  g_buffer_alive_at_exit = upload_floats(runtime(), {1.0f, 2.0f});
  increment(runtime(), g_buffer_alive_at_exit, 2);  // pending at exit
}

}  // namespace
}  // namespace nxv::vulkan::test
