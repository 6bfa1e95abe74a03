// grad through cond, fori_loop and scan (src/grad/control_vjp.cpp): finite differences on the reference backend,
// Vulkan against the reference, and grad inside jit (the backward loops recorded, not unrolled).
#include <gtest/gtest.h>

#include "nxv/control_flow.hpp"
#include "nxv/vulkan.hpp"
#include "support/grad_checks.hpp"
#include "trace/graph.hpp"

namespace nxv {
namespace {

using testing::check_grads;
using testing::grad_parity;

Tensor rand(const Shape& s, std::uint64_t seed) {
  return uniform(key(seed), s, DType::f32, -1.0, 1.0, reference_backend());
}

// A fori_loop whose body reads its counter, a captured tensor (w) and carries an integer alongside.
Tensor fori_fn(const std::vector<Tensor>& xs) {
  const Tensor& w = xs[1];
  using C = std::pair<Tensor, Tensor>;
  const C r = fori_loop(
      0, 6,
      [&](const Tensor& i, const C& c) {
        return C(sin(c.first * w) + as_type(i, c.first.dtype()) * 0.1, c.second + 1);
      },
      C(xs[0], scalar(0, DType::s32, xs[0].backend())));
  return r.first * as_type(r.second, r.first.dtype());
}

// A scan over rows of xs[1], with ys used and xs differentiated.
Tensor scan_fn(const std::vector<Tensor>& xs) {
  const Tensor& w = xs[2];
  const auto r = scan(
      [&](const Tensor& c, const Tensor& row) {
        const Tensor next = tanh(c * row + w);
        return std::pair(next, next * row);
      },
      xs[0], xs[1]);
  return concatenate({r.first, reshape(r.second, {-1})});
}

// cond on a data-dependent predicate, each branch capturing a different tensor.
Tensor cond_fn(const std::vector<Tensor>& xs) {
  const Tensor& a = xs[1];
  const Tensor& b = xs[2];
  return cond(
      greater(sum(xs[0]), 0.0), [&](const Tensor& v) { return v * a + exp(v); },
      [&](const Tensor& v) { return sin(v) * b; }, xs[0]);
}

// A cond inside a fori_loop.
Tensor cond_in_loop_fn(const std::vector<Tensor>& xs) {
  return fori_loop(
      0, 5,
      [&](const Tensor& i, const Tensor& c) {
        return cond(
            equal(remainder(i, 2), 0), [&](const Tensor& v) { return v * xs[1]; },
            [](const Tensor& v) { return cos(v); }, c);
      },
      xs[0]);
}

TEST(ControlFlowGrad, ForiLoopMatchesFiniteDifferences) {
  EXPECT_TRUE(check_grads(fori_fn, {rand({3}, 1), rand({3}, 2)}));
}

TEST(ControlFlowGrad, ScanMatchesFiniteDifferences) {
  EXPECT_TRUE(check_grads(scan_fn, {rand({2}, 3), rand({4, 2}, 4), rand({2}, 5)}));
}

TEST(ControlFlowGrad, CondMatchesFiniteDifferencesOnBothBranches) {
  const Tensor pos = abs(rand({3}, 6)) + 0.1, neg = -abs(rand({3}, 7)) - 0.1;
  EXPECT_TRUE(check_grads(cond_fn, {pos, rand({3}, 8), rand({3}, 9)}));
  EXPECT_TRUE(check_grads(cond_fn, {neg, rand({3}, 8), rand({3}, 9)}));
}

TEST(ControlFlowGrad, CondInsideALoopMatchesFiniteDifferences) {
  EXPECT_TRUE(check_grads(cond_in_loop_fn, {rand({3}, 10), rand({3}, 11)}));
}

TEST(ControlFlowGrad, ZeroIterationsPassTheCotangentThrough) {
  auto f = [](const Tensor& x) {
    return sum(fori_loop(
                   3, 3, [](const Tensor&, const Tensor& c) { return c * c; }, x) *
               2.0);
  };
  EXPECT_EQ(grad(f)(rand({2}, 12)).to_vector<float>(), (std::vector<float>{2, 2}));
}

TEST(ControlFlowGrad, InsideJitTheBackwardLoopsAreRecordedNotUnrolled) {
  auto loss = [](const Tensor& x, const Tensor& w) { return sum(fori_fn({x, w})); };
  const Tensor x = rand({3}, 1), w = rand({3}, 2);
  const TracedFunction t = trace([&](const Tensor& a, const Tensor& b) { return grad(loss)(a, b); }, x, w);
  int controls = 0;
  for (const Node& n : t.graph->nodes) controls += n.kind == NodeKind::control;
  EXPECT_GE(controls, 2) << to_string(t);
  EXPECT_LT(t.graph->nodes.size(), 100u) << "6 iterations unrolled would be longer:\n" << to_string(t);
  const Tensor eager = grad(loss)(x, w);
  const Tensor jitted = jit([&](const Tensor& a, const Tensor& b) { return grad(loss)(a, b); })(x, w);
  EXPECT_EQ(jitted.to_vector<float>(), eager.to_vector<float>());
}

TEST(ControlFlowGrad, VulkanMatchesTheReference) {
  if (!vulkan::available()) GTEST_SKIP() << "no usable Vulkan device";
  Backend& vk = vulkan::backend();
  EXPECT_TRUE(grad_parity(fori_fn, {rand({3}, 1), rand({3}, 2)}, vk, DType::f32, 1e-5, 1e-6));
  EXPECT_TRUE(grad_parity(scan_fn, {rand({2}, 3), rand({4, 2}, 4), rand({2}, 5)}, vk, DType::f32, 1e-5, 1e-6));
  EXPECT_TRUE(grad_parity(cond_fn, {rand({3}, 6), rand({3}, 8), rand({3}, 9)}, vk, DType::f32, 1e-5, 1e-6));
  EXPECT_TRUE(grad_parity(cond_in_loop_fn, {rand({3}, 10), rand({3}, 11)}, vk, DType::f32, 1e-5, 1e-6));
}

TEST(ControlFlowGrad, JitOnVulkanMatchesEagerBitForBit) {
  if (!vulkan::available()) GTEST_SKIP() << "no usable Vulkan device";
  Backend& vk = vulkan::backend();
  auto loss = [](const Tensor& x, const Tensor& w, const Tensor& rows) {
    return sum(fori_fn({x, w})) + sum(scan_fn({x, rows, w})) + sum(cond_fn({x, w, w}));
  };
  const Tensor x = rand({2}, 1).to(vk), w = rand({2}, 2).to(vk), rows = rand({4, 2}, 3).to(vk);
  const Tensor eager = grad(loss)(x, w, rows);
  const Tensor compiled =
      jit([&](const Tensor& a, const Tensor& b, const Tensor& c) { return grad(loss)(a, b, c); })(x, w, rows);
  EXPECT_EQ(compiled.to_host().to_vector<float>(), eager.to_host().to_vector<float>());
}

}  // namespace
}  // namespace nxv
