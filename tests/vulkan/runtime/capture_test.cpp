// Capture and replay (runtime.hpp's begin_capture / end_capture / replay, batch.hpp's Recording): a recording runs
// once at end_capture and again on every replay, reading what its buffers hold at that time, ordered after the
// work before it and before the work after; buffers dropped during a capture are handed out again to later
// allocations of the same capture (memory shared by liveness) with the barriers that reuse needs; whatever
// cannot be replayed spoils the capture without changing any result.
#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

#include "nxv/error.hpp"
#include "support/runtime.hpp"
#include "vulkan/kernels/kernels.hpp"
#include "vulkan/runtime/diagnostics.hpp"

namespace nxv::vulkan::test {
namespace {

std::vector<float> ramp(std::size_t n, float start) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = start + static_cast<float>(i);
  return v;
}

// The first `bytes` of src into dst (a compiled call's input copy, recorded into the pending batch).
void copy(const BufferPtr& src, const BufferPtr& dst, std::size_t bytes) {
  kernels::copy_buffers(std::vector<kernels::BufferCopy>{{src, dst, bytes}});
}

std::vector<float> plus(std::vector<float> v, float value) {
  for (float& x : v) x += value;
  return v;
}

TEST(VulkanCapture, ReplaysReadTheirInputsAndOrderAgainstWorkAround) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  constexpr std::uint32_t n = 1000;
  const BufferPtr input = rt.allocate(n * sizeof(float)), output = rt.allocate(n * sizeof(float));
  const BufferPtr after = rt.allocate(n * sizeof(float));
  const BufferPtr source = upload_floats(rt, ramp(n, 0));
  copy(source, input, n * sizeof(float));
  const auto before = counters();
  ASSERT_TRUE(rt.begin_capture());
  const BufferPtr middle = rt.allocate(n * sizeof(float));
  add_scalar(rt, input, middle, n, 0.5f);
  add_scalar(rt, middle, output, n, 1.0f);
  const RecordingPtr recording = rt.end_capture();
  ASSERT_NE(recording, nullptr);
  EXPECT_EQ(download_floats(rt, output, n), plus(ramp(n, 0), 1.5f)) << "end_capture runs the recording once";
  EXPECT_EQ(counters().dispatches - before.dispatches, 2u);
  EXPECT_EQ(stats(*recording).dispatches, 2u);

  for (int call = 1; call <= 3; ++call) {
    // New input, written just before the replay, and the output changed just after it in the same batch.
    const BufferPtr next = upload_floats(rt, ramp(n, static_cast<float>(100 * call)));
    copy(next, input, n * sizeof(float));
    const auto c = counters();
    rt.replay(recording);
    add_scalar(rt, output, after, n, 1.0f);
    EXPECT_EQ(download_floats(rt, after, n), plus(ramp(n, static_cast<float>(100 * call)), 2.5f)) << "call " << call;
    EXPECT_EQ(counters().dispatches - c.dispatches, 3u);
    EXPECT_EQ(counters().replays - c.replays, 1u);
  }
}

TEST(VulkanCapture, ReplaysQueuedTogetherStayInOrder) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  constexpr std::uint32_t n = 4096;
  std::vector<std::uint32_t> start(n);
  for (std::uint32_t i = 0; i < n; ++i) start[i] = 3 * i;
  const BufferPtr x = rt.allocate(n * sizeof(std::uint32_t));
  rt.upload(x, std::as_bytes(std::span(start)));
  rt.flush();
  ASSERT_TRUE(rt.begin_capture());
  increment(rt, x, n);  // in place: every replay depends on the one before
  const RecordingPtr recording = rt.end_capture();
  ASSERT_NE(recording, nullptr);
  {
    BatchMaxGuard one_batch_per_replay(1);  // several submitted replays of one recording in flight at once
    for (int i = 0; i < 10; ++i) rt.replay(recording);
  }
  std::vector<std::uint32_t> got(n);
  rt.download(x, std::as_writable_bytes(std::span(got)));
  for (std::uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], 3 * i + 11) << "element " << i;
}

TEST(VulkanCapture, DroppedBuffersAreReusedWithinACaptureInOrder) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  constexpr std::uint32_t n = 2048;
  const BufferPtr x = upload_floats(rt, ramp(n, 1));
  const BufferPtr result = rt.allocate(n * sizeof(float));
  rt.flush();
  ASSERT_TRUE(rt.begin_capture());
  BufferPtr a = rt.allocate(n * sizeof(float));
  add_scalar(rt, x, a, n, 10.0f);  // a = x + 10
  BufferPtr b = rt.allocate(n * sizeof(float));
  add_scalar(rt, a, b, n, 100.0f);  // b = x + 110
  Buffer* const a_address = a.get();
  a.reset();  // a is dead: its memory may hold the next value
  BufferPtr c = rt.allocate(n * sizeof(float));
  EXPECT_EQ(c.get(), a_address) << "a buffer nobody holds any more is handed out again";
  add_scalar(rt, b, c, n, 1000.0f);  // c = x + 1110, written where a was read (write-after-read)
  BufferPtr d = rt.allocate(n * sizeof(float));
  EXPECT_NE(d.get(), b.get()) << "b is still held";
  add_scalar(rt, c, result, n, 0.0f);
  const RecordingPtr recording = rt.end_capture();
  ASSERT_NE(recording, nullptr);
  const RecordingStats s = stats(*recording);
  EXPECT_EQ(s.allocations, 4u);
  EXPECT_EQ(s.buffers, 3u);  // a/c, b, d
  EXPECT_EQ(s.requested_bytes, 4u * n * sizeof(float));
  EXPECT_EQ(download_floats(rt, result, n), plus(ramp(n, 1), 1110.0f));
  copy(upload_floats(rt, ramp(n, 7)), x, n * sizeof(float));
  rt.replay(recording);
  EXPECT_EQ(download_floats(rt, result, n), plus(ramp(n, 7), 1110.0f));
}

TEST(VulkanCapture, AnUploadOrDownloadSpoilsTheCaptureButNotTheResults) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  constexpr std::uint32_t n = 512;
  const BufferPtr x = upload_floats(rt, ramp(n, 0));
  const BufferPtr y = rt.allocate(n * sizeof(float)), z = rt.allocate(n * sizeof(float));
  rt.flush();

  ASSERT_TRUE(rt.begin_capture());
  add_scalar(rt, x, y, n, 1.0f);
  EXPECT_EQ(download_floats(rt, y, n), plus(ramp(n, 0), 1.0f)) << "a download inside a capture sees the work before it";
  add_scalar(rt, y, z, n, 1.0f);
  EXPECT_EQ(rt.end_capture(), nullptr);
  EXPECT_EQ(download_floats(rt, z, n), plus(ramp(n, 0), 2.0f));

  ASSERT_TRUE(rt.begin_capture());
  add_scalar(rt, x, y, n, 3.0f);
  const BufferPtr w = upload_floats(rt, ramp(n, 50));
  add_scalar(rt, w, z, n, 1.0f);
  EXPECT_EQ(rt.end_capture(), nullptr);
  EXPECT_EQ(download_floats(rt, y, n), plus(ramp(n, 0), 3.0f));
  EXPECT_EQ(download_floats(rt, z, n), plus(ramp(n, 50), 1.0f));

  ASSERT_TRUE(rt.begin_capture());
  add_scalar(rt, x, y, n, 4.0f);
  rt.flush();
  EXPECT_EQ(rt.end_capture(), nullptr);
  EXPECT_EQ(download_floats(rt, y, n), plus(ramp(n, 0), 4.0f));
}

TEST(VulkanCapture, WorkFromAnotherThreadSpoilsTheCaptureAndOneCaptureRunsAtATime) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  constexpr std::uint32_t n = 256;
  const BufferPtr x = upload_floats(rt, ramp(n, 0));
  const BufferPtr y = rt.allocate(n * sizeof(float)), z = rt.allocate(n * sizeof(float));
  rt.flush();
  ASSERT_TRUE(rt.begin_capture());
  add_scalar(rt, x, y, n, 1.0f);
  bool second_capture = true;
  std::thread other([&] {
    second_capture = rt.begin_capture();
    add_scalar(rt, x, z, n, 2.0f);  // not part of the first thread's recording
  });
  other.join();
  EXPECT_FALSE(second_capture);
  EXPECT_EQ(rt.end_capture(), nullptr);
  EXPECT_EQ(download_floats(rt, y, n), plus(ramp(n, 0), 1.0f));
  EXPECT_EQ(download_floats(rt, z, n), plus(ramp(n, 0), 2.0f));
  ASSERT_TRUE(rt.begin_capture()) << "a spoiled capture leaves the runtime free for the next";
  EXPECT_NE(rt.end_capture(), nullptr);
}

TEST(VulkanCapture, MisuseIsAnError) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  EXPECT_THROW(rt.replay(nullptr), Error);
  EXPECT_EQ(rt.end_capture(), nullptr) << "ending without a capture";
}

// Run at exit after the default runtime's shutdown (registered before the runtime exists, and atexit handlers run in
// reverse): the exit status says whether any recording's command pool was leaked.
void exit_with_leaked_recordings() { std::_Exit(leaked_recordings() == 0 ? 0 : 3); }

// Leaves a replayed recording whose last reference its batch holds, and an unfinished capture, for the exit.
[[noreturn]] void exit_with_recordings_pending() {
  std::atexit(exit_with_leaked_recordings);
  if (!available()) std::exit(0);  // nothing to check without a device
  Runtime& rt = runtime();
  constexpr std::uint32_t n = 256;
  const BufferPtr x = upload_floats(rt, ramp(n, 0));
  const BufferPtr y = rt.allocate(n * sizeof(float));
  if (!rt.begin_capture()) std::_Exit(4);
  add_scalar(rt, x, y, n, 1.0f);
  RecordingPtr recording = rt.end_capture();
  if (recording == nullptr) std::_Exit(5);
  rt.replay(recording);
  recording.reset();
  if (!rt.begin_capture()) std::_Exit(6);
  add_scalar(rt, x, y, n, 2.0f);
  std::exit(0);
}

// At exit the runtime's final flush releases the replayed recording and its destruction the unfinished capture;
// both happen while the device is alive, so neither may be leaked (LeakSanitizer found the first one's pool when
// shutdown marked the runtime dead before that flush). In a child process of its own, started afresh (threadsafe
// style), so that the runtime is created after the checking exit handler and so shut down before it runs.
TEST(VulkanCaptureDeathTest, RecordingsReleasedAtExitAreDestroyedNotLeaked) {
  // Known gap, found by the validation pass: with VK_LAYER_KHRONOS_validation loaded, work still pending at exit
  // crashes inside the layer during the runtime's final flush (a std::map of the layer's already destroyed: its
  // function-local statics, made after our exit handler was registered, are torn down before it runs).
  if (validation_requested()) GTEST_SKIP() << "exit with pending work under the validation layer (known gap)";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(exit_with_recordings_pending(), ::testing::ExitedWithCode(0), "")
      << "exit status 3: a recording released at shutdown leaked its command pool";
}
}  // namespace
}  // namespace nxv::vulkan::test
