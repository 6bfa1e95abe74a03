// Jitted functions shared between threads (calls take turns per function, include/nxv/defn.hpp) give every thread
// the result of a serial call, on the reference backend and on Vulkan with the fusion compiler and its replay.
// CI also runs this suite (and the other Threads/EightThreads tests) under ThreadSanitizer.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "nxv/defn.hpp"
#include "nxv/ops.hpp"
#include "nxv/vulkan.hpp"
#include "support/parity.hpp"

namespace nxv {
namespace {

// Runs `calls` calls of `f` on each of `threads` threads, each on inputs of its own, and checks every result
// against the same function evaluated eagerly.
template <class F>
void expect_serial_results(Backend& backend, F f, int threads, int calls) {
  auto fn = [](const Tensor& x, const Tensor& w) { return sum(exp(x * w) + 1.0, Axes{1}); };
  std::vector<std::string> failures(static_cast<std::size_t>(threads));
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      for (int c = 0; c < calls && failures[t].empty(); ++c) {
        const Tensor x = uniform(key(static_cast<std::uint64_t>(100 * t + c)), {16, 33}, DType::f32, -1, 1, backend);
        const Tensor w = uniform(key(7), {33}, DType::f32, -1, 1, backend);
        const std::vector<float> got = f(x, w).to_host().template to_vector<float>();
        const std::vector<float> want = fn(x.to_host(), w.to_host()).template to_vector<float>();
        if (got != want) failures[t] = "thread " + std::to_string(t) + ", call " + std::to_string(c) + " differs";
      }
    });
  for (std::thread& w : workers) w.join();
  for (const std::string& f : failures) EXPECT_EQ(f, "");
}

TEST(Threads, OneJittedFunctionCalledFromManyThreadsOnTheReferenceBackend) {
  auto f = jit([](const Tensor& x, const Tensor& w) { return sum(exp(x * w) + 1.0, Axes{1}); });
  expect_serial_results(reference_backend(), f, 4, 20);
  EXPECT_EQ(f.trace_count(), 1) << "one signature, traced once whatever the threads";
}

TEST(Threads, OneJittedFunctionCalledFromManyThreadsOnVulkan) {
  NXV_REQUIRE_VULKAN();
  for (auto replay : {vulkan::Replay::never, vulkan::Replay::always}) {
    auto f = jit([](const Tensor& x, const Tensor& w) { return sum(exp(x * w) + 1.0, Axes{1}); },
                 {.compiler = vulkan::compiler({.replay = replay})});
    expect_serial_results(vulkan::backend(), f, 4, 10);
    EXPECT_EQ(f.trace_count(), 1);
  }
}

}  // namespace
}  // namespace nxv
