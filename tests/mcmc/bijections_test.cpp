// nxv::dist bijections: round trips, images inside the support, log|det J| against finite-difference Jacobians
// and against known change-of-variables identities, Vulkan parity, and the errors.
#include <gtest/gtest.h>

#include <cmath>

#include "nxv/bijections.hpp"
#include "nxv/grad.hpp"
#include "support/parity.hpp"

namespace nxv::testing {
namespace {

Tensor f64(double v) { return scalar(v, DType::f64); }

struct Named {
  std::string name;
  dist::Bijection b;
};

std::vector<Named> scalar_bijections() {
  return {{"identity", dist::identity()},
          {"exp", dist::exp_bijection()},
          {"softplus", dist::softplus_bijection()},
          {"sigmoid", dist::sigmoid_bijection()},
          {"lower_bound", dist::lower_bound(f64(-2))},
          {"upper_bound", dist::upper_bound(f64(3))},
          {"interval", dist::interval(f64(-1), f64(4))}};
}

const std::vector<double> kYs = {-7, -2.5, -0.3, 0, 0.4, 1, 3, 8};

// log|d forward / dy| by autograd (elementwise maps: the gradient of sum(forward(y))) and by central differences.
TEST(Bijections, ScalarRoundTripAndLogJacobian) {
  const Tensor y = tensor(kYs, {8});
  for (const Named& n : scalar_bijections()) {
    const Tensor x = n.b.forward(y);
    const std::vector<double> back = n.b.inverse(x).to_vector<double>();
    const std::vector<double> ldj = n.b.log_abs_det_jacobian(y).to_vector<double>();
    const std::vector<double> slope = grad([&](const Tensor& t) { return sum(n.b.forward(t)); })(y).to_vector<double>();
    for (std::size_t i = 0; i < kYs.size(); ++i) {
      EXPECT_NEAR(back[i], kYs[i], 1e-9 * (1 + std::abs(kYs[i]))) << n.name << " round trip at " << kYs[i];
      EXPECT_NEAR(ldj[i], std::log(std::abs(slope[i])), 1e-12) << n.name << " log|J| (autograd) at " << kYs[i];
      const double h = 1e-6;
      const double fd = (n.b.forward(f64(kYs[i] + h)).item() - n.b.forward(f64(kYs[i] - h)).item()) / (2 * h);
      EXPECT_NEAR(ldj[i], std::log(std::abs(fd)), 1e-6) << n.name << " log|J| (differences) at " << kYs[i];
    }
  }
}

TEST(Bijections, ScalarImagesLieInTheirSets) {
  const Tensor y = tensor(kYs, {8});
  for (const double v : dist::exp_bijection().forward(y).to_vector<double>()) EXPECT_GT(v, 0);
  for (const double v : dist::softplus_bijection().forward(y).to_vector<double>()) EXPECT_GT(v, 0);
  for (const double v : dist::sigmoid_bijection().forward(y).to_vector<double>()) {
    EXPECT_GT(v, 0);
    EXPECT_LT(v, 1);
  }
  for (const double v : dist::lower_bound(f64(-2)).forward(y).to_vector<double>()) EXPECT_GT(v, -2);
  for (const double v : dist::upper_bound(f64(3)).forward(y).to_vector<double>()) EXPECT_LT(v, 3);
  for (const double v : dist::interval(f64(-1), f64(4)).forward(y).to_vector<double>()) {
    EXPECT_GT(v, -1);
    EXPECT_LT(v, 4);
  }
}

// Change of variables: p_Y(y) = p_X(forward(y)) |J(y)|, with known pairs (X, Y).
TEST(Bijections, ChangeOfVariablesGivesTheKnownDensities) {
  const Tensor y = tensor(kYs, {8});
  const Tensor zero = f64(0), one = f64(1);
  // exp: a LogNormal(0, 1) in x is a Normal(0, 1) in y = log x.
  const auto e = dist::exp_bijection();
  const auto a = (dist::LogNormal(zero, one).log_prob(e.forward(y)) + e.log_abs_det_jacobian(y)).to_vector<double>();
  const auto b = dist::Normal(zero, one).log_prob(y).to_vector<double>();
  // sigmoid: a Uniform(0, 1) in x is a Logistic(0, 1) in y = logit x.
  const auto s = dist::sigmoid_bijection();
  const auto c = (dist::Uniform(zero, one).log_prob(s.forward(y)) + s.log_abs_det_jacobian(y)).to_vector<double>();
  const auto d = dist::Logistic(zero, one).log_prob(y).to_vector<double>();
  for (std::size_t i = 0; i < kYs.size(); ++i) {
    EXPECT_NEAR(a[i], b[i], 1e-13) << "exp at " << kYs[i];
    EXPECT_NEAR(c[i], d[i], 1e-12) << "sigmoid at " << kYs[i];
  }
}

// log|det| of a small square matrix by Gaussian elimination with partial pivoting.
double log_abs_det(std::vector<std::vector<double>> m) {
  const std::size_t n = m.size();
  double total = 0;
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t p = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (std::abs(m[r][c]) > std::abs(m[p][c])) p = r;
    std::swap(m[c], m[p]);
    total += std::log(std::abs(m[c][c]));
    for (std::size_t r = c + 1; r < n; ++r) {
      const double f = m[r][c] / m[c][c];
      for (std::size_t k = c; k < n; ++k) m[r][k] -= f * m[c][k];
    }
  }
  return total;
}

// The square Jacobian of y [n] -> forward(y)[:n] (stick-breaking's last component is determined by the others).
double numeric_log_det(const dist::Bijection& b, const std::vector<double>& y) {
  const std::size_t n = y.size();
  std::vector<std::vector<double>> jac(n, std::vector<double>(n));
  const double h = 1e-6;
  for (std::size_t j = 0; j < n; ++j) {
    std::vector<double> up = y, down = y;
    up[j] += h;
    down[j] -= h;
    const auto xu = b.forward(tensor(up, {static_cast<std::int64_t>(n)})).to_vector<double>();
    const auto xd = b.forward(tensor(down, {static_cast<std::int64_t>(n)})).to_vector<double>();
    for (std::size_t i = 0; i < n; ++i) jac[i][j] = (xu[i] - xd[i]) / (2 * h);
  }
  return log_abs_det(jac);
}

TEST(Bijections, StickBreakingMapsOntoTheSimplex) {
  const dist::Bijection b = dist::stick_breaking();
  EXPECT_EQ(b.codomain, dist::Support::simplex);
  // y = 0 is the centre.
  for (const double v : b.forward(zeros({3}, DType::f64)).to_vector<double>()) EXPECT_NEAR(v, 0.25, 1e-15);
  const std::vector<std::vector<double>> ys = {{0.3, -1.2, 2.0}, {-4, 5, 0.1}, {1.5}};
  for (const auto& y : ys) {
    const auto n = static_cast<std::int64_t>(y.size());
    const Tensor x = b.forward(tensor(y, {n}));
    ASSERT_EQ(x.shape(), (Shape{n + 1}));
    const auto xs = x.to_vector<double>();
    double total = 0;
    for (const double v : xs) {
      EXPECT_GT(v, 0);
      total += v;
    }
    EXPECT_NEAR(total, 1, 1e-14);
    const auto back = b.inverse(x).to_vector<double>();
    for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(back[i], y[i], 1e-9);
    EXPECT_NEAR(b.log_abs_det_jacobian(tensor(y, {n})).item(), numeric_log_det(b, y), 1e-6);
  }
  // Batched: [2, 3] -> [2, 4], one log-Jacobian per row.
  const Tensor batch = tensor<double>({0.3, -1.2, 2.0, -4, 5, 0.1}, {2, 3});
  EXPECT_EQ(b.forward(batch).shape(), (Shape{2, 4}));
  const auto ldj = b.log_abs_det_jacobian(batch).to_vector<double>();
  EXPECT_NEAR(ldj[1], numeric_log_det(b, {-4, 5, 0.1}), 1e-6);
}

TEST(Bijections, OrderedMapsOntoIncreasingVectors) {
  const dist::Bijection b = dist::ordered();
  const std::vector<std::vector<double>> ys = {{0.3, -1.2, 2.0, 0}, {-4, 5}, {7}};
  for (const auto& y : ys) {
    const auto n = static_cast<std::int64_t>(y.size());
    const auto xs = b.forward(tensor(y, {n})).to_vector<double>();
    for (std::size_t i = 1; i < xs.size(); ++i) EXPECT_GT(xs[i], xs[i - 1]);
    const auto back = b.inverse(tensor(xs, {n})).to_vector<double>();
    for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(back[i], y[i], 1e-9);
    EXPECT_NEAR(b.log_abs_det_jacobian(tensor(y, {n})).item(), numeric_log_det(b, y), 1e-6);
  }
}

TEST(Bijections, BijectToPicksNumPyrosDefaults) {
  using dist::Support;
  EXPECT_EQ(dist::biject_to(Support::positive).codomain, Support::positive);
  EXPECT_EQ(dist::biject_to(Support::unit_interval).codomain, Support::unit_interval);
  EXPECT_EQ(dist::biject_to(Support::simplex).event_rank, 1);
  EXPECT_EQ(dist::biject_to(Support::real_vector).log_abs_det_jacobian(zeros({2, 3}, DType::f64)).shape(), (Shape{2}));
  EXPECT_EQ(dist::biject_to(dist::Normal::support()).forward(f64(1.5)).item(), 1.5);
}

TEST(Bijections, BadInputsThrow) {
  try {
    dist::biject_to(dist::Support::boolean);
    ADD_FAILURE() << "no error for a discrete support";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("boolean"), std::string::npos) << e.what();
  }
  try {
    dist::stick_breaking().inverse(tensor<double>({1}, {1}));
    ADD_FAILURE() << "no error for a one-component simplex";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("stick_breaking"), std::string::npos) << e.what();
  }
  EXPECT_THROW(dist::ordered().forward(f64(1)), Error);
}

TEST(Bijections, OnVulkanEqualReference) {
  NXV_REQUIRE_VULKAN();
  for (const DType dtype : {DType::f32, DType::f64}) {
    const Tensor y = as_type(tensor(kYs, {8}), dtype);
    const Tensor lo = scalar(-1.0, dtype, reference_backend()), hi = scalar(4.0, dtype, reference_backend());
    for (const Named& n : scalar_bijections()) {
      if (n.name == "lower_bound" || n.name == "upper_bound" || n.name == "interval") continue;  // f64 bounds
      const auto b = n.b;
      expect_parity("bijection." + n.name + ".forward:" + std::string(name(dtype)),
                    [b](const std::vector<Tensor>& in) { return b.forward(in[0]); }, {y});
      expect_parity("bijection." + n.name + ".log_abs_det_jacobian:" + std::string(name(dtype)),
                    [b](const std::vector<Tensor>& in) { return b.log_abs_det_jacobian(in[0]); }, {y});
    }
    expect_parity(std::string("bijection.interval:") + std::string(name(dtype)),
                  [](const std::vector<Tensor>& in) {
                    const auto b = dist::interval(in[1], in[2]);
                    return b.forward(in[0]) + b.log_abs_det_jacobian(in[0]);
                  },
                  {y, lo, hi});
    const Tensor v = as_type(tensor<double>({0.3, -1.2, 2.0, -4, 5, 0.1, 0, 0}, {2, 4}), dtype);
    for (const Named& n :
         std::vector<Named>{{"stick_breaking", dist::stick_breaking()}, {"ordered", dist::ordered()}}) {
      const dist::Bijection copy = n.b;
      expect_parity("bijection." + n.name + ":" + std::string(name(dtype)),
                    [copy](const std::vector<Tensor>& in) {
                      return concatenate({reshape(copy.log_abs_det_jacobian(in[0]), {2, 1}), copy.forward(in[0])}, 1);
                    },
                    {v});
    }
  }
}

}  // namespace
}  // namespace nxv::testing
