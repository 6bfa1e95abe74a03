// The process-wide counters behind nxv::vulkan::counters(): monotonic, relaxed atomics (tests take differences).
#pragma once
#include <atomic>
#include <cstdint>

#include "nxv/vulkan.hpp"

namespace nxv::vulkan {

struct AtomicCounters {
  std::atomic<std::uint64_t> dispatches{0}, submits{0}, fence_waits{0}, barriers{0};
  std::atomic<std::uint64_t> bytes_uploaded{0}, bytes_downloaded{0}, pipelines_created{0}, replays{0};
};

inline AtomicCounters& counter_state() {
  static AtomicCounters state;
  return state;
}

inline void count(std::atomic<std::uint64_t>& counter, std::uint64_t n = 1) {
  counter.fetch_add(n, std::memory_order_relaxed);
}

}  // namespace nxv::vulkan
