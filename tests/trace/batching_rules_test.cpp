// vectorize over every op: the vectorized call equals stacking the per-example calls, bit for bit, on the reference
// backend and on Vulkan (with zero host fallbacks), with batch axes 0, 1, 2 and shared inputs mixed. A table test
// checks that the table's functions reach every OpCode, so an op added without a row (and a batching rule) fails.
#include <gtest/gtest.h>

#include <set>

#include "nxv/fft.hpp"
#include "nxv/grad.hpp"
#include "nxv/linalg.hpp"
#include "nxv/vectorize.hpp"
#include "support/parity.hpp"
#include "trace/graph.hpp"

namespace nxv {
namespace {

using testing::compare_exact;
using testing::test_data;
using testing::test_uniform;

constexpr std::int64_t kBatch = 3;

using ExampleFn = std::function<Tensor(const std::vector<Tensor>&)>;

struct Input {
  Tensor value;               // batched along `axis` (size kBatch there), or shared
  std::optional<int> axis{};  // not_batched: shared by every example
};

struct Case {
  std::string name;
  ExampleFn fn;
  std::vector<Input> inputs;
};

Input batched(Tensor t, int axis) { return {std::move(t), axis}; }
Input shared(Tensor t) { return {std::move(t), not_batched}; }
Tensor f32(const Shape& s, std::uint64_t seed) { return test_data(DType::f32, s, seed); }
Tensor ints(DType t, const Shape& s, std::int64_t low, std::int64_t high, std::uint64_t seed) {
  return test_uniform(t, s, seed, static_cast<double>(low), static_cast<double>(high));
}

// Example b's inputs: the batched ones sliced at b along their axis.
std::vector<Tensor> example(const std::vector<Tensor>& inputs, const InAxes& axes, std::int64_t b) {
  std::vector<Tensor> out;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!axes[i]) {
      out.push_back(inputs[i]);
      continue;
    }
    const int a = *axes[i];
    Shape starts = Shape::filled(inputs[i].rank(), 0), lengths = inputs[i].shape();
    starts[a] = b;
    lengths[a] = 1;
    out.push_back(squeeze(slice(inputs[i], starts, lengths), Axes{a}));
  }
  return out;
}

Tensor stacked_per_example(const ExampleFn& fn, const std::vector<Tensor>& inputs, const InAxes& axes) {
  std::vector<Tensor> rows;
  for (std::int64_t b = 0; b < kBatch; ++b) rows.push_back(expand_dims(fn(example(inputs, axes, b)), 0));
  return concatenate(rows, 0);
}

void expect_vectorizes(const Case& c, Backend& backend) {
  std::vector<Tensor> inputs;
  InAxes axes;
  for (const Input& in : c.inputs) {
    inputs.push_back(in.value.to(backend));
    axes.push_back(in.axis);
  }
  Tensor got, expected;
  const std::uint64_t fallbacks = fallback::count_total([&] {
    got = vectorize(c.fn, axes)(inputs);
    expected = stacked_per_example(c.fn, inputs, axes);
  });
  EXPECT_EQ(fallbacks, 0u) << c.name << " on " << backend.name();
  EXPECT_EQ(compare_exact(expected.to(reference_backend()), got.to(reference_backend())), "")
      << c.name << " on " << backend.name();
}

ConvOptions conv_options(std::int64_t feature_groups = 1, std::int64_t batch_groups = 1) {
  ConvOptions o;
  o.feature_group_size = feature_groups;
  o.batch_group_size = batch_groups;
  return o;
}

std::vector<Case> cases() {
  const DType s32 = DType::s32, s64 = DType::s64;
  ConvOptions strided;
  strided.strides = {2};
  strided.padding = {{1, 2}};
  strided.kernel_dilation = {2};
  WindowOptions pooled;
  pooled.strides = {1, 2};
  pooled.padding = {{1, 0}, {0, 1}};
  return {
      {"exp", [](auto& x) { return exp(x[0]); }, {batched(f32({3, 4, 5}, 1), 0)}},
      {"is_nan", [](auto& x) { return is_nan(x[0]); }, {batched(f32({4, 3}, 2), 1)}},
      {"add, shared of lower rank",
       [](auto& x) { return x[0] + x[1]; },
       {batched(f32({3, 2, 4}, 3), 0), shared(f32({4}, 4))}},
      {"subtract, batched of lower rank",
       [](auto& x) { return x[0] - x[1]; },
       {batched(f32({4, 3}, 5), 1), shared(f32({2, 4}, 6))}},
      {"less, both batched",
       [](auto& x) { return less(x[0], x[1]); },
       {batched(f32({3, 2, 4}, 7), 0), batched(f32({2, 4, 3}, 8), 2)}},
      {"select, rank-0 batched predicate",
       [](auto& x) { return select(greater(x[2], 0.0), x[0], x[1]); },
       {batched(f32({3, 5}, 9), 0), shared(f32({5}, 10)), batched(f32({3}, 11), 0)}},
      {"clip",
       [](auto& x) { return clip(x[0], x[1], x[2]); },
       {batched(f32({3, 4}, 12), 0), shared(f32({4}, 13)), batched(f32({3}, 14), 0)}},
      {"as_type", [](auto& x) { return as_type(x[0], DType::s32); }, {batched(f32({2, 3}, 15), 1)}},
      {"bitcast", [](auto& x) { return bitcast(x[0], DType::s32); }, {batched(f32({2, 3}, 15), 1)}},
      {"real_view and complex_view",
       [](auto& x) { return real_view(complex_view(x[0]) * complex_view(x[1])); },
       {batched(f32({3, 4, 2}, 111), 0), shared(f32({4, 2}, 112))}},
      {"fft", [](auto& x) { return real_view(fft(x[0])); }, {batched(test_uniform(DType::f32, {8, 3}, 113, -1, 1), 1)}},
      {"sum", [](auto& x) { return sum(x[0], Axes{1}); }, {batched(f32({3, 4, 5}, 16), 0)}},
      {"product keep_axes",
       [](auto& x) {
         return product(x[0], Axes{0, 1}, true);
       },
       {batched(f32({4, 3, 5}, 17), 1)}},
      {"reduce_max all", [](auto& x) { return reduce_max(x[0]); }, {batched(f32({4, 5, 3}, 18), 2)}},
      {"argmax", [](auto& x) { return argmax(x[0], 1); }, {batched(f32({3, 4, 5}, 19), 0)}},
      {"argmin all", [](auto& x) { return argmin(x[0]); }, {batched(f32({4, 3, 5}, 20), 1)}},
      {"argmax all keep_axes",
       [](auto& x) { return argmax(x[0], std::nullopt, true); },
       {batched(f32({3, 2, 2}, 21), 0)}},
      {"reshape",
       [](auto& x) {
         return reshape(x[0], {5, 4});
       },
       {batched(f32({4, 5, 3}, 22), 2)}},
      {"transpose",
       [](auto& x) {
         return transpose(x[0], Axes{2, 0, 1});
       },
       {batched(f32({4, 3, 2, 5}, 23), 1)}},
      {"broadcast",
       [](auto& x) {
         return broadcast(x[0], {2, 4, 5});
       },
       {batched(f32({3, 4, 1}, 24), 0)}},
      {"broadcast with axes",
       [](auto& x) {
         return broadcast(x[0], {4, 2, 5}, Axes{0, 2});
       },
       {batched(f32({4, 3, 5}, 25), 1)}},
      {"slice strided",
       [](auto& x) {
         return slice(x[0], {1, 0}, {2, 3}, Axes{1, 2});
       },
       {batched(f32({3, 4, 6}, 26), 0)}},
      {"pad",
       [](auto& x) {
         return pad(x[0], 1.5, {{1, -1, 1}, {0, 2, 0}});
       },
       {batched(f32({4, 3, 3}, 27), 1)}},
      {"concatenate",
       [](auto& x) {
         return concatenate({x[0], x[1], x[0]}, 1);
       },
       {batched(f32({3, 2, 3}, 28), 0), shared(f32({2, 4}, 29))}},
      {"reverse", [](auto& x) { return reverse(x[0], Axes{0}); }, {batched(f32({3, 4, 5}, 30), 0)}},
      {"dot, both batched",
       [](auto& x) { return dot(x[0], x[1]); },
       {batched(f32({3, 4, 5}, 31), 0), batched(f32({5, 3, 2}, 32), 1)}},
      {"dot, a batched",
       [](auto& x) { return dot(x[0], x[1]); },
       {batched(f32({3, 4, 5}, 33), 0), shared(f32({5, 2}, 34))}},
      {"dot, b batched",
       [](auto& x) { return dot(x[0], x[1]); },
       {shared(f32({4, 5}, 35)), batched(f32({5, 2, 3}, 36), 2)}},
      // All of b contracted: the rule swaps the operands (a vector per example times a shared matrix or tensor).
      {"dot, b a batched vector",
       [](auto& x) { return dot(x[0], x[1]); },
       {shared(f32({4, 5}, 41)), batched(f32({5, 3}, 42), 1)}},
      {"dot, b a batched matrix contracted whole",
       [](auto& x) {
         return dot(x[0], Axes{1, 2}, Axes{}, x[1], Axes{0, 1}, Axes{});
       },
       {shared(f32({4, 5, 2}, 43)), batched(f32({3, 5, 2}, 44), 0)}},
      {"dot with batch axes, b batched",
       [](auto& x) { return dot(x[0], Axes{2}, Axes{0}, x[1], Axes{1}, Axes{0}); },
       {shared(f32({2, 4, 5}, 37)), batched(f32({3, 2, 5, 6}, 38), 0)}},
      {"dot with batch axes, a batched",
       [](auto& x) { return dot(x[0], Axes{2}, Axes{0}, x[1], Axes{1}, Axes{0}); },
       {batched(f32({2, 3, 4, 5}, 39), 1), shared(f32({2, 5, 6}, 40))}},
      // Made on the input's backend, so that they are op nodes of the trace rather than captured constants.
      {"iota, eye, full",
       [](auto& x) {
         Backend& b = x[0].backend();
         return x[0] * eye(4, 4, DType::f32, b) + iota({4}, 0, DType::f32, b) - full({4, 4}, 2.0, DType::f32, b);
       },
       {batched(f32({3, 4, 4}, 41), 0)}},
      {"uniform, normal",
       [](auto& x) {
         Backend& b = x[0].backend();
         return x[0] * normal(key(1), {4}, DType::f32, 0.0, 1.0, b) + uniform(key(2), {4}, DType::f32, 0.0, 1.0, b);
       },
       {batched(f32({4, 3}, 42), 1)}},
      {"conv, input batched",
       [](auto& x) { return conv(x[0], x[1]); },
       {batched(f32({3, 2, 3, 6}, 43), 0), shared(f32({4, 3, 3}, 44))}},
      {"conv, kernel batched, strided and padded",
       [strided](auto& x) { return conv(x[0], x[1], strided); },
       {shared(f32({2, 3, 7}, 45)), batched(f32({4, 3, 3, 2}, 46), 1)}},
      {"conv 2-d, both batched, feature groups",
       [](auto& x) { return conv(x[0], x[1], conv_options(2)); },
       {batched(f32({3, 1, 4, 5, 5}, 47), 0), batched(f32({3, 4, 2, 3, 3}, 48), 0)}},
      {"conv, batch groups",
       [](auto& x) { return conv(x[0], x[1], conv_options(1, 2)); },
       {batched(f32({4, 3, 3, 6}, 49), 1), shared(f32({4, 3, 3}, 50))}},
      {"conv, batch groups, kernel batched",
       [](auto& x) { return conv(x[0], x[1], conv_options(1, 2)); },
       {batched(f32({4, 3, 3, 6}, 104), 1), batched(f32({4, 3, 3, 3}, 105), 3)}},
      {"conv, batch groups, kernel batched alone",
       [](auto& x) { return conv(x[0], x[1], conv_options(1, 2)); },
       {shared(f32({4, 3, 6}, 106)), batched(f32({3, 4, 3, 3}, 107), 0)}},
      {"window_sum",
       [pooled](auto& x) {
         return window_sum(x[0], {2, 2}, pooled);
       },
       {batched(f32({3, 4, 6}, 51), 0)}},
      {"window_max",
       [](auto& x) {
         return window_max(x[0], {2, 3});
       },
       {batched(f32({4, 3, 6}, 52), 1)}},
      {"window_scatter_max",
       [](auto& x) {
         return window_scatter_max(x[0], x[1], x[2], {2, 2}, {.strides = {2, 2}});
       },
       {batched(f32({3, 4, 6}, 53), 0), shared(f32({2, 3}, 54)), shared(scalar(0.5))}},
      {"window_scatter_min, init batched",
       [](auto& x) {
         return window_scatter_min(x[0], x[1], x[2], {2, 2}, {.strides = {2, 2}});
       },
       {shared(f32({4, 6}, 55)), batched(f32({2, 3, 3}, 56), 2), batched(f32({3}, 57), 0)}},
      {"take, x batched",
       [](auto& x) { return take(x[0], x[1], 1); },
       {batched(f32({3, 4, 5}, 58), 0), shared(ints(s32, {2, 2}, -2, 7, 59))}},
      {"take, indices batched",
       [](auto& x) { return take(x[0], x[1], 1); },
       {shared(f32({4, 5}, 60)), batched(ints(s64, {2, 3}, -1, 6, 61), 1)}},
      {"take, both batched",
       [](auto& x) { return take(x[0], x[1], 1); },
       {batched(f32({2, 3, 4, 5}, 62), 1), batched(ints(s32, {3, 2, 2}, -1, 5, 63), 0)}},
      {"take_along_axis",
       [](auto& x) { return take_along_axis(x[0], x[1], 1); },
       {batched(f32({3, 4, 5}, 64), 0), shared(ints(s64, {4, 2}, -1, 6, 65))}},
      {"gather, x batched",
       [](auto& x) { return gather(x[0], x[1]); },
       {batched(f32({4, 3, 5}, 66), 1), shared(ints(s32, {2, 1}, -1, 5, 67))}},
      {"gather, indices batched",
       [](auto& x) { return gather(x[0], x[1]); },
       {shared(f32({4, 5}, 68)), batched(ints(s64, {3, 2, 2}, -1, 6, 69), 0)}},
      {"gather, both batched",
       [](auto& x) { return gather(x[0], x[1]); },
       {batched(f32({4, 5, 3}, 70), 2), batched(ints(s32, {2, 3, 2}, -1, 6, 71), 1)}},
      {"indexed_add, all batched",
       [](auto& x) { return indexed_add(x[0], x[1], x[2]); },
       {batched(f32({3, 4, 5}, 72), 0), batched(ints(s32, {3, 6, 1}, -1, 5, 73), 0), batched(f32({6, 3, 5}, 74), 1)}},
      {"indexed_add, updates batched",
       [](auto& x) { return indexed_add(x[0], x[1], x[2]); },
       {shared(f32({4, 5}, 75)), shared(ints(s64, {6, 2}, -1, 5, 76)), batched(f32({6, 3}, 77), 1)}},
      {"indexed_put, indices batched",
       [](auto& x) { return indexed_put(x[0], x[1], x[2]); },
       {shared(f32({4, 5}, 78)), batched(ints(s32, {3, 6, 1}, -1, 5, 79), 0), shared(f32({6, 5}, 80))}},
      {"put_slice, x batched",
       [](auto& x) {
         return put_slice(x[0], {1, 9}, x[1]);
       },
       {batched(f32({3, 4, 5}, 81), 0), shared(f32({2, 2}, 82))}},
      {"put_slice, slice batched",
       [](auto& x) {
         return put_slice(x[0], {-1, 2}, x[1]);
       },
       {shared(f32({4, 5}, 83)), batched(f32({2, 2, 3}, 84), 2)}},
      {"sort", [](auto& x) { return sort(x[0], 1, true); }, {batched(f32({4, 3, 5}, 85), 1)}},
      {"argsort", [](auto& x) { return argsort(x[0], 0); }, {batched(f32({3, 6, 2}, 86), 0)}},
      {"cumulative_sum", [](auto& x) { return cumulative_sum(x[0], 1, true); }, {batched(f32({4, 5, 3}, 87), 2)}},
      // Other dtypes, empty and rank-0 examples, and shapes of several workgroups.
      {"multiply s32, rank-0 examples",
       [](auto& x) { return x[0] * x[1]; },
       {batched(test_data(s32, {3}, 89), 0), shared(test_data(s32, {2}, 90))}},
      {"logical_and pred",
       [](auto& x) { return logical_and(x[0], x[1]); },
       {batched(test_data(DType::pred, {2, 3}, 91), 1), batched(test_data(DType::pred, {3, 2}, 92), 0)}},
      {"sum u8 over an empty axis",
       [](auto& x) { return sum(x[0], Axes{0}); },
       {batched(test_data(DType::u8, {3, 0, 4}, 93), 0)}},
      {"exp of empty examples", [](auto& x) { return exp(x[0]); }, {batched(f32({0, 3}, 94), 1)}},
      {"cumulative_max s64", [](auto& x) { return cumulative_max(x[0], 0); }, {batched(test_data(s64, {5, 3}, 95), 1)}},
      {"dot f64",
       [](auto& x) { return dot(x[0], x[1]); },
       {batched(test_data(DType::f64, {3, 4, 6}, 96), 0), shared(test_data(DType::f64, {6, 2}, 97))}},
      {"sum of several workgroups",
       [](auto& x) { return sum(x[0], Axes{1}) + reduce_max(x[0]); },
       {batched(f32({300, 3, 700}, 98), 1)}},
      {"dot of several workgroups",
       [](auto& x) { return dot(x[0], x[1]); },
       {batched(f32({3, 70, 130}, 99), 0), batched(f32({130, 90, 3}, 100), 2)}},
      {"conv of several workgroups",
       [](auto& x) { return conv(x[0], x[1]); },
       {batched(f32({3, 2, 8, 300}, 101), 0), batched(f32({3, 16, 8, 5}, 102), 0)}},
      {"sort of several workgroups", [](auto& x) { return sort(x[0], 0); }, {batched(f32({3, 2000}, 103), 0)}},
      {"stop_gradient", [](auto& x) { return stop_gradient(x[0]) * 2.0; }, {batched(f32({3, 4}, 88), 0)}},
      // Linear algebra: batched over the leading axes already.
      {"cholesky",
       [](auto& x) {
         return linalg::cholesky(x[0] + eye(Shape{4, 4}, DType::f32, x[0].backend()) * 4.0);
       },
       {batched(test_uniform(DType::f32, {4, 3, 4}, 104, -1.0, 1.0), 1)}},
      {"lu",
       [](auto& x) { return linalg::lu(x[0]).u; },
       {batched(test_uniform(DType::f32, {3, 5, 5}, 105, -1.0, 1.0), 0)}},
      {"qr",
       [](auto& x) { return linalg::qr(x[0]).r; },
       {batched(test_uniform(DType::f32, {5, 3, 3}, 108, -1.0, 1.0), 2)}},
      {"eigh",
       [](auto& x) { return linalg::eigh(x[0]).eigenvectors; },
       {batched(test_uniform(DType::f32, {3, 4, 4}, 109, -1.0, 1.0), 0)}},
      {"svd",
       [](auto& x) { return linalg::svd(x[0]).u; },
       {batched(test_uniform(DType::f32, {4, 3, 3}, 110, -1.0, 1.0), 1)}},
      {"triangular_solve",
       [](auto& x) {
         return linalg::triangular_solve(x[0] + eye(Shape{4, 4}, DType::f32, x[0].backend()) * 3.0, x[1]);
       },
       {shared(test_uniform(DType::f32, {4, 4}, 106, -1.0, 1.0)),
        batched(test_uniform(DType::f32, {4, 2, 3}, 107, -1.0, 1.0), 2)}},
  };
}

// The per-example inputs of a case (example 0), for tracing its function.
std::vector<Tensor> example_inputs(const Case& c) {
  std::vector<Tensor> inputs;
  InAxes axes;
  for (const Input& in : c.inputs) {
    inputs.push_back(in.value);
    axes.push_back(in.axis);
  }
  return example(inputs, axes, 0);
}

TEST(BatchingRules, EqualsStackedPerExampleCallsOnTheReference) {
  for (const Case& c : cases()) expect_vectorizes(c, reference_backend());
}

TEST(BatchingRules, EqualsStackedPerExampleCallsOnVulkan) {
  NXV_REQUIRE_VULKAN();
  for (const Case& c : cases()) expect_vectorizes(c, vulkan::backend());
}

// Every OpCode appears in some case's graph, so that each batching rule runs (op_info names "?" past the last).
TEST(BatchingRules, TheCasesReachEveryOpCode) {
  std::set<OpCode> reached;
  for (const Case& c : cases()) {
    const TracedFunction t = trace(c.fn, example_inputs(c));
    for (const Node& n : t.graph->nodes)
      if (n.kind == NodeKind::op) reached.insert(n.call.code);
  }
  for (int code = 0; std::string(op_name(static_cast<OpCode>(code))) != "?"; ++code)
    EXPECT_TRUE(reached.contains(static_cast<OpCode>(code)))
        << op_name(static_cast<OpCode>(code)) << " has no vectorize case (add a row to cases())";
}

}  // namespace
}  // namespace nxv
