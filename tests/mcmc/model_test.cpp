// Models: the flat unconstrained vector (shapes, simplex K - 1), constrain/unconstrain for one chain and batched,
// and the unconstrained log density with its Jacobian terms.
#include <gtest/gtest.h>

#include <cmath>

#include "mcmc/posterior_models.hpp"
#include "nxv/grad.hpp"

namespace nxv::mcmc_test {
namespace {

mcmc::Model mixed_model() {
  mcmc::Model m;
  m.param("mu", {}).param("sigma", {}, dist::exp_bijection()).param("w", {3}, dist::stick_breaking());
  m.param("b", {2, 2});
  m.log_density = [](const Params& p) {
    return dist::Normal(like(p.at("mu"), 0.0), p.at("sigma")).log_prob(p.at("mu")) +
           dist::Dirichlet(like(p.at("w"), {2.0, 3.0, 4.0})).log_prob(p.at("w")) - sum(square(p.at("b"))) * 0.5;
  };
  return m;
}

TEST(McmcModel, DimensionCountsUnconstrainedElements) {
  const mcmc::Model m = mixed_model();
  EXPECT_EQ(m.dimension(), 1 + 1 + 2 + 4);  // a simplex of 3 has 2 free coordinates
  EXPECT_EQ(m.params[2].unconstrained_shape(), (Shape{2}));
  EXPECT_EQ(m.params[3].unconstrained_shape(), (Shape{2, 2}));
  mcmc::Model again = m;
  EXPECT_THROW(again.param("mu"), Error);
}

TEST(McmcModel, ConstrainAndUnconstrainAreInverses) {
  const mcmc::Model m = mixed_model();
  const Tensor q = tensor<double>({0.3, -0.7, 0.2, -1.1, 1, 2, 3, 4}, {8});
  const Params x = mcmc::constrain(m, q);
  EXPECT_NEAR(x.at("sigma").item(), std::exp(-0.7), 1e-15);
  EXPECT_EQ(x.at("b").shape(), (Shape{2, 2}));
  EXPECT_EQ(x.at("b").to_vector<double>(), (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(x.at("w").shape(), (Shape{3}));
  EXPECT_NEAR(sum(x.at("w")).item(), 1.0, 1e-15);
  const std::vector<double> back = mcmc::unconstrain(m, x).to_vector<double>(), want = q.to_vector<double>();
  for (int i = 0; i < 8; ++i) EXPECT_NEAR(back[i], want[i], 1e-12) << i;
}

TEST(McmcModel, ConstrainWorksOnBatches) {
  const mcmc::Model m = mixed_model();
  const Tensor q = reshape(iota({3 * 5 * 8}, 0, DType::f64) * 0.01, {3, 5, 8});
  const Params x = mcmc::constrain(m, q);
  EXPECT_EQ(x.at("mu").shape(), (Shape{3, 5}));
  EXPECT_EQ(x.at("w").shape(), (Shape{3, 5, 3}));
  EXPECT_EQ(x.at("b").shape(), (Shape{3, 5, 2, 2}));
  // Element [2, 4] of the batch equals constraining its own row.
  const Params one = mcmc::constrain(m, reshape(slice(q, {2, 4, 0}, {1, 1, 8}), {8}));
  for (const auto& [name, v] : one) {
    const Shape& s = x.at(name).shape();
    Shape starts = Shape::filled(s.size(), 0), lengths = s;
    starts[0] = 2, starts[1] = 4, lengths[0] = 1, lengths[1] = 1;
    EXPECT_EQ(reshape(slice(x.at(name), starts, lengths), v.shape()).to_vector<double>(), v.to_vector<double>())
        << name;
  }
  const std::vector<double> back = mcmc::unconstrain(m, x).to_vector<double>(), want = q.to_vector<double>();
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(back[i], want[i], 1e-12) << i;
}

TEST(McmcModel, UnconstrainedLogDensityAddsTheJacobians) {
  const mcmc::Model m = mixed_model();
  const Tensor q = tensor<double>({0.3, -0.7, 0.2, -1.1, 1, 2, 3, 4}, {8});
  const Params x = mcmc::constrain(m, q);
  const double jacobians =
      -0.7 /* exp */ + dist::stick_breaking().log_abs_det_jacobian(tensor<double>({0.2, -1.1}, {2})).item();
  EXPECT_NEAR(mcmc::unconstrained_log_density(m)(q).item(), m.log_density(x).item() + jacobians, 1e-12);
}

TEST(McmcModel, ANonScalarLogDensityIsAnError) {
  mcmc::Model m;
  m.param("x", {3});
  m.log_density = [](const Params& p) { return square(p.at("x")); };
  try {
    mcmc::unconstrained_log_density(m)(zeros({3}, DType::f64));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("rank-0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace nxv::mcmc_test
