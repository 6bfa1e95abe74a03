// Gradients of the composites (src/ops/composites.cpp), which come from the primitives' rules: the case table is
// checked against finite differences (f64, reference) and Vulkan against the reference (f32, f64), as every rule
// (support/grad_cases.hpp). Beside it, logsumexp's gradient is softmax, and stays finite (0) on a row of -inf.
#include <cmath>
#include <limits>

#include "nxv/grad.hpp"
#include "nxv/nn.hpp"
#include "support/grad_cases.hpp"

namespace nxv::testing {
namespace {

using Xs = std::vector<Tensor>;

std::vector<GradCase> cases() {
  return {
      {"logsumexp_axis", {{{3, 5}}}, [](const Xs& x) { return logsumexp(x[0], Axes{1}); }},
      {"logsumexp_all_keep", {{{2, 3, 4}}}, [](const Xs& x) { return logsumexp(x[0], std::nullopt, true) * x[0]; }},
      {"logsumexp_two_axes",
       {{{2, 3, 4}, -20.0, 20.0}},
       [](const Xs& x) {
         return logsumexp(x[0], Axes{0, 2});
       }},
      {"variance", {{{4, 3}}}, [](const Xs& x) { return variance(x[0], Axes{0}); }},
      {"variance_ddof_keep", {{{2, 5}}}, [](const Xs& x) { return variance(x[0], Axes{1}, 1, true) * x[0]; }},
      {"standard_deviation", {{{3, 4}}}, [](const Xs& x) { return standard_deviation(x[0], std::nullopt, 1); }},
      {"covariance", {{{5, 3}}}, [](const Xs& x) { return covariance(x[0], 1); }},
      {"covariance_batch", {{{2, 4, 2}}}, [](const Xs& x) { return covariance(x[0]); }},
      {"stack",
       {{{2, 3}}, {{2, 3}}},
       [](const Xs& x) {
         return stack({x[0], x[1] * x[1]}, 1);
       }},
      // A constant made by bitcast (1.0 and its next few values, from integer bits) scales x.
      {"bitcast_constant",
       {{{2, 3}}},
       [](const Xs& x) {
         const bool f32 = x[0].dtype() == DType::f32;
         const DType bits = f32 ? DType::s32 : DType::s64;
         const Tensor one =
             f32 ? scalar(0x3f800000, bits, x[0].backend()) : scalar(0x3ff0000000000000LL, bits, x[0].backend());
         return x[0] * bitcast(iota({2, 3}, 1, bits, x[0].backend()) + one, x[0].dtype());
       }},
  };
}

NXV_GRAD_CASE_SUITES(Composites, cases());

TEST(LogsumexpGrad, IsSoftmaxAndFiniteOnRowsOfMinusInfinity) {
  const double inf = std::numeric_limits<double>::infinity();
  // Rows: finite values, -inf beside finite values, only -inf.
  const Tensor x = tensor<double>({0.5, -1, 2, -inf, 3, -inf, -inf, -inf, -inf}, {3, 3}, reference_backend());
  const Tensor g = grad([](const Tensor& t) { return sum(logsumexp(t, Axes{1})); })(x);
  const std::vector<double> got = g.to_vector<double>();
  const std::vector<double> want = nn::softmax(x, 1).to_vector<double>();
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(got[i], want[i], 1e-15) << "element " << i;
  EXPECT_EQ(got[3], 0.0);
  EXPECT_EQ(got[5], 0.0);
  for (int i = 6; i < 9; ++i) EXPECT_EQ(got[i], 0.0) << "element " << i << " of the row of -inf";
}

// As JAX: reinterpreted bits carry no derivative, even where the round trip float -> int -> float is the identity.
TEST(BitcastGrad, IsZero) {
  const Tensor x = tensor<float>({0.5f, -2.0f, 3.0f}, {3}, reference_backend());
  const Tensor g =
      grad([](const Tensor& t) { return sum(bitcast(bitcast(t, DType::s32), DType::f32)) + sum(t * 2.0); })(x);
  EXPECT_EQ(g.to_vector<float>(), (std::vector<float>{2, 2, 2}));
}

}  // namespace
}  // namespace nxv::testing
