// conv, window reductions and window scatters on the reference backend, against hand-computed results:
// every option of Nx.conv, the summation order's NaN-from-padding rule, and the window scatter's tie rule
// (the last maximum in row-major window order, as Nx's reference).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "nxv/conv.hpp"

namespace nxv {
namespace {

Backend& host() { return reference_backend(); }
Tensor f(std::vector<float> v, const Shape& s) { return tensor(v, s, host()); }
std::vector<float> vals(const Tensor& t) { return t.to_vector<float>(); }

TEST(ConvReference, OneDimensionalValid) {
  const Tensor y = conv(f({1, 2, 3, 4, 5}, {1, 1, 5}), f({1, 0, -1}, {1, 1, 3}));
  EXPECT_EQ(y.shape(), (Shape{1, 1, 3}));
  EXPECT_EQ(vals(y), (std::vector<float>{-2, -2, -2}));
}

TEST(ConvReference, StridesAndPadding) {
  ConvOptions o;
  o.strides = {2, 2};
  o.padding = {{1, 1}, {1, 1}};
  const Tensor y = conv(f({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 3, 3}), f({1, 1, 1, 1}, {1, 1, 2, 2}), o);
  EXPECT_EQ(y.shape(), (Shape{1, 1, 2, 2}));
  EXPECT_EQ(vals(y), (std::vector<float>{1, 5, 11, 28}));
}

TEST(ConvReference, SamePaddingKeepsTheSizeAtStrideOne) {
  const Tensor x = f({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 3, 3}), w = f({0, 0, 0, 0, 1, 0, 0, 0, 0}, {1, 1, 3, 3});
  ConvOptions o;
  o.padding = conv_padding_same(x, w);
  EXPECT_EQ(o.padding, (Padding{{1, 1}, {1, 1}}));
  EXPECT_EQ(vals(conv(x, w, o)), vals(x));  // the centre tap is the identity
  EXPECT_EQ(padding_same({4}), (Padding{{1, 2}}));
}

TEST(ConvReference, KernelDilation) {
  ConvOptions o;
  o.kernel_dilation = {2};
  EXPECT_EQ(vals(conv(f({1, 2, 3, 4, 5}, {1, 1, 5}), f({1, 1}, {1, 1, 2}), o)), (std::vector<float>{4, 6, 8}));
}

TEST(ConvReference, InputDilation) {
  ConvOptions o;
  o.input_dilation = {2};  // [1, 0, 2, 0, 3]
  EXPECT_EQ(vals(conv(f({1, 2, 3}, {1, 1, 3}), f({1, 10}, {1, 1, 2}), o)), (std::vector<float>{1, 20, 2, 30}));
}

TEST(ConvReference, ChannelsAreSummed) {
  EXPECT_EQ(vals(conv(f({2, 3}, {1, 2, 1}), f({5, 7}, {1, 2, 1}))), (std::vector<float>{31}));
}

TEST(ConvReference, LongSumsAreAddedInChunks) {
  // 2^24 followed by ones: inside a chunk each 1 is lost (2^24 + 1 rounds back to 2^24), but the next chunks'
  // sums (256, then 88) are added whole. A single serial sum would give 2^24; the exact sum is 2^24 + 599.
  static_assert(kConvChunkTerms == 256);
  std::vector<float> w(600, 1.0f);
  w[0] = 16777216.0f;
  EXPECT_EQ(vals(conv(f(std::vector<float>(600, 1.0f), {1, 1, 600}), f(w, {1, 1, 600}))),
            (std::vector<float>{16777216.0f + 256.0f + 88.0f}));
  // Exactly one chunk: one serial sum.
  w.resize(256);
  EXPECT_EQ(vals(conv(f(std::vector<float>(256, 1.0f), {1, 1, 256}), f(w, {1, 1, 256}))),
            (std::vector<float>{16777216.0f}));
}

TEST(ConvReference, FeatureGroups) {
  ConvOptions o;
  o.feature_group_size = 2;
  const Tensor y = conv(f({1, 2, 3, 4}, {1, 2, 2}), f({10, 100}, {2, 1, 1}), o);
  EXPECT_EQ(y.shape(), (Shape{1, 2, 2}));
  EXPECT_EQ(vals(y), (std::vector<float>{10, 20, 300, 400}));
}

TEST(ConvReference, BatchGroupsTakeContiguousBatchBlocks) {
  ConvOptions o;
  o.batch_group_size = 2;
  // Batch [n0, n1, n2, n3]; output channel 0 sees group 0 = (n0, n1), channel 1 sees group 1 = (n2, n3).
  const Tensor y = conv(f({1, 2, 3, 4}, {4, 1, 1}), f({10, 100}, {2, 1, 1}), o);
  EXPECT_EQ(y.shape(), (Shape{2, 2, 1}));
  EXPECT_EQ(vals(y), (std::vector<float>{10, 300, 20, 400}));
}

TEST(ConvReference, PermutationsAreNxs) {
  // NWC input [1, W=2, C=2] and output: input_permutation {0, 2, 1} reads it as [N, C, W].
  ConvOptions o;
  o.feature_group_size = 2;
  o.input_permutation = Axes{0, 2, 1};
  o.output_permutation = Axes{0, 2, 1};
  const Tensor y = conv(f({1, 3, 2, 4}, {1, 2, 2}), f({10, 100}, {2, 1, 1}), o);
  EXPECT_EQ(y.shape(), (Shape{1, 2, 2}));
  EXPECT_EQ(vals(y), (std::vector<float>{10, 300, 20, 400}));
  // A kernel given as [W, I, O]: kernel_permutation {2, 1, 0}.
  ConvOptions k;
  k.kernel_permutation = Axes{2, 1, 0};
  EXPECT_EQ(vals(conv(f({1, 2, 3}, {1, 1, 3}), f({1, 2}, {2, 1, 1}), k)), (std::vector<float>{5, 8}));
}

TEST(ConvReference, PaddingIsAZeroThatTakesPartInTheSum) {
  ConvOptions o;
  o.padding = {{1, 1}};
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> y = vals(conv(f({1}, {1, 1, 1}), f({inf, 1, 1}, {1, 1, 3}), o));
  EXPECT_TRUE(std::isnan(y[0]));  // 0 * inf from the low padding
}

TEST(ConvReference, DtypesArePromotedToAFloat) {
  const Tensor xi = tensor<std::int32_t>({1, 2, 3}, {1, 1, 3}, host());
  EXPECT_EQ(conv(xi, tensor<std::int32_t>({1}, {1, 1, 1}, host())).dtype(), DType::f32);
  const Tensor y = conv(xi, tensor<double>({0.5}, {1, 1, 1}, host()));
  EXPECT_EQ(y.dtype(), DType::f64);
  EXPECT_EQ(y.to_vector<double>(), (std::vector<double>{0.5, 1, 1.5}));
}

TEST(ConvReference, ErrorsNameTheOpAndTheShapes) {
  try {
    conv(f({1, 2, 3, 4}, {1, 2, 2}), f({1, 2, 3}, {1, 3, 1}));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("conv"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("input channels 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(conv(f({1, 2}, {1, 1, 2}), f({1, 2, 3}, {1, 1, 3})), Error);  // empty result
  ConvOptions o;
  o.feature_group_size = 2;
  o.batch_group_size = 2;
  EXPECT_THROW(conv(f({1, 2, 3, 4}, {2, 2, 1}), f({1, 2}, {2, 1, 1}), o), Error);
}

TEST(WindowReference, MaxPool) {
  WindowOptions o;
  o.strides = {1, 1, 2, 2};
  std::vector<float> x(16);
  for (int i = 0; i < 16; ++i) x[static_cast<std::size_t>(i)] = static_cast<float>(i + 1);
  EXPECT_EQ(vals(window_max(f(x, {1, 1, 4, 4}), {1, 1, 2, 2}, o)), (std::vector<float>{6, 8, 14, 16}));
  EXPECT_EQ(vals(window_min(f(x, {1, 1, 4, 4}), {1, 1, 2, 2}, o)), (std::vector<float>{1, 3, 9, 11}));
}

TEST(WindowReference, SumWithPaddingAndDilation) {
  WindowOptions same;
  same.padding = {{1, 1}};
  EXPECT_EQ(vals(window_sum(f({1, 2, 3}, {3}), {3}, same)), (std::vector<float>{3, 6, 5}));
  WindowOptions dilated;
  dilated.window_dilations = {2};
  EXPECT_EQ(vals(window_sum(f({1, 2, 3, 4, 5}, {5}), {2}, dilated)), (std::vector<float>{4, 6, 8}));
  EXPECT_EQ(vals(window_product(f({1, 2, 3, 4}, {4}), {2})), (std::vector<float>{2, 6, 12}));
  EXPECT_EQ(vals(window_mean(f({1, 2, 3, 4}, {4}), {2})), (std::vector<float>{1.5, 2.5, 3.5}));
  // Padding of max is -inf, so an all-padding row of the output is -inf.
  WindowOptions low;
  low.padding = {{2, 0}};
  EXPECT_EQ(vals(window_max(f({1, 2}, {2}), {2}, low))[0], -std::numeric_limits<float>::infinity());
}

TEST(WindowReference, IntegerWindowsKeepTheirType) {
  const Tensor y = window_sum(tensor<std::int32_t>({1, 2, 3}, {3}, host()), {2});
  EXPECT_EQ(y.dtype(), DType::s32);
  EXPECT_EQ(y.to_vector<std::int32_t>(), (std::vector<std::int32_t>{3, 5}));
}

TEST(WindowScatterReference, TiesGoToTheLastElement) {
  // Windows of relu zeros (and -0.0 beside +0.0, equal keys): Nx's reference sends each to its last element.
  WindowOptions o;
  o.strides = {1, 2};
  const Tensor y =
      window_scatter_max(f({0, 0, 0, -0.0f}, {1, 4}), f({1, 2}, {1, 2}), scalar(0.0, DType::f32, host()), {1, 2}, o);
  EXPECT_EQ(vals(y), (std::vector<float>{0, 1, 0, 2}));
  const Tensor z =
      window_scatter_min(f({0, 0, -0.0f, 0}, {1, 4}), f({1, 2}, {1, 2}), scalar(0.0, DType::f32, host()), {1, 2}, o);
  EXPECT_EQ(vals(z), (std::vector<float>{0, 1, 0, 2}));
  // A 2x2 window of zeros: its last element in row-major order, (1, 1).
  const Tensor w = window_scatter_max(f({0, 0, 0, 0}, {2, 2}), f({5}, {1, 1}), scalar(0.0, DType::f32, host()), {2, 2});
  EXPECT_EQ(vals(w), (std::vector<float>{0, 0, 0, 5}));
}

TEST(WindowScatterReference, OverlappingWindowsAccumulateOnInit) {
  // Windows [1 3 2], [3 2 3], [2 3 1]: the first selects index 1 (its only 3), the other two index 3 (the last 3).
  const Tensor y =
      window_scatter_max(f({1, 3, 2, 3, 1}, {5}), f({10, 20, 30}, {3}), scalar(0.5, DType::f32, host()), {3});
  EXPECT_EQ(vals(y), (std::vector<float>{0.5, 10.5, 0.5, 50.5, 0.5}));
}

TEST(WindowScatterReference, LastNanWinsAndPaddingIsNeverSelected) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(vals(window_scatter_max(f({1, nan, 5, nan, 2}, {5}), f({7}, {1}), scalar(0.0, DType::f32, host()), {5})),
            (std::vector<float>{0, 0, 0, 7, 0}));
  EXPECT_EQ(vals(window_scatter_min(f({1, nan, -5, nan, -9}, {5}), f({7}, {1}), scalar(0.0, DType::f32, host()), {5})),
            (std::vector<float>{0, 0, 0, 7, 0}));
  // Windows over [pad, pad], [pad, x0], [x0, x1]: the first selects nothing; any element, even -inf, is chosen
  // over padding.
  WindowOptions o;
  o.padding = {{2, 0}};
  EXPECT_EQ(vals(window_scatter_max(f({1, 2}, {2}), f({1, 2, 3}, {3}), scalar(0.0, DType::f32, host()), {2}, o)),
            (std::vector<float>{2, 3}));
  const float inf = std::numeric_limits<float>::infinity();
  // [x0, x1] = [-inf, -inf] is a tie: the last, x1.
  EXPECT_EQ(vals(window_scatter_max(f({-inf, -inf}, {2}), f({1, 2, 3}, {3}), scalar(0.0, DType::f32, host()), {2}, o)),
            (std::vector<float>{2, 3}));
}

TEST(WindowScatterReference, SourceMustMatchTheWindows) {
  EXPECT_THROW(window_scatter_max(f({1, 2, 3}, {3}), f({1, 2, 3}, {3}), scalar(0.0, DType::f32, host()), {2}), Error);
}

}  // namespace
}  // namespace nxv
