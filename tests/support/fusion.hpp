// Helpers of the fusion compiler's tests: run a function eagerly on Vulkan, jitted with the Vulkan compiler and
// eagerly on the reference backend, and compare the three bit for bit.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "nxv/defn.hpp"
#include "nxv/fallback.hpp"
#include "nxv/ops.hpp"
#include "nxv/vulkan.hpp"
#include "support/parity.hpp"

namespace nxv::testing {

using MultiFn = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

// The reductions, named, for tests that run every one.
using ReduceFnPtr = Tensor (*)(const Tensor&, const OptAxes&, bool);
struct NamedReduce {
  const char* name;
  ReduceFnPtr fn;
};
inline const NamedReduce k_reduces[] = {{"sum", sum},        {"product", product}, {"max", reduce_max},
                                        {"min", reduce_min}, {"all", all},         {"any", any}};

// A producer for dtype t: arithmetic of the type (wrapping for integers), so that a reduction's input is
// computed by the generated kernel rather than read.
inline Tensor producer(const Tensor& a, const Tensor& b) {
  if (is_float(a.dtype())) return a * b + 0.5;
  return bitwise_xor(a * b, b) + 1;
}

struct FusedRun {
  std::vector<Tensor> fused, eager;
  std::uint64_t fused_dispatches = 0, eager_dispatches = 0, fused_submits = 0;
};

inline std::vector<Tensor> to_backend(const std::vector<Tensor>& ts, Backend& b) {
  std::vector<Tensor> out;
  for (const Tensor& t : ts) out.push_back(t.to(b));
  return out;
}

// Runs `fn` on `host_inputs` moved to Vulkan: eagerly, and jitted by the Vulkan compiler without replay (twice:
// the counts are those of the second call, after the first placed the constants: the graph's own dispatches); the
// replaying compiler's second call (a replay) must give the same bits. Expects no host fallback in any.
inline FusedRun run_fused_and_eager(const MultiFn& fn, const std::vector<Tensor>& host_inputs) {
  Backend& vk = vulkan::backend();
  const std::vector<Tensor> inputs = to_backend(host_inputs, vk);
  FusedRun r;
  vulkan::flush();
  EXPECT_EQ(fallback::count_total([&] {
              const auto before = vulkan::counters();
              r.eager = fn(inputs);
              r.eager_dispatches = vulkan::counters().dispatches - before.dispatches;
              vulkan::flush();
            }),
            0u);
  auto jitted = jit(fn, {.compiler = vulkan::compiler({.replay = vulkan::Replay::never})});
  auto replayed = jit(fn, {.compiler = vulkan::compiler({.replay = vulkan::Replay::always})});
  std::vector<Tensor> replay_result;
  EXPECT_EQ(fallback::count_total([&] {
              jitted(inputs);
              vulkan::flush();
              const auto before = vulkan::counters();
              r.fused = jitted(inputs);
              r.fused_dispatches = vulkan::counters().dispatches - before.dispatches;
              for (const Tensor& t : r.fused) t.to_host();
              r.fused_submits = vulkan::counters().submits - before.submits;
              replayed(inputs);
              replay_result = replayed(inputs);
            }),
            0u);
  EXPECT_EQ(replay_result.size(), r.fused.size());
  for (std::size_t i = 0; i < std::min(replay_result.size(), r.fused.size()); ++i)
    EXPECT_EQ(compare_exact(r.fused[i].to_host(), replay_result[i].to_host()), "") << "output " << i << ", replayed";
  return r;
}

// fused == eager Vulkan == reference, bit for bit (NaN == NaN), and the fused call took `dispatches` dispatches
// (-1: don't check). On a device that flushes f32 denormals, the reference comparison takes expect_parity's bound.
inline void expect_fused_exact(const std::string& what, const MultiFn& fn, const std::vector<Tensor>& given_inputs,
                               int dispatches = 1) {
  SCOPED_TRACE(what);
  const bool flush = vulkan_flushes_f32_denormals();
  std::vector<Tensor> host_inputs;
  for (const Tensor& t : given_inputs) host_inputs.push_back(flush ? flush_f32_denormals(t) : t);
  const FusedRun r = run_fused_and_eager(fn, host_inputs);
  const std::vector<Tensor> reference = fn(host_inputs);
  ASSERT_EQ(r.fused.size(), reference.size());
  for (std::size_t i = 0; i < reference.size(); ++i) {
    const Tensor fused = r.fused[i].to_host();
    EXPECT_EQ(compare_exact(r.eager[i].to_host(), fused), "") << what << ": output " << i << " vs eager";
    EXPECT_EQ(flush ? compare_exact(flush_f32_denormals(reference[i]), flush_f32_denormals(fused))
                    : compare_exact(reference[i], fused),
              "")
        << what << ": output " << i << " vs reference";
  }
  if (dispatches >= 0) EXPECT_EQ(r.fused_dispatches, static_cast<std::uint64_t>(dispatches)) << what;
}

}  // namespace nxv::testing
