// Activations against hand-computed values (f64), and the stability of (log_)softmax with huge logits.
#include "support/nn.hpp"

namespace nxv::nn_test {
namespace {

TEST(Activations, Relu) { expect_near(nn::relu(f64({-1, 0, 2})), {0, 0, 2}); }

TEST(Activations, LeakyRelu) { expect_near(nn::leaky_relu(f64({-2, 0, 3}), 0.1), {-0.2, 0, 3}); }

TEST(Activations, GeluIsTheErfForm) {
  // x * Phi(x): Phi(1) = 0.8413447460685429, Phi(-1) = 0.15865525393145707.
  expect_near(nn::gelu(f64({1, -1, 0})), {0.8413447460685429, -0.15865525393145707, 0}, 1e-15);
}

TEST(Activations, Silu) { expect_near(nn::silu(f64({1, 0})), {0.7310585786300049, 0}, 1e-15); }

TEST(Activations, TanhAndSigmoidAreTheOps) {
  expect_near(nn::tanh(f64({0.5})), {0.46211715726000974}, 1e-15);
  expect_near(nn::sigmoid(f64({0})), {0.5});
}

TEST(Activations, SoftmaxAlongTheLastAxis) {
  expect_near(nn::softmax(f64({1, 2, 3, 0, 0, 0}, {2, 3})),
              {0.09003057317038046, 0.24472847105479764, 0.6652409557748219, 1 / 3.0, 1 / 3.0, 1 / 3.0}, 1e-15);
}

TEST(Activations, LogSoftmax) {
  expect_near(nn::log_softmax(f64({1, 2, 3})), {-2.4076059644443806, -1.4076059644443806, -0.4076059644443806}, 1e-14);
}

TEST(Activations, LogSoftmaxIsStableForHugeLogitsInF32) {
  const Tensor x = tensor<float>({1e4f, 0.f, -1e4f}, {3}, reference_backend());
  expect_near(nn::log_softmax(x), {0, -1e4, -2e4}, 1e-3);
  expect_near(nn::softmax(x), {1, 0, 0});
}

TEST(Activations, LogSoftmaxAlongAxis0) {
  expect_near(nn::log_softmax(f64({0, 5, 0, 5}, {2, 2}), 0),
              {-0.6931471805599453, -0.6931471805599453, -0.6931471805599453, -0.6931471805599453}, 1e-15);
}

}  // namespace
}  // namespace nxv::nn_test
