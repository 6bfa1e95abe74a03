// Losses and metrics against hand-computed values, and their stability with huge logits.
#include <cmath>

#include "support/nn.hpp"

namespace nxv::nn_test {
namespace {

Tensor labels(std::vector<std::int64_t> v) {
  const Shape shape{static_cast<std::int64_t>(v.size())};
  return tensor(v, shape, reference_backend());
}

TEST(Losses, SoftmaxCrossEntropyIsTheMeanNegativeLogLikelihood) {
  // log_softmax([1, 2, 3]) = [-2.4076, -1.4076, -0.4076]: label 2 costs 0.4076, label 0 costs 2.4076.
  const Tensor logits = f64({1, 2, 3, 1, 2, 3}, {2, 3});
  expect_near(nn::softmax_cross_entropy(logits, labels({2, 0})), {(0.4076059644443806 + 2.4076059644443806) / 2},
              1e-14);
}

TEST(Losses, SoftmaxCrossEntropyIsStableForHugeLogits) {
  const Tensor logits = tensor<float>({1e4f, 0.f, 0.f, 1e4f}, {2, 2}, reference_backend());
  const double loss = nn::softmax_cross_entropy(logits, labels({0, 0})).item();
  EXPECT_TRUE(std::isfinite(loss));
  EXPECT_NEAR(loss, 5000.0, 1e-2) << "row 0 is right (0), row 1 wrong by 1e4";
}

TEST(Losses, SoftmaxCrossEntropyAcceptsS32Labels) {
  const Tensor l = tensor<std::int32_t>({1}, {1}, reference_backend());
  expect_near(nn::softmax_cross_entropy(f64({0, 0}, {1, 2}), l), {0.6931471805599453}, 1e-15);
}

TEST(Losses, SoftmaxCrossEntropyRejectsMismatchedShapes) {
  EXPECT_THROW(nn::softmax_cross_entropy(f64({0, 0}, {1, 2}), labels({0, 1})), Error);
  EXPECT_THROW(nn::softmax_cross_entropy(f64({0, 0}, {1, 2}), f64({0})), Error);
}

TEST(Losses, BinaryCrossEntropyFromLogits) {
  // t = 1, x = 0: log 2. x = 100, t = 0: 100 (log1p(exp(-100)) vanishes). x = -100, t = 0: ~0, not NaN.
  expect_near(nn::binary_cross_entropy(f64({0}), f64({1})), {0.6931471805599453}, 1e-15);
  expect_near(nn::binary_cross_entropy(f64({100}), f64({0})), {100}, 1e-12);
  expect_near(nn::binary_cross_entropy(f64({-100}), f64({0})), {0}, 1e-40);
  const Tensor huge = tensor<float>({1e30f, -1e30f}, {2}, reference_backend());
  const Tensor targets = tensor<float>({1.f, 0.f}, {2}, reference_backend());
  EXPECT_EQ(nn::binary_cross_entropy(huge, targets).item(), 0.0);
}

TEST(Losses, MeanSquaredError) { expect_near(nn::mean_squared_error(f64({1, 2}), f64({0, 0})), {2.5}); }

TEST(Metrics, AccuracyAndCorrectCount) {
  const Tensor logits = f64({1, 2, 3, 0, 0, 5}, {3, 2});
  expect_near(nn::accuracy(logits, labels({1, 1, 1})), {2 / 3.0}, 1e-15);
  EXPECT_EQ(nn::correct_count(logits, labels({1, 1, 1})).item(), 2.0);
  EXPECT_EQ(nn::correct_count(logits, labels({1, 1, 1})).dtype(), DType::s64);
}

}  // namespace
}  // namespace nxv::nn_test
