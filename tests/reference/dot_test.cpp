// Reference kernel: dot (Nx's dot/6). Expectations come from explicit index loops in the test; the
// accumulation order (rounded product, then rounded sum, k increasing) is checked with values where it matters.
#include <cmath>
#include <cstdint>

#include "support/reference.hpp"

namespace nxv::reference_test {
namespace {

DotAttrs dot_attrs(Axes ca, Axes ba, Axes cb, Axes bb) {
  return {.contract_a = ca, .batch_a = ba, .contract_b = cb, .batch_b = bb};
}

// A[2x3] and B[3x2] as plain arrays, and their product C = A B (2x2), computed by hand.
const std::vector<double> kA{1, 2, 3, 4, 5, 6};     // A[i][k] = kA[i * 3 + k]
const std::vector<double> kB{7, 8, 9, 10, 11, 12};  // B[k][j] = kB[k * 2 + j]
const std::vector<double> kAB{58, 64, 139, 154};

// The same matrix stored transposed: t[j * rows + i] = m[i * cols + j].
std::vector<double> transposed(const std::vector<double>& m, int rows, int cols) {
  std::vector<double> t(m.size());
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      t[static_cast<std::size_t>(j * rows + i)] = m[static_cast<std::size_t>(i * cols + j)];
  return t;
}

TEST(ReferenceDot, AllFourTwoDimensionalOrientations) {
  const auto at = transposed(kA, 2, 3);  // [3, 2]
  const auto bt = transposed(kB, 3, 2);  // [2, 3]
  const TensorType out{{2, 2}, DType::f64};
  // a[1] with b[0]: A B.
  EXPECT_EQ(values<double>(run(OpCode::dot, dot_attrs({1}, {}, {0}, {}), {make(kA, {2, 3}), make(kB, {3, 2})}, out)),
            kAB);
  // a[1] with b[1]: A (B^T)^T.
  EXPECT_EQ(values<double>(run(OpCode::dot, dot_attrs({1}, {}, {1}, {}), {make(kA, {2, 3}), make(bt, {2, 3})}, out)),
            kAB);
  // a[0] with b[0]: (A^T)^T B.
  EXPECT_EQ(values<double>(run(OpCode::dot, dot_attrs({0}, {}, {0}, {}), {make(at, {3, 2}), make(kB, {3, 2})}, out)),
            kAB);
  // a[0] with b[1]: (A^T)^T (B^T)^T.
  EXPECT_EQ(values<double>(run(OpCode::dot, dot_attrs({0}, {}, {1}, {}), {make(at, {3, 2}), make(bt, {2, 3})}, out)),
            kAB);
}

TEST(ReferenceDot, BatchAxesComeFirst) {
  // a: [2, 2, 3] (batch 0), b: [2, 3, 2] (batch 0); out[n][i][j] = sum_k a[n][i][k] b[n][k][j].
  std::vector<std::int32_t> a = counting<std::int32_t>(12), b = counting<std::int32_t>(12);
  auto r = values<std::int32_t>(run(OpCode::dot, dot_attrs({2}, {0}, {1}, {0}),
                                    {make(a, {2, 2, 3}), make(b, {2, 3, 2})}, {{2, 2, 2}, DType::s32}));
  for (int n = 0; n < 2; ++n)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        std::int32_t e = 0;
        for (int k = 0; k < 3; ++k)
          e += a[static_cast<std::size_t>(n * 6 + i * 3 + k)] * b[static_cast<std::size_t>(n * 6 + k * 2 + j)];
        EXPECT_EQ(r[static_cast<std::size_t>(n * 4 + i * 2 + j)], e) << n << i << j;
      }
}

TEST(ReferenceDot, BatchAxisInTheMiddleAndTwoContractingAxes) {
  // a: [3, 2, 4] with batch axis 1 and contracting axes (0, 2); b: [4, 2, 3, 5] with batch 1, contracting (2, 0).
  // b's only free axis is 3 (size 5), so out is [2, 5]: out[n][m] = sum_{p, q} a[p][n][q] * b[q][n][p][m].
  const Shape sa{3, 2, 4}, sb{4, 2, 3, 5};
  auto a = counting<std::int64_t>(num_elements(sa));
  auto b = counting<std::int64_t>(num_elements(sb));
  auto r = values<std::int64_t>(
      run(OpCode::dot, dot_attrs({0, 2}, {1}, {2, 0}, {1}), {make(a, sa), make(b, sb)}, {{2, 5}, DType::s64}));
  for (std::int64_t n = 0; n < 2; ++n)
    for (std::int64_t m = 0; m < 5; ++m) {
      std::int64_t e = 0;
      for (std::int64_t p = 0; p < 3; ++p)
        for (std::int64_t q = 0; q < 4; ++q)
          e += a[static_cast<std::size_t>(ravel({p, n, q}, sa))] * b[static_cast<std::size_t>(ravel({q, n, p, m}, sb))];
      EXPECT_EQ(r[static_cast<std::size_t>(n * 5 + m)], e) << n << m;
    }
}

TEST(ReferenceDot, OuterProductAndEmptyContraction) {
  EXPECT_EQ(values<float>(run(OpCode::dot, dot_attrs({}, {}, {}, {}),
                              {make<float>({1, 2}, {2}), make<float>({3, 4, 5}, {3})}, {{2, 3}, DType::f32})),
            (std::vector<float>{3, 4, 5, 6, 8, 10}));
  EXPECT_EQ(values<float>(run(OpCode::dot, dot_attrs({1}, {}, {0}, {}),
                              {make<float>({}, {2, 0}), make<float>({}, {0, 3})}, {{2, 3}, DType::f32})),
            (std::vector<float>(6, 0.0f)));
  EXPECT_EQ(values<float>(run(OpCode::dot, dot_attrs({0}, {}, {0}, {}),
                              {make<float>({1, 2, 3}, {3}), make<float>({4, 5, 6}, {3})}, {{}, DType::f32})),
            (std::vector<float>{32}));
}

TEST(ReferenceDot, FloatAccumulationRoundsEachStepInIncreasingK) {
  // x = 1 + 2^-13: x*x = 1 + 2^-12 + 2^-26 rounds to 1 + 2^-12 in f32, so [x, x] . [-x, x] is exactly 0 when the
  // product is rounded before the sum (a fused multiply-add would leave 2^-26).
  const float x = 1.0f + 0x1p-13f;
  auto r = run(OpCode::dot, dot_attrs({0}, {}, {0}, {}), {make<float>({x, x}, {2}), make<float>({-x, x}, {2})},
               {{}, DType::f32});
  EXPECT_EQ(values<float>(r)[0], 0.0f);
  // 1 + 2^-24 + 2^-24 is 1 left to right (each sum ties to even), but 1 + 2^-23 right to left: the order is part
  // of the result.
  const float e = 0x1p-24f;
  auto fwd = run(OpCode::dot, dot_attrs({0}, {}, {0}, {}), {make<float>({1, e, e}, {3}), make<float>({1, 1, 1}, {3})},
                 {{}, DType::f32});
  EXPECT_EQ(values<float>(fwd)[0], 1.0f);
  auto rev = run(OpCode::dot, dot_attrs({0}, {}, {0}, {}), {make<float>({e, e, 1}, {3}), make<float>({1, 1, 1}, {3})},
                 {{}, DType::f32});
  EXPECT_EQ(values<float>(rev)[0], 1.0f + 0x1p-23f);
}

TEST(ReferenceDot, IntegerAccumulationWraps) {
  EXPECT_EQ(values<std::int32_t>(run(OpCode::dot, dot_attrs({0}, {}, {0}, {}),
                                     {make<std::int32_t>({65536, 65536}, {2}), make<std::int32_t>({32768, 32768}, {2})},
                                     {{}, DType::s32})),
            (std::vector<std::int32_t>{0}));  // 2 * 2^31 = 2^32 wraps to 0
  EXPECT_EQ(
      values<std::uint8_t>(run(
          OpCode::dot, dot_attrs({0}, {}, {0}, {}),
          {make<std::uint8_t>({16, 3}, {2}, DType::u8), make<std::uint8_t>({16, 5}, {2}, DType::u8)}, {{}, DType::u8})),
      (std::vector<std::uint8_t>{(256 + 15) % 256}));
}

}  // namespace
}  // namespace nxv::reference_test
