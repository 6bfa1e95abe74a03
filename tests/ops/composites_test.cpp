// The composites (src/ops/composites.cpp) on the reference backend: their values against hand-computed ones and
// Nx's documented examples, the edge values they promise (logsumexp at ±inf and NaN, all_close at infinities and
// NaN), their shapes and dtypes, and their errors (nxv::Error naming the op, what it got, what it expected).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "nxv/ops.hpp"
#include "support/expect_error.hpp"

namespace nxv {
namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

Tensor f64(std::vector<double> v, const Shape& s) { return tensor<double>(v, s, reference_backend()); }
Tensor f32(std::vector<float> v, const Shape& s) { return tensor<float>(v, s, reference_backend()); }

using testing::expect_error;

TEST(Logsumexp, RowsAgainstTheDefinition) {
  const Tensor x = f64({1, 2, 3, -1, 0, 1000}, {2, 3});
  const std::vector<double> r = logsumexp(x, Axes{1}).to_vector<double>();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_DOUBLE_EQ(r[0], std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0)));
  // exp(1000) overflows: the shift by the max keeps the answer 1000 + log(1 + e^-1000 + e^-1001).
  EXPECT_DOUBLE_EQ(r[1], 1000.0);
  EXPECT_EQ(logsumexp(x).shape(), Shape{});
  EXPECT_EQ(logsumexp(x, Axes{0}, true).shape(), (Shape{1, 3}));
  EXPECT_EQ(logsumexp(x, Axes{-1}, true).shape(), (Shape{2, 1}));
}

TEST(Logsumexp, InfinitiesAndNaN) {
  // Rows: all -inf, one +inf, a NaN, -inf beside finite values, empty-free mix.
  const Tensor x = f64({-kInf, -kInf, -kInf, 1, kInf, 2, 1, kNaN, 2, -kInf, 0, -kInf}, {4, 3});
  const std::vector<double> r = logsumexp(x, Axes{1}).to_vector<double>();
  EXPECT_EQ(r[0], -kInf);
  EXPECT_EQ(r[1], kInf);
  EXPECT_TRUE(std::isnan(r[2]));
  EXPECT_EQ(r[3], 0.0);
  // An empty axis sums nothing: log 0.
  EXPECT_EQ(logsumexp(zeros({2, 0}, DType::f64, reference_backend()), Axes{1}).to_vector<double>(),
            (std::vector<double>{-kInf, -kInf}));
}

TEST(Logsumexp, IntegersBecomeF32) {
  const Tensor x = tensor<std::int32_t>({0, 0}, {2}, reference_backend());
  const Tensor r = logsumexp(x);
  EXPECT_EQ(r.dtype(), DType::f32);
  EXPECT_FLOAT_EQ(r.to_vector<float>()[0], std::log(2.0f));
}

TEST(Variance, NxExamples) {
  // Nx.variance(Nx.tensor([[1, 2], [3, 4]])) = 1.25; with ddof: 1 -> 5/3; axes [0] -> [1, 1].
  const Tensor x = tensor<std::int32_t>({1, 2, 3, 4}, {2, 2}, reference_backend());
  EXPECT_EQ(variance(x).dtype(), DType::f32);
  EXPECT_FLOAT_EQ(variance(x).to_vector<float>()[0], 1.25f);
  EXPECT_FLOAT_EQ(variance(x, std::nullopt, 1).to_vector<float>()[0], 5.0f / 3.0f);
  EXPECT_EQ(variance(x, Axes{0}).to_vector<float>(), (std::vector<float>{1, 1}));
  EXPECT_EQ(variance(x, Axes{1}, 0, true).shape(), (Shape{2, 1}));
  EXPECT_EQ(standard_deviation(x, Axes{0}, 1).to_vector<float>(),
            (std::vector<float>{std::sqrt(2.0f), std::sqrt(2.0f)}));
  EXPECT_FLOAT_EQ(standard_deviation(x).to_vector<float>()[0], std::sqrt(1.25f));
  // count - ddof = 0: the division gives NaN (0 / 0), as in Nx.
  EXPECT_TRUE(std::isnan(variance(f64({3}, {1}), std::nullopt, 1).to_vector<double>()[0]));
}

TEST(Covariance, MatrixAndBatch) {
  // Two variables over three observations: (1, 2), (2, 4), (3, 0).
  const Tensor x = f64({1, 2, 2, 4, 3, 0}, {3, 2});
  // means 2, 2; centred (-1, 0), (0, 2), (1, -2): sums of products [[2, -2], [-2, 8]].
  EXPECT_EQ(covariance(x).to_vector<double>(), (std::vector<double>{2.0 / 3, -2.0 / 3, -2.0 / 3, 8.0 / 3}));
  EXPECT_EQ(covariance(x, 1).to_vector<double>(), (std::vector<double>{1, -1, -1, 4}));
  const Tensor batch = stack({x, x * 2.0});
  const Tensor c = covariance(batch, 1);
  EXPECT_EQ(c.shape(), (Shape{2, 2, 2}));
  EXPECT_EQ(c.to_vector<double>(), (std::vector<double>{1, -1, -1, 4, 4, -4, -4, 16}));
}

TEST(AllClose, TolerancesInfinitiesAndNaN) {
  auto close = [](const Tensor& a, const Tensor& b, bool equal_nan = false) {
    const Tensor r = all_close(a, b, 1e-5, 1e-8, equal_nan);
    EXPECT_EQ(r.dtype(), DType::pred);
    EXPECT_EQ(r.shape(), Shape{});
    return r.item() != 0.0;
  };
  // NumPy's documented examples.
  EXPECT_FALSE(close(f64({1e10, 1e-7}, {2}), f64({1.00001e10, 1e-8}, {2})));
  EXPECT_TRUE(close(f64({1e10, 1e-8}, {2}), f64({1.00001e10, 1e-9}, {2})));
  EXPECT_FALSE(close(f64({1.0, kNaN}, {2}), f64({1.0, kNaN}, {2})));
  EXPECT_TRUE(close(f64({1.0, kNaN}, {2}), f64({1.0, kNaN}, {2}), true));
  // An infinity is close to itself only: not to a finite value on either side, nor to the other infinity.
  EXPECT_TRUE(close(f64({kInf, -kInf}, {2}), f64({kInf, -kInf}, {2})));
  EXPECT_FALSE(close(f64({1.0}, {1}), f64({kInf}, {1})));
  EXPECT_FALSE(close(f64({kInf}, {1}), f64({1.0}, {1})));
  EXPECT_FALSE(close(f64({kInf}, {1}), f64({-kInf}, {1})));
  EXPECT_FALSE(close(f64({kNaN}, {1}), f64({kInf}, {1}), true));
  // Broadcasting, mixed dtypes, integers, empty tensors (all of nothing is true).
  EXPECT_TRUE(close(f32({1, 1, 1}, {3}), tensor<std::int32_t>({1}, {}, reference_backend())));
  EXPECT_FALSE(close(tensor<std::int32_t>({1, 2}, {2}, reference_backend()),
                     tensor<std::int32_t>({1, 3}, {2}, reference_backend())));
  EXPECT_TRUE(close(f32({}, {0}), f32({}, {0})));
}

TEST(Stack, NewAxisAnywhere) {
  const Tensor a = f32({1, 2, 3}, {3}), b = f32({4, 5, 6}, {3});
  EXPECT_EQ(stack({a, b}).shape(), (Shape{2, 3}));
  EXPECT_EQ(stack({a, b}).to_vector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(stack({a, b}, 1).to_vector<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(stack({a, b}, -1).shape(), (Shape{3, 2}));
  EXPECT_EQ(stack({a}).shape(), (Shape{1, 3}));
  const Tensor s = stack({scalar(1.0, DType::f32, reference_backend()), scalar(2.0, DType::f64, reference_backend())});
  EXPECT_EQ(s.type(), (TensorType{{2}, DType::f64}));
}

TEST(CompositeErrors, NameTheOpAndWhatItExpected) {
  const Tensor x = zeros({2, 3}, DType::f32, reference_backend());
  expect_error([&] { logsumexp(x, Axes{2}); }, {"logsumexp", "axis 2", "rank 2"});
  expect_error([&] { logsumexp(x, Axes{1, 1}); }, {"logsumexp", "repeated"});
  expect_error([&] { logsumexp(Tensor()); }, {"logsumexp", "undefined"});
  expect_error([&] { variance(x, std::nullopt, -1); }, {"variance", "ddof = -1", "non-negative"});
  expect_error([&] { variance(x, Axes{3}); }, {"variance", "axis 3"});
  expect_error([&] { standard_deviation(x, std::nullopt, -2); }, {"standard_deviation", "ddof = -2"});
  expect_error([&] { covariance(zeros({3}, DType::f32, reference_backend())); },
               {"covariance", "f32[3]", "rank 2 or more"});
  expect_error([&] { covariance(x, -1); }, {"covariance", "ddof = -1"});
  expect_error([&] { all_close(x, zeros({4}, DType::f32, reference_backend())); }, {"all_close", "[2, 3]", "[4]"});
  expect_error([&] { stack({}); }, {"stack", "at least one"});
  expect_error(
      [&] {
        stack({x, zeros({3, 2}, DType::f32, reference_backend())});
      },
      {"stack", "f32[2, 3]", "f32[3, 2]", "one shape"});
  expect_error([&] { stack({x, x}, 3); }, {"stack", "axis 3", "rank 3"});
}

TEST(Matmul, BatchAxesBroadcastAndMatchTheLoop) {
  const Tensor a = tensor<double>({1, 2, 3, 4, 5, 6}, {1, 2, 3});                    // [1, 2, 3]
  const Tensor b = tensor<double>({1, 0, 0, 1, 1, 1, 2, 0, 0, 2, 2, 2}, {2, 3, 2});  // [2, 3, 2]
  const Tensor c = matmul(a, b);
  ASSERT_EQ(c.shape(), (Shape{2, 2, 2}));
  // [[1,2,3],[4,5,6]] @ [[1,0],[0,1],[1,1]] = [[4,5],[10,11]]; the second batch doubles it.
  EXPECT_EQ(c.to_vector<double>(), (std::vector<double>{4, 5, 10, 11, 8, 10, 20, 22}));
  EXPECT_EQ(matrix_transpose(a).shape(), (Shape{1, 3, 2}));
  EXPECT_EQ(matrix_transpose(a).to_vector<double>(), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  expect_error([] { matmul(zeros({3}), zeros({3, 2})); }, {"matmul", "rank >= 2"});
  expect_error([] { matmul(zeros({2, 2, 3}), zeros({3, 3, 2})); }, {"matmul", "broadcast"});
  expect_error([] { matrix_transpose(zeros({4})); }, {"matrix_transpose", "rank >= 2"});
}

}  // namespace
}  // namespace nxv
