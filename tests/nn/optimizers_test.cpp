// Optimizer updates against closed-form steps (two steps each, gradients given), and the schedules.
#include <cmath>

#include "support/nn.hpp"

namespace nxv::nn_test {
namespace {

// Two steps from p = [1, -2] with gradients g1 = [0.5, 1] then g2 = [-0.25, 3], learning rate 0.1.
constexpr double kLr = 0.1;
const std::vector<double> kP0{1, -2}, kG1{0.5, 1}, kG2{-0.25, 3};

std::pair<Params, Params> two_steps(const nn::Optimizer& opt) {
  Params p{{"w", f64(kP0)}};
  Params state = opt.init(p);
  const Tensor lr = scalar(kLr, DType::f64, reference_backend());
  std::tie(p, state) = opt.update(p, {{"w", f64(kG1)}}, state, lr);
  return opt.update(p, {{"w", f64(kG2)}}, state, lr);
}

TEST(Sgd, PlainStepsAlongTheGradient) {
  const auto [p, state] = two_steps(nn::sgd());
  expect_near(p.at("w"), {1 - 0.1 * (0.5 - 0.25), -2 - 0.1 * (1 + 3)}, 1e-15);
  expect_near(state.at("count"), {2});
}

TEST(Sgd, MomentumByHand) {
  // v1 = g1 = [0.5, 1]; p1 = [0.95, -2.1]. v2 = 0.9 v1 + g2 = [0.2, 3.9]; p2 = [0.93, -2.49].
  const auto [p, state] = two_steps(nn::sgd({.momentum = 0.9}));
  expect_near(p.at("w"), {0.93, -2.49}, 1e-15);
  expect_near(state.at("momentum.w"), {0.2, 3.9}, 1e-15);
}

TEST(Sgd, NesterovByHand) {
  // step1 = g1 + 0.9 v1 = [0.95, 1.9]: p1 = [0.905, -2.19]; step2 = g2 + 0.9 v2 = [-0.07, 6.51]: p2 = [0.912, -2.841].
  const auto [p, state] = two_steps(nn::sgd({.momentum = 0.9, .nesterov = true}));
  expect_near(p.at("w"), {0.912, -2.841}, 1e-15);
}

TEST(Sgd, RejectsNesterovWithoutMomentum) { EXPECT_THROW(nn::sgd({.nesterov = true}), Error); }

// Adam's two steps written out in doubles, for one coordinate.
double adam_by_hand(double p, double g1, double g2, double weight_decay) {
  const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
  double m = 0, v = 0;
  const double grads[2] = {g1, g2};
  for (int t = 1; t <= 2; ++t) {
    m = b1 * m + (1 - b1) * grads[t - 1];
    v = b2 * v + (1 - b2) * grads[t - 1] * grads[t - 1];
    const double m_hat = m / (1 - std::pow(b1, t)), v_hat = v / (1 - std::pow(b2, t));
    p -= kLr * (m_hat / (std::sqrt(v_hat) + eps) + weight_decay * p);
  }
  return p;
}

TEST(Adam, TwoStepsWithBiasCorrection) {
  const auto [p, state] = two_steps(nn::adam());
  expect_near(p.at("w"), {adam_by_hand(1, 0.5, -0.25, 0), adam_by_hand(-2, 1, 3, 0)}, 1e-14);
  expect_near(state.at("m.w"), {0.9 * 0.05 + 0.1 * -0.25, 0.9 * 0.1 + 0.1 * 3}, 1e-15);
  expect_near(state.at("v.w"), {0.999 * 0.001 * 0.25 + 0.001 * 0.0625, 0.999 * 0.001 + 0.001 * 9}, 1e-15);
  expect_near(state.at("count"), {2});
}

TEST(Adam, FirstStepMovesByTheLearningRate) {
  // Bias correction makes m_hat = g and v_hat = g^2 after one step: p -= lr * g / (|g| + eps).
  nn::Optimizer opt = nn::adam();
  Params p{{"w", f64({1})}};
  const auto [p1, s1] = opt.update(p, {{"w", f64({0.5})}}, opt.init(p), scalar(kLr, DType::f64, reference_backend()));
  expect_near(p1.at("w"), {1 - 0.1 * 0.5 / (0.5 + 1e-8)}, 1e-15);
}

TEST(AdamW, DecoupledWeightDecay) {
  const auto [p, state] = two_steps(nn::adamw({.weight_decay = 0.01}));
  expect_near(p.at("w"), {adam_by_hand(1, 0.5, -0.25, 0.01), adam_by_hand(-2, 1, 3, 0.01)}, 1e-14);
  EXPECT_EQ(nn::adamw().name, "adamw");
}

TEST(Adam, RejectsCoupledWeightDecay) { EXPECT_THROW(nn::adam({.weight_decay = 0.1}), Error); }

TEST(Optimizers, UpdateWholeMapsAndCheckNames) {
  nn::Optimizer opt = nn::adam();
  const Params p{{"a", f64({1})}, {"b", f64({2, 3})}};
  const Params state = opt.init(p);
  EXPECT_EQ(state.size(), 5u) << "count, m.a, m.b, v.a, v.b";
  const Tensor lr = scalar(kLr, DType::f64, reference_backend());
  EXPECT_THROW(opt.update(p, {{"a", f64({1})}}, state, lr), Error) << "a missing gradient";
  EXPECT_THROW(opt.update(p, {{"a", f64({1})}, {"c", f64({1, 1})}}, state, lr), Error) << "a misnamed gradient";
}

TEST(Optimizers, StateStaysInTheParametersDtype) {
  const Params p{{"w", tensor<float>({1.f}, {1}, reference_backend())}};
  nn::Optimizer opt = nn::adam();
  const auto [p1, s1] = opt.update(p, p, opt.init(p), scalar(0.1, DType::f32, reference_backend()));
  EXPECT_EQ(p1.at("w").dtype(), DType::f32);
  EXPECT_EQ(s1.at("count").dtype(), DType::f32);
  EXPECT_EQ(s1.at("m.w").dtype(), DType::f32);
}

TEST(Schedules, ConstantStepAndCosine) {
  EXPECT_EQ(nn::constant_schedule(0.1)(1000), 0.1);
  const nn::Schedule step = nn::step_schedule(1.0, 10, 0.5);
  EXPECT_EQ(step(0), 1.0);
  EXPECT_EQ(step(9), 1.0);
  EXPECT_EQ(step(10), 0.5);
  EXPECT_EQ(step(25), 0.25);
  const nn::Schedule cosine = nn::cosine_schedule(1.0, 100);
  EXPECT_DOUBLE_EQ(cosine(0), 1.0);
  EXPECT_NEAR(cosine(50), 0.5, 1e-15);
  EXPECT_NEAR(cosine(100), 0.0, 1e-15);
  EXPECT_NEAR(cosine(200), 0.0, 1e-15) << "stays at the end value";
  EXPECT_NEAR(nn::cosine_schedule(1.0, 100, 0.1)(100), 0.1, 1e-15);
  EXPECT_THROW(nn::step_schedule(1.0, 0, 0.5), Error);
}

}  // namespace
}  // namespace nxv::nn_test
