// The gradients of erf_inv, lgamma and digamma at points where they are known in closed form, and the error
// that grad of trigamma raises (its derivative, polygamma(2, x), is not an op yet). The finite-difference and
// Vulkan-vs-reference checks of the same rules are rows of tests/grad/rules_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "nxv/nxv.hpp"
#include "support/temp_dir.hpp"

namespace nxv {
namespace {

Tensor vec(std::vector<double> v) { return tensor(v, {static_cast<std::int64_t>(v.size())}, reference_backend()); }
std::vector<double> values(const Tensor& t) { return as_type(t, DType::f64).to_host().to_vector<double>(); }

constexpr double kGamma = 0.57721566490153286061;  // Euler's constant: -digamma(1)
constexpr double kPi = std::numbers::pi;

void expect_grad(Tensor (*f)(const Tensor&), std::vector<double> at, std::vector<double> want) {
  const std::vector<double> got = values(grad([f](const Tensor& x) { return sum(f(x)); })(vec(at)));
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], 1e-15 * std::fabs(want[i])) << "at " << at[i];
}

TEST(SpecialGrad, LgammaIsDigamma) {
  expect_grad(lgamma, {1.0, 2.0, 0.5}, {-kGamma, 1 - kGamma, -kGamma - 2 * std::log(2.0)});
}

TEST(SpecialGrad, DigammaIsTrigamma) {
  expect_grad(digamma, {1.0, 0.5, -0.5}, {kPi * kPi / 6, kPi * kPi / 2, kPi * kPi / 2 + 4});
}

TEST(SpecialGrad, ErfInvIsTheReciprocalOfErfsDerivative) {
  // at 0: sqrt(pi)/2; at erf(1): sqrt(pi)/2 e
  expect_grad(erf_inv, {0.0, std::erf(1.0)}, {std::sqrt(kPi) / 2, std::sqrt(kPi) / 2 * std::exp(1.0)});
}

TEST(SpecialGrad, TrigammaHasNoGradientYet) {
  io_test::expect_error([] { grad([](const Tensor& x) { return sum(trigamma(x)); })(vec({1.5})); },
                        {"grad", "trigamma", "polygamma(2, x)"});
  // its value still flows where no gradient is asked of it
  const std::vector<double> g =
      values(grad([](const Tensor& x) { return sum(x * stop_gradient(trigamma(x))); })(vec({1.0})));
  EXPECT_NEAR(g[0], kPi * kPi / 6, 1e-15);
}

}  // namespace
}  // namespace nxv
