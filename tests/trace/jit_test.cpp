// jit: results equal eager evaluation, one trace per input signature, fixed container structure, the
// compiler extension point and NXV_DEBUG printing.
#include <gtest/gtest.h>

#include <cstdlib>

#include "nxv/defn.hpp"
#include "nxv/ops.hpp"
#include "nxv/vulkan.hpp"
#include "support/env.hpp"
#include "trace/compiler.hpp"
#include "trace/graph.hpp"

namespace nxv {
namespace {

Tensor rand(const Shape& s, std::uint64_t seed, DType t = DType::f32, Backend& b = reference_backend()) {
  return uniform(key(seed), s, t, -1.0, 1.0, b);
}

void expect_equal(const Tensor& a, const Tensor& b) {
  ASSERT_EQ(a.type(), b.type());
  EXPECT_EQ(as_type(a, DType::f64).to_host().to_vector<double>(), as_type(b, DType::f64).to_host().to_vector<double>());
}

auto mlp_layer = [](const Params& p, const Tensor& x) { return tanh(dot(x, p.at("w")) + p.at("b")); };

TEST(Jit, MatchesEagerEvaluation) {
  const Params p{{"w", rand({3, 4}, 1)}, {"b", rand({4}, 2)}};
  const Tensor x = rand({5, 3}, 3);
  expect_equal(jit(mlp_layer)(p, x), mlp_layer(p, x));
}

TEST(Jit, SecondCallWithTheSameSignatureDoesNotRetrace) {
  auto f = jit(mlp_layer);
  const Params p{{"w", rand({3, 4}, 1)}, {"b", rand({4}, 2)}};
  const std::uint64_t before = trace_count();
  f(p, rand({5, 3}, 3));
  f(p, rand({5, 3}, 4));
  EXPECT_EQ(f.trace_count(), 1);
  EXPECT_EQ(trace_count() - before, 1u);
  f(p, rand({7, 3}, 5));  // a new batch size
  EXPECT_EQ(f.trace_count(), 2);
  f(p, rand({5, 3}, 6));
  EXPECT_EQ(f.trace_count(), 2) << "the first signature is still cached";
  const Params p64{{"w", rand({3, 4}, 1, DType::f64)}, {"b", rand({4}, 2, DType::f64)}};
  f(p64, rand({5, 3}, 3, DType::f64));  // new dtypes
  EXPECT_EQ(f.trace_count(), 3);
}

TEST(Jit, CopiesShareTheCache) {
  auto f = jit([](const Tensor& x) { return x * 2.0; });
  auto g = f;
  f(rand({2}, 1));
  g(rand({2}, 2));
  EXPECT_EQ(f.trace_count(), 1);
}

TEST(Jit, ADifferentContainerStructureThanTracedThrows) {
  auto f = jit([](const std::vector<Tensor>& xs) { return xs[0] + xs.back(); });
  f(std::vector<Tensor>{rand({2}, 1), rand({2}, 2)});
  try {
    f(std::vector<Tensor>{rand({2}, 1), rand({2}, 2), rand({2}, 3)});
    FAIL() << "expected nxv::Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("([f32[2], f32[2], f32[2]])"), std::string::npos) << msg;
    EXPECT_NE(msg.find("traced with ([f32[2], f32[2]])"), std::string::npos) << msg;
  }
  auto g = jit([](const Params& p) { return p.at("a"); });
  g(Params{{"a", rand({2}, 1)}});
  EXPECT_THROW(g(Params{{"a", rand({2}, 1)}, {"b", rand({2}, 1)}}), Error);
}

TEST(Jit, ReturnsContainers) {
  auto f = jit([](const Tensor& x) { return std::make_tuple(x + 1.0, Params{{"double", x * 2.0}}, x); });
  const Tensor x = rand({3}, 1);
  const auto [a, p, same] = f(x);
  expect_equal(a, x + 1.0);
  expect_equal(p.at("double"), x * 2.0);
  expect_equal(same, x);
}

TEST(Jit, CapturedConstantsAndCreationOps) {
  const Tensor w = rand({3}, 9);
  auto f = jit([&](const Tensor& x) { return x * w + iota({3}, 0, DType::f32) + ones({3}); });
  const Tensor x = rand({3}, 1);
  expect_equal(f(x), x * w + iota({3}, 0, DType::f32) + ones({3}));
}

// The reference backend under another name, counting the ops it runs.
struct CountingBackend : Backend {
  int executed = 0;
  std::string_view name() const override { return "counting"; }
  std::shared_ptr<Storage> upload(std::span<const std::byte> bytes, const TensorType& type) override {
    return reference_backend().upload(bytes, type);
  }
  void download(const Tensor& t, std::span<std::byte> dst) override { reference_backend().download(t, dst); }
  std::shared_ptr<Storage> execute(const OpCall& call, std::span<const Tensor> inputs, const TensorType& out) override {
    ++executed;
    return reference_backend().execute(call, inputs, out);
  }
};

TEST(Jit, UnusedBranchesAreNotEvaluated) {
  auto f = jit([](const Tensor& x) {
    (void)exp(x);  // dead
    return x + 1.0;
  });
  CountingBackend counting;
  const Tensor x = rand({2}, 1).to(counting);
  const Tensor y = f(x);
  EXPECT_EQ(counting.executed, 2) << "the literal 1.0 (full) and the add; not the exp";
  expect_equal(y.to_host(), rand({2}, 1) + 1.0);
}

TEST(Jit, InsideAnotherTraceItIsInlined) {
  auto inner = jit([](const Tensor& x) { return sin(x); });
  auto outer = jit([&](const Tensor& x) { return inner(x) * 2.0; });
  const Tensor x = rand({4}, 1);
  expect_equal(outer(x), sin(x) * 2.0);
  EXPECT_EQ(inner.trace_count(), 0) << "inlined, not traced separately";
}

// A compiler that counts compilations and delegates to the evaluator: the extension point.
struct CountingCompiler : Compiler {
  int compiled = 0;
  std::size_t last_nodes = 0;
  std::string last_signature;
  std::unique_ptr<Executable> compile(const Graph& g, const Signature& s) override {
    ++compiled;
    last_nodes = g.nodes.size();
    last_signature = to_string(s);
    return evaluator()->compile(g, s);
  }
};

TEST(Jit, RunsThroughTheGivenCompiler) {
  auto compiler = std::make_shared<CountingCompiler>();
  auto f = jit([](const Tensor& x, const Tensor& y) { return x * y; }, {.compiler = compiler});
  f(rand({2, 3}, 1), rand({2, 3}, 2));
  f(rand({2, 3}, 3), rand({2, 3}, 4));
  EXPECT_EQ(compiler->compiled, 1);
  EXPECT_EQ(compiler->last_nodes, 3u);
  EXPECT_EQ(compiler->last_signature, "(f32[2, 3], f32[2, 3]) on reference");
}

TEST(Jit, DebugPrintsTheCompiledGraph) {
  std::string err;
  {
    const nxv::test::EnvGuard debug("NXV_DEBUG", "1");
    ::testing::internal::CaptureStderr();
    jit([](const Tensor& x) { return exp(x); })(rand({2}, 1));
    err = ::testing::internal::GetCapturedStderr();
  }
  EXPECT_NE(err.find("nxv jit: compiling (f32[2]) on reference"), std::string::npos) << err;
  EXPECT_NE(err.find("%1 = unary(exp) %0 : f32[2]"), std::string::npos) << err;
}

TEST(Jit, RunsOnVulkanWithConstantsMovedThere) {
  if (!vulkan::available()) GTEST_SKIP() << "no usable Vulkan device";
  Backend& vk = vulkan::backend();
  const Tensor w = rand({3}, 9);  // on the reference backend
  auto f = jit([&](const Tensor& x) { return exp(x) * w; });
  const Tensor x = rand({3}, 1);
  const Tensor y = f(x.to(vk));
  EXPECT_EQ(&y.backend(), &vk);
  const std::vector<float> got = y.to_host().to_vector<float>(), want = (exp(x) * w).to_vector<float>();
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-6 * std::abs(want[i]));
}

// A creation op inside a traced function is recorded in the graph: a huge one throws nxv::Error out of the jitted
// call (when the graph is evaluated or compiled), on either backend, and jit works on afterwards.
TEST(Jit, AHugeTensorInsideATracedFunctionIsAnError) {
  std::vector<Backend*> backends{&reference_backend()};
  if (vulkan::available()) backends.push_back(&vulkan::backend());
  auto plus_sum_of_zeros = [](std::int64_t n) {
    return jit([n](const Tensor& x) { return x + sum(zeros({n}, DType::f32, x.backend())); });
  };
  for (Backend* b : backends) {
    EXPECT_THROW(plus_sum_of_zeros(1000000000000)(ones({2}, DType::f32, *b)), Error) << b->name();
    const Tensor y = plus_sum_of_zeros(3)(ones({2}, DType::f32, *b));
    EXPECT_EQ(y.to_host().to_vector<float>(), (std::vector<float>{1, 1})) << b->name();
  }
}

}  // namespace
}  // namespace nxv
