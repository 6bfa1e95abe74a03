// The leapfrog integrator's geometry (reversible, volume-preserving, energy error O(eps^2)) and the HMC kernel's
// divergence rule: a NaN or too large energy error is flagged and the chain stays where it was.
#include <gtest/gtest.h>

#include <cmath>

#include "nxv/grad.hpp"
#include "nxv/mcmc_kernels.hpp"
#include "nxv/nn.hpp"

namespace nxv::mcmc_test {
namespace {

Tensor vec(const std::vector<double>& v) { return tensor(v, {static_cast<std::int64_t>(v.size())}); }
Tensor num(double v) { return scalar(v, DType::f64); }

// A 2-D anisotropic Gaussian, standard deviations 1 and 0.3.
const mcmc::LogDensity gaussian = [](const Tensor& q) {
  return sum(square(q / tensor<double>({1.0, 0.3}, {2}, q.backend()))) * -0.5;
};
// The same with quartic terms, so that the leapfrog map is not linear (its Jacobian varies with the point).
const mcmc::LogDensity quartic = [](const Tensor& q) { return gaussian(q) - sum(square(square(q))) * 0.05; };

// L leapfrog steps from (q, p): the end position and momentum.
std::pair<Tensor, Tensor> integrate(const mcmc::LogDensity& f, const Tensor& q, Tensor p, double eps, int steps) {
  mcmc::ChainState s = mcmc::init_state(f, q);
  for (int i = 0; i < steps; ++i) s = mcmc::leapfrog(f, s, p, num(eps), ones({2}, DType::f64));
  return {s.position, p};
}

TEST(McmcIntegrator, LeapfrogIsReversible) {
  const Tensor q0 = vec({0.7, -0.2}), p0 = vec({-0.4, 1.3});
  const auto [q1, p1] = integrate(quartic, q0, p0, 0.05, 40);
  const auto [q2, p2] = integrate(quartic, q1, -p1, 0.05, 40);
  const std::vector<double> a = q0.to_vector<double>(), b = q2.to_vector<double>();
  const std::vector<double> pa = p0.to_vector<double>(), pb = p2.to_vector<double>();
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(b[i], a[i], 1e-12) << "position " << i;
    EXPECT_NEAR(-pb[i], pa[i], 1e-12) << "momentum " << i;
  }
}

TEST(McmcIntegrator, LeapfrogPreservesVolume) {
  // The Jacobian of (q, p) -> L steps, by central differences (h = 1e-5: truncation ~h^2, rounding ~1e-16 / h).
  const std::vector<double> z0 = {0.7, -0.2, -0.4, 1.3};
  const double h = 1e-5;
  double jac[4][4];
  for (int j = 0; j < 4; ++j) {
    std::vector<double> plus = z0, minus = z0;
    plus[j] += h;
    minus[j] -= h;
    const auto [qp, pp] = integrate(quartic, vec({plus[0], plus[1]}), vec({plus[2], plus[3]}), 0.1, 10);
    const auto [qm, pm] = integrate(quartic, vec({minus[0], minus[1]}), vec({minus[2], minus[3]}), 0.1, 10);
    const std::vector<double> a = concatenate({qp, pp}).to_vector<double>(),
                              b = concatenate({qm, pm}).to_vector<double>();
    for (int i = 0; i < 4; ++i) jac[i][j] = (a[i] - b[i]) / (2 * h);
  }
  // det by Gaussian elimination with partial pivoting.
  double det = 1;
  for (int c = 0; c < 4; ++c) {
    int pivot = c;
    for (int r = c + 1; r < 4; ++r)
      if (std::fabs(jac[r][c]) > std::fabs(jac[pivot][c])) pivot = r;
    if (pivot != c) {
      std::swap(jac[pivot], jac[c]);
      det = -det;
    }
    det *= jac[c][c];
    for (int r = c + 1; r < 4; ++r) {
      const double m = jac[r][c] / jac[c][c];
      for (int k = c; k < 4; ++k) jac[r][k] -= m * jac[c][k];
    }
  }
  EXPECT_NEAR(det, 1.0, 1e-8);
}

// The largest |H(t) - H(0)| over a trajectory of length 2 with step eps.
double max_energy_error(double eps) {
  const Tensor inv = ones({2}, DType::f64);
  Tensor p = vec({-0.4, 1.3});
  mcmc::ChainState s = mcmc::init_state(gaussian, vec({0.7, -0.2}));
  const double h0 = (mcmc::kinetic_energy(p, inv) - s.log_density).item();
  double worst = 0;
  for (int i = 0; i < static_cast<int>(std::lround(2.0 / eps)); ++i) {
    s = mcmc::leapfrog(gaussian, s, p, num(eps), inv);
    worst = std::max(worst, std::fabs((mcmc::kinetic_energy(p, inv) - s.log_density).item() - h0));
  }
  return worst;
}

TEST(McmcIntegrator, EnergyErrorIsSecondOrderInTheStepSize) {
  const double coarse = max_energy_error(0.04), fine = max_energy_error(0.02);
  EXPECT_GT(coarse, 0);
  const double ratio = coarse / fine;  // eps^2: halving eps divides the error by 4
  EXPECT_GE(ratio, 3.0) << coarse << " / " << fine;
  EXPECT_LE(ratio, 5.0) << coarse << " / " << fine;
}

TEST(McmcHmc, NanLogDensityIsADivergenceAndTheChainStays) {
  // NaN beyond |q| = 3 (log of a negative number); a step of 10 leaves the region.
  const mcmc::LogDensity f = [](const Tensor& q) { return sum(square(q)) * -0.5 + log(9.0 - sum(square(q))); };
  const mcmc::ChainState s = mcmc::init_state(f, vec({0.5, 0.1}));
  const mcmc::Transition t = mcmc::hmc_transition(f, s, {num(10.0), ones({2}, DType::f64)}, nn::key_tensor(key(3)), 4);
  EXPECT_NE(t.stats.diverging.item(), 0);
  EXPECT_EQ(t.stats.accept_stat.item(), 0);
  EXPECT_EQ(t.state.position.to_vector<double>(), s.position.to_vector<double>());
  EXPECT_EQ(t.state.log_density.item(), s.log_density.item());
  EXPECT_EQ(t.state.gradient.to_vector<double>(), s.gradient.to_vector<double>());
}

TEST(McmcHmc, HugeEnergyErrorIsADivergenceAndSmallStepsAreAccepted) {
  const mcmc::ChainState s = mcmc::init_state(gaussian, vec({0.5, 0.1}));
  const mcmc::Transition big =
      mcmc::hmc_transition(gaussian, s, {num(40.0), ones({2}, DType::f64)}, nn::key_tensor(key(4)), 8);
  EXPECT_NE(big.stats.diverging.item(), 0);
  EXPECT_EQ(big.state.position.to_vector<double>(), s.position.to_vector<double>());
  const mcmc::Transition small =
      mcmc::hmc_transition(gaussian, s, {num(0.01), ones({2}, DType::f64)}, nn::key_tensor(key(4)), 8);
  EXPECT_EQ(small.stats.diverging.item(), 0);
  EXPECT_GT(small.stats.accept_stat.item(), 0.99);  // energy error ~eps^2 = 1e-4
  EXPECT_EQ(small.stats.num_steps.item(), 8);
  EXPECT_NE(small.state.position.to_vector<double>(), s.position.to_vector<double>());
}

}  // namespace
}  // namespace nxv::mcmc_test
