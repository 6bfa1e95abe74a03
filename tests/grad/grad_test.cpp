// grad / value_and_grad as an API: containers, accumulation, pruning, stop_gradient, custom_grad, tie
// conventions, jit of grad, grad of grad (a Hessian-vector product), and the errors.
#include <gtest/gtest.h>

#include "nxv/defn.hpp"
#include "nxv/grad.hpp"
#include "support/grad_checks.hpp"

namespace nxv {
namespace {

Tensor vec(std::vector<double> v) { return tensor(v, {static_cast<std::int64_t>(v.size())}, reference_backend()); }
std::vector<double> values(const Tensor& t) { return as_type(t, DType::f64).to_host().to_vector<double>(); }

void expect_near(const Tensor& got, const std::vector<double>& want, double tol = 1e-12) {
  const std::vector<double> g = values(got);
  ASSERT_EQ(g.size(), want.size());
  for (std::size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], want[i], tol) << "element " << i;
}

TEST(Grad, ValueAndGradOfAScalarFunction) {
  const auto [value, g] = value_and_grad([](const Tensor& x) { return sum(x * x); })(vec({1, 2, 3}));
  EXPECT_DOUBLE_EQ(value.item(), 14.0);
  expect_near(g, {2, 4, 6});
}

TEST(Grad, WithRespectToAContainerOfParameters) {
  const Params p{{"w", vec({1, 2})}, {"b", vec({0.5, -1})}};
  const Tensor x = vec({3, 4});
  const Params g = grad([](const Params& p, const Tensor& x) { return sum(p.at("w") * x + p.at("b")); })(p, x);
  ASSERT_EQ(g.size(), 2u);
  expect_near(g.at("w"), {3, 4});
  expect_near(g.at("b"), {1, 1});
}

TEST(Grad, WithRespectToATupleOfTensors) {
  auto f = [](const std::tuple<Tensor, Tensor>& ab) { return sum(std::get<0>(ab) * std::get<1>(ab)); };
  const auto [da, db] = grad(f)(std::make_tuple(vec({1, 2}), vec({3, 5})));
  expect_near(da, {3, 5});
  expect_near(db, {1, 2});
}

TEST(Grad, CotangentsOfAReusedNodeAccumulate) {
  // y = x*x + x*x*x, with x*x used twice: dy/dx = 2x + 3x^2
  const Tensor g = grad([](const Tensor& x) {
    const Tensor sq = x * x;
    return sum(sq + sq * x);
  })(vec({1, 2}));
  expect_near(g, {5, 16});
}

TEST(Grad, UnusedInputsAndBranchesGiveZero) {
  const auto g = grad([](const std::pair<Tensor, Tensor>& p) {
    (void)exp(p.second);
    return sum(p.first);
  })(std::make_pair(vec({1, 2}), vec({3})));
  expect_near(g.first, {1, 1});
  expect_near(g.second, {0});
}

TEST(Grad, NonDifferentiableOpsGiveZero) {
  const Tensor g = grad([](const Tensor& x) {
    return sum(floor(x) + sign(x) + as_type(greater(x, 0.0), DType::f64) + as_type(argmax(x), DType::f64));
  })(vec({-1.5, 0.5, 2.5}));
  expect_near(g, {0, 0, 0});
}

TEST(Grad, StopGradientBlocksTheGradient) {
  const Tensor g = grad([](const Tensor& x) { return sum(x * stop_gradient(x)); })(vec({2, 3}));
  expect_near(g, {2, 3});
  EXPECT_EQ(stop_gradient(vec({1})).item(), 1.0) << "identity outside a trace";
}

TEST(Grad, CustomGradReplacesTheRule) {
  // A straight-through estimator: round on the way forward, identity on the way back.
  auto straight_through =
      custom_grad([](const Tensor& x) { return round(x); },
                  [](std::span<const Tensor>, const Tensor&, const Tensor& g) { return std::vector<Tensor>{g}; });
  const auto [value, g] =
      value_and_grad([&](const Tensor& x) { return sum(straight_through(x) * x); })(vec({0.4, 1.6}));
  EXPECT_DOUBLE_EQ(value.item(), 0 * 0.4 + 2 * 1.6);
  expect_near(g, {0.4 + 0, 1.6 + 2});  // d/dx [st(x) * x] = x * 1 + st(x)
}

TEST(Grad, CustomGradIsDifferentiableTwice) {
  // f(x) = x^3 with the custom rule g * 3x^2 (written with ops): f'' = 6x.
  auto cube = custom_grad([](const Tensor& x) { return x * x * x; },
                          [](std::span<const Tensor> in, const Tensor&, const Tensor& g) {
                            return std::vector<Tensor>{g * 3.0 * square(in[0])};
                          });
  const auto d1 = grad([&](const Tensor& x) { return sum(cube(x)); });
  expect_near(d1(vec({2})), {12});
  expect_near(grad([&](const Tensor& x) { return sum(d1(x)); })(vec({2})), {12});
}

TEST(Grad, CheckGradsCatchesAWrongGradient) {
  auto wrong = custom_grad([](const Tensor& x) { return sin(x); },
                           [](std::span<const Tensor> in, const Tensor&, const Tensor& g) {
                             return std::vector<Tensor>{g * sin(in[0])};  // should be cos
                           });
  EXPECT_FALSE(testing::check_grads([&](const std::vector<Tensor>& x) { return wrong(x[0]); }, {vec({0.3, 1.1})}));
}

TEST(Grad, MaxAndMinSplitTiesEvenly) {
  const auto [da, db] = grad([](const std::pair<Tensor, Tensor>& p) { return sum(max(p.first, p.second)); })(
      std::make_pair(vec({1, 2, 3}), vec({1, 0, 5})));
  expect_near(da, {0.5, 1, 0});
  expect_near(db, {0.5, 0, 1});
  expect_near(grad([](const Tensor& x) { return reduce_max(x); })(vec({3, 1, 3, 3})), {1.0 / 3, 0, 1.0 / 3, 1.0 / 3});
  expect_near(grad([](const Tensor& x) { return reduce_min(x); })(vec({2, 1, 1})), {0, 0.5, 0.5});
}

TEST(Grad, PowAtZeroAndNegativeBases) {
  const auto [da, db] = grad([](const std::pair<Tensor, Tensor>& p) { return sum(pow(p.first, p.second)); })(
      std::make_pair(vec({0, 0, -2}), vec({2, 0, 2})));
  expect_near(da, {0, 0, -4});
  EXPECT_EQ(values(db)[0], 0.0) << "d/db a^b at a = 0 is 0";
  EXPECT_TRUE(std::isnan(values(db)[2])) << "d/db a^b at a < 0 is NaN (log a)";
}

TEST(Grad, SecondDerivative) {
  const auto d2 = grad([](const Tensor& x) { return sum(grad([](const Tensor& y) { return sum(sin(y) * y); })(x)); });
  // d/dx (sin x + x cos x) = 2 cos x - x sin x
  const double x = 0.7;
  expect_near(d2(vec({x})), {2 * std::cos(x) - x * std::sin(x)}, 1e-12);
}

TEST(Grad, HessianVectorProduct) {
  // f(x) = sum(tanh(A x)) + 0.5 x.x ; H v computed as grad_x (grad f(x) . v), checked against finite
  // differences of the gradient: (grad f(x + e v) - grad f(x - e v)) / 2e.
  const Tensor a = uniform(key(3), {4, 3}, DType::f64, -1, 1, reference_backend());
  auto f = [&](const Tensor& x) { return sum(tanh(dot(a, x))) + 0.5 * sum(x * x); };
  const auto df = grad(f);
  const Tensor x = vec({0.3, -0.2, 0.9}), v = vec({1.0, 0.5, -2.0});
  const Tensor hvp = grad([&](const Tensor& y) { return sum(df(y) * v); })(x);
  const double e = 1e-5;
  const Tensor numeric = (df(x + e * v) - df(x - e * v)) / (2 * e);
  expect_near(hvp, values(numeric), 1e-8);
}

TEST(Grad, SecondOrderAgainstFiniteDifferences) {
  // The gradient function itself is checked by finite differences: elementwise, reduction and dot rules.
  const Tensor a = uniform(key(5), {3, 3}, DType::f64, -1, 1, reference_backend());
  auto first = [&](const std::vector<Tensor>& x) {
    return grad([&](const Tensor& y) { return sum(exp(dot(a, y)) * y) + product(y) + reduce_max(y); })(x[0]);
  };
  EXPECT_TRUE(testing::check_grads(first, {vec({0.3, -0.4, 0.8})}, {1e-5, 1e-6, 1e-5}));
}

TEST(Grad, JitOfGradMatchesEagerAndCaches) {
  auto loss = [](const Params& p, const Tensor& x) { return mean(square(tanh(dot(x, p.at("w")) + p.at("b")))); };
  const Params p{{"w", uniform(key(1), {3, 2}, DType::f64)}, {"b", uniform(key(2), {2}, DType::f64)}};
  const Tensor x = uniform(key(3), {4, 3}, DType::f64);
  auto fast = jit(value_and_grad(loss));
  const auto [v1, g1] = fast(p, x);
  const auto [v2, g2] = fast(p, x);
  const auto [v0, g0] = value_and_grad(loss)(p, x);
  EXPECT_EQ(fast.trace_count(), 1);
  EXPECT_DOUBLE_EQ(v1.item(), v0.item());
  EXPECT_DOUBLE_EQ(v2.item(), v0.item());
  expect_near(g1.at("w"), values(g0.at("w")));
  expect_near(g2.at("b"), values(g0.at("b")));
}

TEST(Grad, NonFloatInputsAreRejected) {
  try {
    grad([](const Tensor& x) { return sum(as_type(x, DType::f32)); })(tensor<std::int32_t>({1, 2}, {2}));
    FAIL() << "expected nxv::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("can only differentiate with respect to float or complex tensors"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("s32[2]"), std::string::npos) << e.what();
  }
}

TEST(Grad, NonScalarOutputsAreRejected) {
  try {
    grad([](const Tensor& x) { return x * 2.0; })(vec({1, 2}));
    FAIL() << "expected nxv::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("must return a float scalar"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("f64[2]"), std::string::npos) << e.what();
  }
}

TEST(Grad, IntegerDataCanBePassedAfterTheDifferentiatedArgument) {
  const Tensor labels = tensor<std::int64_t>({1, 0}, {2});
  const Tensor g =
      grad([](const Tensor& x, const Tensor& l) { return sum(x * as_type(l, DType::f64)); })(vec({5, 6}), labels);
  expect_near(g, {1, 0});
}

}  // namespace
}  // namespace nxv
