// nxv::dist on Vulkan equals the reference backend bit for bit (log_prob eager and jitted, and sample), parameters
// broadcast, and log_prob's gradients match finite differences.
#include <gtest/gtest.h>

#include <cmath>

#include "mcmc/dist_cases.hpp"
#include "nxv/defn.hpp"
#include "nxv/nn.hpp"
#include "support/grad_checks.hpp"
#include "support/parity.hpp"

namespace nxv::testing {
namespace {

// A distribution with a batch of 4 parameter sets (each parameter a [4] tensor), and points to evaluate it at:
// inside the support, on its boundary, outside it, and the special values.
struct Case {
  std::string dist;
  std::vector<std::vector<double>> params;  // params[i]: the i-th constructor argument over the batch
  std::vector<double> xs;
};

const double inf = INFINITY;

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {"Normal", {{0, 1, -3, 0.5}, {1, 0.1, 2, 30}}, {-2, 0, 0.3, 5, -0.0, inf, -inf, NAN}},
      {"HalfNormal", {{1, 0.1, 2, 30}}, {-1, 0, 0.3, 5, -0.0, inf, NAN}},
      {"Cauchy", {{0, 1, -3, 0.5}, {1, 0.1, 2, 30}}, {-2, 0, 0.3, 5e6, inf, NAN}},
      {"HalfCauchy", {{1, 0.1, 2, 30}}, {-1, 0, 0.3, 5e6, inf, NAN}},
      {"Laplace", {{0, 1, -3, 0.5}, {1, 0.1, 2, 30}}, {-2, 0, 0.3, 1, 5, -inf, NAN}},
      {"Logistic", {{0, 1, -3, 0.5}, {1, 0.1, 2, 30}}, {-2000, -2, 0, 0.3, 800, inf, NAN}},
      {"Exponential", {{1, 0.1, 2, 30}}, {-1, 0, 0.3, 5, inf, NAN}},
      {"LogNormal", {{0, 1, -3, 0.5}, {1, 0.1, 2, 30}}, {-1, 0, 1e-30, 0.3, 5, inf, NAN}},
      {"Uniform", {{0, -1, -3, 0.5}, {1, 0.1, 2, 30}}, {-2, 0, 0.05, 1, 5, inf, NAN}},
      {"Weibull", {{1, 0.1, 2, 30}, {1, 0.5, 2, 7}}, {-1, 0, 0.3, 5, 100, inf, NAN}},
      {"TruncatedNormal",
       {{0, 1, -3, 0.5}, {1, 0.1, 2, 3}, {-1, -inf, 0, 9}, {2, 1.5, inf, 10}},
       {-2, -1, 0, 1.2, 2, 9.5, inf, NAN}},
      {"BernoulliProbs", {{0, 0.3, 0.99, 1}}, {0, 1, 0.5, 2, NAN}},
      {"BernoulliLogits", {{-40, -1, 0.5, 40}}, {0, 1, 0.5, 2, NAN}},
      {"StudentT", {{0.7, 3, 30, 1e4}, {0, 1, -3, 0.5}, {1, 0.1, 2, 30}}, {-2e3, -2, 0, 0.3, 5, inf, NAN}},
      {"Gamma", {{0.3, 1, 2.5, 400}, {1, 0.1, 2, 30}}, {-1, 0, 1e-30, 0.3, 5, 300, inf, NAN}},
      {"InverseGamma", {{0.3, 1, 2.5, 400}, {1, 0.1, 2, 30}}, {-1, 0, 1e-3, 0.3, 5, inf, NAN}},
      {"Beta", {{0.3, 1, 2.5, 400}, {1, 0.1, 2, 30}}, {-1, 0, 1e-30, 0.3, 0.99, 1, NAN}},
      // The sampler's inversion (n p < 10) and rejection (n p >= 10) branches, and p > 1/2 (flipped).
      {"Binomial", {{5, 30, 1000, 80}, {0.3, 0.2, 0.6, 0.999}}, {-1, 0, 3, 5, 6.5, 60, NAN}},
      {"Poisson", {{0.01, 3, 9.9, 500}}, {-1, 0, 3, 4.5, 480, inf, NAN}},
      {"NegativeBinomial", {{0.5, 3, 20, 100}, {0.1, 0.4, 0.9, 0.7}}, {-1, 0, 3, 4.5, 480, inf, NAN}},
  };
  return c;
}

std::vector<Tensor> params_of(const Case& c, DType dtype) {
  std::vector<Tensor> ps;
  for (const auto& p : c.params) ps.push_back(as_type(tensor(p, {4}, reference_backend()), dtype));
  return ps;
}

class DistParity : public ::testing::TestWithParam<DType> {};

TEST_P(DistParity, LogProbOnVulkanEqualsReference) {
  NXV_REQUIRE_VULKAN();
  const DType dtype = GetParam();
  for (const Case& c : cases()) {
    const std::string dist = c.dist;
    std::vector<Tensor> inputs = {as_type(tensor(c.xs, {static_cast<std::int64_t>(c.xs.size()), 1}), dtype)};
    for (const Tensor& p : params_of(c, dtype)) inputs.push_back(p);
    const auto op = [dist](const std::vector<Tensor>& in) {
      return log_prob_of(dist, std::vector<Tensor>(in.begin() + 1, in.end()), in[0]);
    };
    expect_parity("dist." + dist + ".log_prob:" + std::string(name(dtype)), op, inputs);
    // An empty x ([0, 1] against the batch [4]) gives an empty [0, 4]; rank-0 parameters a rank-0 density.
    std::vector<Tensor> empty = inputs;
    empty[0] = zeros({0, 1}, dtype, reference_backend());
    expect_parity("dist." + dist + ".log_prob.empty:" + std::string(name(dtype)), op, empty);
    std::vector<Tensor> rank0 = {reshape(slice(inputs[0], {2, 0}, {1, 1}), {})};
    for (std::size_t i = 1; i < inputs.size(); ++i) rank0.push_back(reshape(slice(inputs[i], {1}, {1}), {}));
    expect_parity("dist." + dist + ".log_prob.rank0:" + std::string(name(dtype)), op, rank0);
    // Jitted, the density is one fused graph: still the reference's bits.
    const auto jitted = jit(op);
    expect_parity(
        "dist." + dist + ".log_prob.jit:" + std::string(name(dtype)),
        [&](const std::vector<Tensor>& in) { return jitted(in); }, inputs);
  }
}

TEST_P(DistParity, SampleOnVulkanEqualsReference) {
  NXV_REQUIRE_VULKAN();
  const DType dtype = GetParam();
  for (const Case& c : cases()) {
    const std::string dist = c.dist;
    std::vector<Tensor> inputs = {nn::key_tensor(key(42), reference_backend())};
    for (const Tensor& p : params_of(c, dtype)) inputs.push_back(p);
    expect_parity(
        "dist." + dist + ".sample:" + std::string(name(dtype)),
        [dist](const std::vector<Tensor>& in) {
          return sample_of(dist, std::vector<Tensor>(in.begin() + 1, in.end()), in[0], {300});
        },
        inputs);
  }
}

TEST_P(DistParity, VectorDistributionsOnVulkanEqualReference) {
  NXV_REQUIRE_VULKAN();
  const DType dtype = GetParam();
  const Tensor logits = as_type(tensor<double>({0.5, -1, 2, -inf, 0, 0, 30, -30, 1}, {3, 3}), dtype);
  const Tensor ks = tensor<std::int64_t>({0, 1, 2, 3, -1, 2}, {6, 1});
  const auto cat_lp = [](const std::vector<Tensor>& in) { return dist::Categorical(in[1]).log_prob(in[0]); };
  expect_parity(std::string("dist.Categorical.log_prob:") + std::string(name(dtype)), cat_lp, {ks, logits});
  expect_parity(std::string("dist.Categorical.sample:") + std::string(name(dtype)),
                [](const std::vector<Tensor>& in) { return dist::Categorical(in[1]).sample(in[0], {200}); },
                {nn::key_tensor(key(3), reference_backend()), logits});
  const Tensor loc = as_type(tensor<double>({0, 1, -2, 0.5, 0, 3}, {2, 3}), dtype);
  const Tensor sd = as_type(tensor<double>({1, 0.5, 2}, {3}), dtype);
  const Tensor conc = as_type(tensor<double>({0.3, 1, 2.5, 400, 2, 0.7}, {2, 3}), dtype);
  const Tensor simplex =
      as_type(tensor<double>({0.2, 0.3, 0.5, 0, 0, 1, 0.5, 0.6, -0.1, 0.3, NAN, 0.3}, {4, 1, 3}), dtype);
  expect_parity(std::string("dist.Dirichlet.log_prob:") + std::string(name(dtype)),
                [](const std::vector<Tensor>& in) { return dist::Dirichlet(in[1]).log_prob(in[0]); }, {simplex, conc});
  expect_parity(std::string("dist.Dirichlet.sample:") + std::string(name(dtype)),
                [](const std::vector<Tensor>& in) { return dist::Dirichlet(in[1]).sample(in[0], {100}); },
                {nn::key_tensor(key(8), reference_backend()), conc});
  const Tensor x = as_type(tensor<double>({0.3, -1, 4, inf, 0, NAN}, {2, 1, 3}), dtype);
  expect_parity(
      std::string("dist.MultivariateNormalDiag.log_prob:") + std::string(name(dtype)),
      [](const std::vector<Tensor>& in) { return dist::MultivariateNormalDiag(in[1], in[2]).log_prob(in[0]); },
      {x, loc, sd});
  expect_parity(
      std::string("dist.MultivariateNormalDiag.sample:") + std::string(name(dtype)),
      [](const std::vector<Tensor>& in) { return dist::MultivariateNormalDiag(in[1], in[2]).sample(in[0], {100}); },
      {nn::key_tensor(key(4), reference_backend()), loc, sd});
}

INSTANTIATE_TEST_SUITE_P(Dtypes, DistParity, ::testing::Values(DType::f32, DType::f64),
                         [](const auto& info) { return std::string(name(info.param)); });

// Parameters of shapes [3, 1] and [4] (and [1], [1, 1] for the bounds) broadcast to a batch [3, 4] ([3, 1] for
// the one-parameter distributions); x [2, 1, 1] against it gives [2, 3, K], each element the scalar
// distribution's value.
TEST(DistBroadcast, ParametersAndValuesBroadcastLikeScalars) {
  for (const Case& c : cases()) {
    const std::vector<Shape> shapes = {{3, 1}, {4}, {1}, {1, 1}};
    std::vector<Tensor> ps;
    std::vector<std::vector<double>> values;
    for (std::size_t i = 0; i < c.params.size(); ++i) {
      const Shape s = shapes[i];
      std::vector<double> v(c.params[i].begin(), c.params[i].begin() + num_elements(s));
      ps.push_back(tensor(v, s));
      values.push_back(v);
    }
    const int K = c.params.size() >= 2 ? 4 : 1;
    const std::vector<double> xs = {c.xs[2], c.xs[3]};
    const Tensor lp = log_prob_of(c.dist, ps, tensor(xs, {2, 1, 1}));
    ASSERT_EQ(lp.shape(), (Shape{2, 3, K})) << c.dist;
    const std::vector<double> got = lp.to_vector<double>();
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < K; ++k) {
          std::vector<Tensor> one;
          const int at[4] = {j, k, 0, 0};
          for (std::size_t p = 0; p < values.size(); ++p) one.push_back(scalar(values[p][at[p]], DType::f64));
          const double want = log_prob_of(c.dist, one, scalar(xs[i], DType::f64)).item();
          EXPECT_EQ(got[(i * 3 + j) * K + k], want) << c.dist << " at " << i << j << k;
        }
    const Tensor draws = sample_of(c.dist, ps, nn::key_tensor(key(1)), {5});
    EXPECT_EQ(draws.shape(), (Shape{5, 3, K})) << c.dist;
  }
}

// d log_prob / d(x, parameters) against central differences, at points inside the support (f64).
TEST(DistGrad, LogProbGradientsMatchFiniteDifferences) {
  struct GradCase {
    std::string dist;
    std::vector<std::vector<double>> params;
    std::vector<double> xs;
    bool wrt_x = true;
  };
  const std::vector<GradCase> grad_cases = {
      {"Normal", {{0, 1, -3}, {1, 0.5, 2}}, {-2, 0.3, 5}},
      {"HalfNormal", {{1, 0.5, 2}}, {0.2, 0.3, 5}},
      {"Cauchy", {{0, 1, -3}, {1, 0.5, 2}}, {-2, 0.3, 5}},
      {"HalfCauchy", {{1, 0.5, 2}}, {0.2, 0.3, 5}},
      {"Laplace", {{0, 1, -3}, {1, 0.5, 2}}, {-2, 0.3, 5}},
      {"Logistic", {{0, 1, -3}, {1, 0.5, 2}}, {-2, 0.3, 5}},
      {"Exponential", {{1, 0.5, 2}}, {0.2, 0.3, 5}},
      {"LogNormal", {{0, 1, -3}, {1, 0.5, 2}}, {0.2, 0.3, 5}},
      {"Uniform", {{-3, -1, 0}, {1, 2, 6}}, {-2, 0.3, 5}},
      {"Weibull", {{1, 0.5, 2}, {1.5, 0.7, 3}}, {0.2, 0.3, 5}},
      {"TruncatedNormal", {{0, 1, -3}, {1, 0.5, 2}, {-1, 0.9, -4}, {2, 3, 8}}, {-0.5, 1.3, 5}},
      {"TruncatedNormal", {{0, 1}, {1, 2}, {3, 9}, {4, 12}}, {3.5, 10}},  // the upper-tail branch
      {"BernoulliProbs", {{0.2, 0.5, 0.9}}, {0, 1, 1}, false},
      {"BernoulliLogits", {{-2, 0.5, 3}}, {0, 1, 1}, false},
      {"StudentT", {{0.7, 3, 30}, {0, 1, -3}, {1, 0.5, 2}}, {-2, 0.3, 5}},
      {"Gamma", {{0.3, 1.5, 40}, {1, 0.5, 2}}, {0.2, 0.3, 5}},
      {"InverseGamma", {{0.3, 1.5, 40}, {1, 0.5, 2}}, {0.2, 0.3, 5}},
      {"Beta", {{0.3, 1.5, 40}, {1, 0.5, 2}}, {0.2, 0.3, 0.9}},
      {"Binomial", {{5, 30, 1000}, {0.3, 0.2, 0.6}}, {0, 3, 610}, false},
      {"Poisson", {{0.01, 3, 500}}, {0, 3, 480}, false},
      {"NegativeBinomial", {{0.5, 3, 20}, {0.1, 0.4, 0.9}}, {0, 3, 180}, false},
  };
  for (const GradCase& c : grad_cases) {
    const auto n = static_cast<std::int64_t>(c.xs.size());
    const Tensor x = tensor(c.xs, {n});
    std::vector<Tensor> inputs;
    if (c.wrt_x) inputs.push_back(x);
    for (const auto& p : c.params) inputs.push_back(tensor(p, {n}));
    const std::string dist = c.dist;
    const bool wrt_x = c.wrt_x;
    const auto fn = [dist, wrt_x, x](const std::vector<Tensor>& in) {
      const std::size_t first = wrt_x ? 1 : 0;
      return log_prob_of(dist, std::vector<Tensor>(in.begin() + first, in.end()), wrt_x ? in[0] : x);
    };
    EXPECT_TRUE(check_grads(fn, inputs, {.rtol = 1e-6, .atol = 1e-7})) << c.dist;
  }
  const Tensor logits = tensor<double>({0.5, -1, 2, 0, 3, 1}, {2, 3});
  const Tensor k = tensor<std::int64_t>({2, 0}, {2});
  EXPECT_TRUE(
      check_grads([k](const std::vector<Tensor>& in) { return dist::Categorical(in[0]).log_prob(k); }, {logits}))
      << "Categorical";
  EXPECT_TRUE(check_grads(
      [](const std::vector<Tensor>& in) { return dist::MultivariateNormalDiag(in[1], in[2]).log_prob(in[0]); },
      {tensor<double>({0.3, -1, 4}, {3}), tensor<double>({0, 1, -2}, {3}), tensor<double>({1, 0.5, 2}, {3})}))
      << "MultivariateNormalDiag";
  // Dirichlet: with respect to the concentration only (x cannot move off the simplex by a finite difference).
  const Tensor on_simplex = tensor<double>({0.2, 0.3, 0.5, 0.6, 0.1, 0.3}, {2, 3});
  EXPECT_TRUE(
      check_grads([on_simplex](const std::vector<Tensor>& in) { return dist::Dirichlet(in[0]).log_prob(on_simplex); },
                  {tensor<double>({2, 0.5, 3}, {3})}, {.rtol = 1e-6, .atol = 1e-7}))
      << "Dirichlet";
}

// The same gradients on Vulkan (f32 and f64) equal the reference's within rounding (the loss is a weighted sum,
// whose reduction order may differ on the device): 1e-12 relative in f64, 1e-5 in f32.
TEST(DistGrad, GradientsOnVulkanMatchReference) {
  NXV_REQUIRE_VULKAN();
  const auto fn = [](const std::vector<Tensor>& in) {
    return dist::TruncatedNormal(in[1], in[2], in[3], in[4]).log_prob(in[0]) +
           dist::LogNormal(in[1], in[2]).log_prob(in[4]);
  };
  const std::vector<Tensor> inputs = {tensor<double>({-0.5, 1.3, 5}, {3}), tensor<double>({0, 1, -3}, {3}),
                                      tensor<double>({1, 0.5, 2}, {3}), tensor<double>({-1, 0.9, -4}, {3}),
                                      tensor<double>({2, 3, 8}, {3})};
  EXPECT_TRUE(grad_parity(fn, inputs, vulkan::backend(), DType::f64, 1e-12, 1e-12));
  EXPECT_TRUE(grad_parity(fn, inputs, vulkan::backend(), DType::f32, 1e-5, 1e-5));
}

}  // namespace
}  // namespace nxv::testing
