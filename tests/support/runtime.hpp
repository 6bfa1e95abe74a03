// Helpers shared by the runtime tests: float buffers in and out, the test shaders (src/vulkan/kernels/probes/), and a
// guard that restores the batch cap.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <vector>

#include "vulkan/runtime/diagnostics.hpp"
#include "vulkan/runtime/runtime.hpp"

namespace nxv::vulkan::test {

#define NXV_REQUIRE_VULKAN() \
  if (!::nxv::vulkan::available()) GTEST_SKIP() << "no usable Vulkan device"

inline BufferPtr upload_floats(Runtime& rt, const std::vector<float>& values) {
  BufferPtr b = rt.allocate(values.size() * sizeof(float));
  rt.upload(b, std::as_bytes(std::span(values)));
  return b;
}

inline std::vector<float> download_floats(Runtime& rt, const BufferPtr& b, std::size_t n) {
  std::vector<float> out(n);
  rt.download(b, std::as_writable_bytes(std::span(out)));
  return out;
}

inline std::uint32_t groups_for(std::uint32_t n) { return n == 0 ? 1 : (n + 63) / 64; }

// y = x + value (src/vulkan/kernels/probes/add_scalar.comp).
inline void add_scalar(Runtime& rt, const BufferPtr& x, const BufferPtr& y, std::uint32_t n, float value) {
  struct Push {
    std::uint32_t n;
    float value;
  };
  const Pipeline* p = rt.pipeline("test_add_scalar");
  rt.dispatch(p, {{&x, false}, {&y, true}}, push_bytes(Push{n, value}), groups_for(n));
}

// x += 1 in place (src/vulkan/kernels/probes/increment.comp).
inline void increment(Runtime& rt, const BufferPtr& x, std::uint32_t n) {
  const Pipeline* p = rt.pipeline("test_increment");
  rt.dispatch(p, {{&x, true}}, push_bytes(n), groups_for(n));
}

class BatchMaxGuard {
 public:
  explicit BatchMaxGuard(int cap) : saved_(batch_max()) { set_batch_max(cap); }
  ~BatchMaxGuard() { set_batch_max(saved_); }
  BatchMaxGuard(const BatchMaxGuard&) = delete;
  BatchMaxGuard& operator=(const BatchMaxGuard&) = delete;

 private:
  int saved_;
};

}  // namespace nxv::vulkan::test
