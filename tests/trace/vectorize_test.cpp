// vectorize as a transformation: containers and in_axes, nesting, grad of vectorize, vectorize of grad
// (per-example gradients of an MLP equal to looping over the examples, bit for bit), under jit, custom gradients,
// an empty batch, and the errors for bad in_axes. The per-op rules are checked in batching_rules_test.cpp.
#include <gtest/gtest.h>

#include <cmath>

#include "nxv/grad.hpp"
#include "nxv/vectorize.hpp"
#include "support/parity.hpp"
#include "trace/graph.hpp"

namespace nxv {
namespace {

using testing::compare_exact;
using testing::test_uniform;

Tensor rand(const Shape& s, std::uint64_t seed, Backend& b = reference_backend()) {
  return test_uniform(DType::f32, s, seed, -1, 1).to(b);
}

Tensor row(const Tensor& x, std::int64_t i) {
  Shape starts = Shape::filled(x.rank(), 0), lengths = x.shape();
  starts[0] = i;
  lengths[0] = 1;
  return squeeze(slice(x, starts, lengths), Axes{0});
}

void expect_same(const Tensor& expected, const Tensor& got) {
  EXPECT_EQ(compare_exact(expected.to(reference_backend()), got.to(reference_backend())), "");
}

// |expected - got| <= 1e-5 (1 + |expected|) everywhere.
void expect_close(const Tensor& expected, const Tensor& got) {
  ASSERT_EQ(expected.shape(), got.shape());
  const std::vector<float> e = expected.to_vector<float>(), g = got.to_vector<float>();
  for (std::size_t i = 0; i < e.size(); ++i) EXPECT_NEAR(e[i], g[i], 1e-5 * (1 + std::abs(e[i]))) << "element " << i;
}

// A two-layer MLP on one example: x[4] -> 8 (tanh) -> 3, softmax cross-entropy against a one-hot label.
Tensor mlp_loss(const Params& p, const Tensor& x, const Tensor& label) {
  const Tensor h = tanh(dot(x, p.at("w1")) + p.at("b1"));
  const Tensor logits = dot(h, p.at("w2")) + p.at("b2");
  const Tensor shifted = logits - reduce_max(logits);
  const Tensor log_probs = shifted - log(sum(exp(shifted)));
  return -sum(label * log_probs);
}

Params mlp_params(Backend& b) {
  return {{"b1", rand({8}, 1, b)}, {"b2", rand({3}, 2, b)}, {"w1", rand({4, 8}, 3, b)}, {"w2", rand({8, 3}, 4, b)}};
}

Tensor one_hot_labels(Backend& b) { return tensor<float>({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0}, {5, 3}, b); }

// Per-example gradients: vectorize of grad, the parameters shared (4 leaves), the examples batched.
void expect_per_example_gradients(Backend& b) {
  const Params p = mlp_params(b);
  const Tensor xs = rand({5, 4}, 5, b), labels = one_hot_labels(b);
  const InAxes axes{not_batched, not_batched, not_batched, not_batched, 0, 0};
  Params got, jitted;
  const std::uint64_t fallbacks = fallback::count_total([&] {
    got = vectorize(grad(mlp_loss), axes)(p, xs, labels);
    jitted = jit(vectorize(grad(mlp_loss), axes))(p, xs, labels);  // on Vulkan, through the fusion compiler
  });
  EXPECT_EQ(fallbacks, 0u);
  ASSERT_EQ(got.size(), p.size());
  for (const auto& [name, g] : got) {
    std::vector<Tensor> rows;
    for (std::int64_t i = 0; i < 5; ++i) rows.push_back(grad(mlp_loss)(p, row(xs, i), row(labels, i)).at(name));
    SCOPED_TRACE(name);
    expect_same(stack(rows), g);
    expect_same(g, jitted.at(name));
  }
}

TEST(Vectorize, PerExampleGradientsOfAnMlpEqualTheLoopOnTheReference) {
  expect_per_example_gradients(reference_backend());
}

TEST(Vectorize, PerExampleGradientsOfAnMlpEqualTheLoopOnVulkan) {
  NXV_REQUIRE_VULKAN();
  expect_per_example_gradients(vulkan::backend());
}

// A small CNN on one example: x[1, 1, 6, 6] -> conv 2x3x3 -> relu -> 2x2 max pool -> 8 -> 3.
Tensor cnn_loss(const Params& p, const Tensor& x, const Tensor& label) {
  const Tensor features = max(conv(x, p.at("k")), 0.0);
  const Tensor pooled = window_max(features, {1, 1, 2, 2}, {.strides = {1, 1, 2, 2}});
  const Tensor logits = dot(reshape(pooled, {8}), p.at("w")) + p.at("b");
  const Tensor shifted = logits - reduce_max(logits);
  return -sum(label * (shifted - log(sum(exp(shifted)))));
}

// The kernel's gradient is a conv of two batched operands (the examples become feature groups) and the pooling's a
// window_scatter: per-example gradients of a CNN, as differentially private training needs them.
void expect_per_example_cnn_gradients(Backend& b) {
  const Params p{{"b", rand({3}, 20, b)}, {"k", rand({2, 1, 3, 3}, 21, b)}, {"w", rand({8, 3}, 22, b)}};
  const Tensor xs = rand({5, 1, 1, 6, 6}, 23, b), labels = one_hot_labels(b);
  const InAxes axes{not_batched, not_batched, not_batched, 0, 0};
  Params got;
  const std::uint64_t fallbacks = fallback::count_total([&] { got = vectorize(grad(cnn_loss), axes)(p, xs, labels); });
  EXPECT_EQ(fallbacks, 0u);
  ASSERT_EQ(got.size(), p.size());
  for (const auto& [name, g] : got) {
    std::vector<Tensor> rows;
    for (std::int64_t i = 0; i < 5; ++i) rows.push_back(grad(cnn_loss)(p, row(xs, i), row(labels, i)).at(name));
    SCOPED_TRACE(name);
    expect_same(stack(rows), g);
  }
}

TEST(Vectorize, PerExampleGradientsOfACnnEqualTheLoopOnTheReference) {
  expect_per_example_cnn_gradients(reference_backend());
}

TEST(Vectorize, PerExampleGradientsOfACnnEqualTheLoopOnVulkan) {
  NXV_REQUIRE_VULKAN();
  expect_per_example_cnn_gradients(vulkan::backend());
}

void expect_grad_of_vectorized_function(Backend& b) {
  const Params p = mlp_params(b);
  const Tensor xs = rand({5, 4}, 6, b), labels = one_hot_labels(b);
  const InAxes axes{not_batched, not_batched, not_batched, not_batched, 0, 0};
  auto batch_loss = [&](const Params& q, const Tensor& x, const Tensor& y) {
    return sum(vectorize(mlp_loss, axes)(q, x, y));
  };
  auto looped_loss = [&](const Params& q, const Tensor& x, const Tensor& y) {
    Tensor total = mlp_loss(q, row(x, 0), row(y, 0));
    for (std::int64_t i = 1; i < 5; ++i) total = total + mlp_loss(q, row(x, i), row(y, i));
    return total;
  };
  const Params got = grad(batch_loss)(p, xs, labels), expected = grad(looped_loss)(p, xs, labels);
  ASSERT_EQ(got.size(), p.size());
  // The batched backward pass sums over the examples inside its dots, the loop adds per-example gradients: equal
  // to rounding.
  for (const auto& [name, g] : got) {
    SCOPED_TRACE(name);
    expect_close(expected.at(name), g);
  }
}

TEST(Vectorize, GradOfAVectorizedFunctionOnTheReference) { expect_grad_of_vectorized_function(reference_backend()); }

TEST(Vectorize, GradOfAVectorizedFunctionOnVulkan) {
  NXV_REQUIRE_VULKAN();
  expect_grad_of_vectorized_function(vulkan::backend());
}

TEST(Vectorize, NestedVectorizeIsAPairwiseMap) {
  auto similarity = [](const Tensor& x, const Tensor& y) { return sum(x * y); };
  auto over_xs = vectorize(similarity, {0, not_batched});
  auto pairwise = vectorize(over_xs, {not_batched, 0});  // [ys, xs]
  const Tensor xs = rand({4, 5}, 7), ys = rand({3, 5}, 8);
  std::vector<Tensor> rows;
  for (std::int64_t i = 0; i < 3; ++i) {
    std::vector<Tensor> cols;
    for (std::int64_t j = 0; j < 4; ++j) cols.push_back(similarity(row(xs, j), row(ys, i)));
    rows.push_back(stack(cols));
  }
  expect_same(stack(rows), pairwise(xs, ys));
}

TEST(Vectorize, UnderJitEqualsEagerOnBothBackends) {
  auto f = [](const Tensor& x, const Tensor& w) { return tanh(dot(w, x)) * 2.0 + sum(x); };
  std::vector<Backend*> backends{&reference_backend()};
  if (vulkan::available()) backends.push_back(&vulkan::backend());
  for (Backend* b : backends) {
    SCOPED_TRACE(b->name());
    const Tensor xs = rand({6, 3}, 9, *b), w = rand({3, 3}, 10, *b);
    auto v = vectorize(f, {0, not_batched});
    auto fast = jit(v);
    expect_same(v(xs, w), fast(xs, w));
    expect_same(v(xs, w), fast(xs, w));  // the cached executable
    EXPECT_EQ(fast.trace_count(), 1);
  }
}

// A jitted function called inside vectorize's trace is inlined, so it is batched like any other.
TEST(Vectorize, OfAJittedFunction) {
  auto f = [](const Tensor& x, const Tensor& y) { return sort(x * y, 0) - reduce_min(x); };
  const Tensor xs = rand({4, 6}, 24), y = rand({6}, 25);
  auto fast = jit(f);
  std::vector<Tensor> rows;
  for (std::int64_t i = 0; i < 4; ++i) rows.push_back(f(row(xs, i), y));
  expect_same(stack(rows), vectorize(fast, {0, not_batched})(xs, y));
}

TEST(Vectorize, ContainersInAndOutAndSharedOutputsAreBroadcast) {
  auto f = [](const Params& p, const Tensor& x) {
    return std::make_tuple(p.at("a") * x, sum(p.at("b")), std::vector<Tensor>{x + 1.0});
  };
  const Params p{{"a", rand({3}, 11)}, {"b", rand({2}, 12)}};
  const Tensor xs = rand({3, 4}, 13);  // batched along axis 1: four examples
  const auto [ax, b, list] = vectorize(f, {not_batched, not_batched, 1})(p, xs);
  EXPECT_EQ(ax.shape(), (Shape{4, 3}));
  EXPECT_EQ(list[0].shape(), (Shape{4, 3}));
  expect_same(broadcast(sum(p.at("b")), {4}), b);
  expect_same(transpose(xs) * p.at("a"), ax);
}

// custom_grad inside vectorize: each example's gradient comes from the user's rule; a shared input's is summed.
TEST(Vectorize, CustomGradientsFollowTheRulePerExample) {
  auto f = custom_grad([](const Tensor& x, const Tensor& w) { return x * w; },
                       [](std::span<const Tensor>, const Tensor&, const Tensor& cotangent) {
                         return std::vector<Tensor>{cotangent * 3.0, cotangent * 5.0};
                       });
  const Tensor xs = rand({4, 2}, 14), w = rand({2}, 15);
  auto loss = [&](const std::tuple<Tensor, Tensor>& args) {
    return sum(vectorize(f, {0, not_batched})(std::get<0>(args), std::get<1>(args)));
  };
  const auto [dx, dw] = grad(loss)(std::make_tuple(xs, w));
  expect_same(full({4, 2}, 3.0), dx);
  expect_same(full({2}, 20.0), dw);  // 5 from each of the four examples
  expect_same(xs * w, vectorize(f, {0, not_batched})(xs, w));
}

// An undefined cotangent from the rule means zero, for a batched input as for a shared one.
TEST(Vectorize, CustomGradientsMayLeaveCotangentsUndefined) {
  auto f = custom_grad([](const Tensor& x, const Tensor& w) { return x * w; },
                       [](std::span<const Tensor>, const Tensor&, const Tensor& cotangent) {
                         return std::vector<Tensor>{Tensor(), cotangent * 2.0};
                       });
  const Tensor xs = rand({3, 2}, 26), w = rand({2}, 27);
  auto loss = [&](const std::tuple<Tensor, Tensor>& args) {
    return sum(vectorize(f, {0, not_batched})(std::get<0>(args), std::get<1>(args)));
  };
  const auto [dx, dw] = grad(loss)(std::make_tuple(xs, w));
  expect_same(zeros({3, 2}), dx);
  expect_same(full({2}, 6.0), dw);
}

// The batched graph has the per-example graph's size whatever the batch size: no op is run example by example.
TEST(Vectorize, TheBatchedGraphDoesNotGrowWithTheBatch) {
  const Params p = mlp_params(reference_backend());
  const InAxes axes{not_batched, not_batched, not_batched, not_batched, 0, 0};
  auto per_example_grads = vectorize(grad(mlp_loss), axes);
  auto nodes = [&](std::int64_t batch) {
    const Tensor xs = rand({batch, 4}, 28), labels = zeros({batch, 3});
    return trace(per_example_grads, p, xs, labels).graph->nodes.size();
  };
  EXPECT_EQ(nodes(2), nodes(16));
}

TEST(Vectorize, AnEmptyBatchGivesEmptyResults) {
  auto f = [](const Tensor& x, const Tensor& k) { return conv(x, k) + 1.0; };
  const Tensor xs = zeros({0, 1, 2, 5}), k = rand({3, 2, 2}, 16);
  EXPECT_EQ(vectorize(f, {0, not_batched})(xs, k).shape(), (Shape{0, 1, 3, 4}));
}

void expect_error(const std::function<void()>& call, const std::string& part) {
  try {
    call();
    ADD_FAILURE() << "expected an nxv::Error containing \"" << part << "\"";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("vectorize", 0), 0u) << e.what();
  }
}

TEST(Vectorize, BadInAxesAreErrors) {
  auto f = [](const Tensor& x, const Tensor& y) { return x + y; };
  const Tensor a = rand({3, 4}, 17), b = rand({2, 4}, 18);
  expect_error([&] { vectorize(f, {0})(a, a); }, "in_axes has 1 entries but the arguments (Tensor, Tensor) hold 2");
  expect_error([&] { vectorize(f, {0, 2})(a, a); }, "in_axes[1] = 2 is out of range for input 1");
  expect_error([&] { vectorize(f, {0, 0})(a, scalar(1.0)); }, "expected 0 <= axis < 0");
  expect_error([&] { vectorize(f, {0, 0})(a, b); }, "has batch size 2 along axis 0 but input 0 (f32[3, 4]) has 3");
  expect_error([&] { vectorize(f, {not_batched, not_batched})(a, a); }, "no input of (Tensor, Tensor) is batched");
  EXPECT_EQ(vectorize(f, {-1, not_batched})(a, rand({3}, 19)).shape(), (Shape{4, 3}));  // axis -1: the last
}

}  // namespace
}  // namespace nxv
