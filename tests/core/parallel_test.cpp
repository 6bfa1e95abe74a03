// detail::parallel_for: every item runs exactly once on any thread count, nothing runs for n = 0, the first
// exception comes back to the caller after the threads stop, and the threads really are several.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/parallel.hpp"

namespace nxv::detail {
namespace {

TEST(ParallelFor, EveryItemRunsOnceOnAnyThreadCount) {
  for (unsigned threads : {0u, 1u, 2u, 3u, 64u}) {
    for (std::size_t n : {0u, 1u, 2u, 7u, 100u}) {
      std::vector<std::atomic<int>> runs(n);
      parallel_for(
          n, [&](std::size_t i) { ++runs[i]; }, threads);
      for (std::size_t i = 0; i < n; ++i)
        EXPECT_EQ(runs[i].load(), 1) << "item " << i << " of " << n << ", " << threads;
    }
  }
}

TEST(ParallelFor, TheFirstExceptionReachesTheCaller) {
  std::atomic<int> started{0};
  const auto body = [&](std::size_t i) {
    ++started;
    if (i == 3) throw std::runtime_error("item 3 failed");
  };
  try {
    parallel_for(1000, body, 4);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "item 3 failed");
  }
  EXPECT_GE(started.load(), 4);
}

TEST(ParallelFor, ItemsRunOnSeveralThreads) {
  std::mutex m;
  std::set<std::thread::id> ids;
  std::atomic<int> waiting{0};
  // Each of the first two items waits (bounded) until the other has started: only two threads can finish this
  // without the timeout, and the test then sees two thread ids.
  parallel_for(
      2,
      [&](std::size_t) {
        ++waiting;
        for (int spin = 0; spin < 2000 && waiting.load() < 2; ++spin)
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        std::lock_guard lock(m);
        ids.insert(std::this_thread::get_id());
      },
      2);
  EXPECT_EQ(ids.size(), 2u);
}

}  // namespace
}  // namespace nxv::detail
