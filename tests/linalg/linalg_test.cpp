// nxv::linalg against LAPACK (Debian's liblapacke, a test-only oracle) and the Vulkan kernels against the reference.
//
// Bounds, from backward-error analysis (Higham, "Accuracy and Stability of Numerical Algorithms"), with ‖·‖ the
// max-norm and ε the unit roundoff of the dtype:
//  - cholesky:          ‖A − L Lᵀ‖ ≤ c·n·ε·‖A‖                      (c = 4)
//  - lu:                ‖P A − L U‖ ≤ c·n·ε·‖L‖‖U‖                   (c = 4)
//  - triangular_solve:  ‖op(A) X − B‖ ≤ c·n·ε·‖A‖‖X‖                 (c = 4)
//  - solve:             ‖A X − B‖ ≤ c·n·ε·‖A‖‖X‖·growth             (c = 8, growth ≤ n on these inputs)
// LAPACK's factors are compared too: the same pivots, and factors within c·n·ε·κ relative (κ the condition number
// bound of the inputs, ≤ 10 for the diagonally dominant ones used there). The Vulkan backend runs the reference's
// operations in the same order; its results are compared with the reference's within 8 ε relative to the largest
// element (a GPU may round division and square root differently), with zero host fallbacks.
#include <lapacke.h>

#include <cmath>
#include <limits>
#include <random>

#include "nxv/defn.hpp"
#include "nxv/fallback.hpp"
#include "nxv/linalg.hpp"
#include "ops/matrix_block.hpp"
#include "support/expect_error.hpp"
#include "support/linalg.hpp"
#include "support/parity.hpp"

namespace nxv::testing {
namespace {

using linalg::TriangularSolveOptions;

class Linalg : public ::testing::TestWithParam<DType> {};
INSTANTIATE_TEST_SUITE_P(Dtypes, Linalg, ::testing::Values(DType::f32, DType::f64),
                         [](const ::testing::TestParamInfo<DType>& info) { return std::string(name(info.param)); });

// ---- the reference against LAPACK ------------------------------------------------------------------------------

TEST_P(Linalg, CholeskyMatchesLapackAndReconstructs) {
  const DType dtype = GetParam();
  for (std::int64_t n : {1, 2, 7, 33}) {
    const Tensor a = spd({}, n, dtype, 10 + n);
    const Tensor l = linalg::cholesky(a);
    const double eps = unit_roundoff(dtype), norm_a = max_abs(values(a));
    EXPECT_LE(max_abs_diff(values(matmul(l, matrix_transpose(l))), values(a)), 4 * n * eps * norm_a) << "n = " << n;
    EXPECT_EQ(max_abs(values(triu(l, 1))), 0.0) << "zeros above the diagonal";
    // LAPACK's potrf on the same matrix (column-major: its 'U' is our row-major lower triangle).
    std::vector<double> lapack = values(a);
    ASSERT_EQ(LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', static_cast<int>(n), lapack.data(), static_cast<int>(n)), 0);
    const std::vector<double> ours = values(l);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j <= i; ++j)
        EXPECT_NEAR(ours[i * n + j], lapack[i * n + j], 16 * n * eps * std::sqrt(norm_a)) << i << "," << j;
  }
}

TEST_P(Linalg, LuMatchesLapackPivotsAndReconstructs) {
  const DType dtype = GetParam();
  for (std::int64_t n : {1, 3, 8, 40}) {
    const Tensor a = random_matrices({}, n, dtype, 20 + n);
    const linalg::LU f = linalg::lu(a);
    const double eps = unit_roundoff(dtype);
    const double bound = 4 * n * eps * max_abs(values(f.l)) * max_abs(values(f.u)) * n;
    EXPECT_LE(max_abs_diff(values(matmul(f.p, matmul(f.l, f.u))), values(a)), bound) << "n = " << n;
    EXPECT_EQ(max_abs(values(triu(f.l, 1))), 0.0);
    EXPECT_EQ(max_abs(values(tril(f.u, -1))), 0.0);
    // LAPACK's getrf in the same precision picks the same pivots (the same comparisons on the same numbers).
    std::vector<int> ipiv(static_cast<std::size_t>(n));
    std::vector<double> lapack_u;
    if (dtype == DType::f64) {
      lapack_u = values(a);
      ASSERT_EQ(LAPACKE_dgetrf(LAPACK_ROW_MAJOR, n, n, lapack_u.data(), n, ipiv.data()), 0);
    } else {
      std::vector<float> af = a.to_vector<float>();
      ASSERT_EQ(LAPACKE_sgetrf(LAPACK_ROW_MAJOR, n, n, af.data(), n, ipiv.data()), 0);
      lapack_u.assign(af.begin(), af.end());
    }
    // Our permutation from LAPACK's row swaps.
    std::vector<double> perm(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) perm[i] = static_cast<double>(i);
    for (std::int64_t j = 0; j < n; ++j) std::swap(perm[j], perm[ipiv[j] - 1]);
    const std::vector<double> p = values(f.p);
    for (std::int64_t i = 0; i < n; ++i)
      EXPECT_EQ(p[static_cast<std::int64_t>(perm[i]) * n + i], 1.0) << "row " << i << " of P A is a's row " << perm[i];
    const std::vector<double> u = values(f.u);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = i; j < n; ++j)
        EXPECT_NEAR(u[i * n + j], lapack_u[i * n + j], 64 * n * eps) << i << "," << j;
  }
}

TEST_P(Linalg, TriangularSolveSatisfiesItsSystemEveryWay) {
  const DType dtype = GetParam();
  const std::int64_t n = 9, k = 4;
  const Tensor a = random_matrices({2}, n, dtype, 31, 3.0);
  for (bool left : {true, false})
    for (bool lower : {true, false})
      for (bool transpose_a : {true, false})
        for (bool unit : {true, false}) {
          const TriangularSolveOptions o{left, lower, transpose_a, unit};
          const Tensor b = uniform(key(32), left ? Shape{2, n, k} : Shape{2, k, n}, dtype, -1.0, 1.0);
          const Tensor x = linalg::triangular_solve(a, b, o);
          Tensor t = lower ? tril(a) : triu(a);
          if (unit) t = t - tril(triu(t)) + eye(Shape{n, n}, dtype);
          if (transpose_a) t = matrix_transpose(t);
          const Tensor residual = (left ? matmul(t, x) : matmul(x, t)) - b;
          const double bound = 4 * n * unit_roundoff(dtype) * max_abs(values(t)) * max_abs(values(x)) * n;
          EXPECT_LE(max_abs(values(residual)), bound)
              << "left " << left << " lower " << lower << " transpose " << transpose_a << " unit " << unit;
          // LAPACK's trtrs on the first matrix of the batch; the right side as op(a)ᵀ xᵀ = bᵀ.
          std::vector<double> av = values(slice(a, {0, 0, 0}, {1, n, n}));
          std::vector<double> rhs = values(slice(left ? b : matrix_transpose(b), {0, 0, 0}, {1, n, k}));
          const char trans = transpose_a != !left ? 'T' : 'N';
          ASSERT_EQ(LAPACKE_dtrtrs(LAPACK_ROW_MAJOR, lower ? 'L' : 'U', trans, unit ? 'U' : 'N', n, k, av.data(), n,
                                   rhs.data(), k),
                    0);
          const std::vector<double> ours = values(slice(left ? x : matrix_transpose(x), {0, 0, 0}, {1, n, k}));
          EXPECT_LE(max_abs_diff(ours, rhs), 64 * n * unit_roundoff(dtype) * max_abs(rhs));
        }
}

TEST_P(Linalg, SolveDeterminantInvertMatchLapack) {
  const DType dtype = GetParam();
  const double eps = unit_roundoff(dtype);
  for (std::int64_t n : {1, 4, 12}) {
    const Tensor a = random_matrices({3}, n, dtype, 40 + n);
    const Tensor b = uniform(key(41), {3, n, 2}, dtype, -1.0, 1.0);
    const Tensor x = linalg::solve(a, b);
    const double growth = static_cast<double>(n);
    EXPECT_LE(max_abs(values(matmul(a, x) - b)), 8 * n * eps * growth * max_abs(values(a)) * max_abs(values(x)) * n)
        << "n = " << n;
    // A vector right-hand side gives the first column's solution.
    const Tensor xv = linalg::solve(a, squeeze(slice(b, {0, 0, 0}, {3, n, 1}), Axes{2}));
    EXPECT_EQ(values(xv), values(squeeze(slice(x, {0, 0, 0}, {3, n, 1}), Axes{2})));
    // Determinants: LAPACK's getrf in f64 as the oracle (relative to the product of the factors' magnitudes).
    const std::vector<double> dets = values(linalg::determinant(a));
    for (std::int64_t m = 0; m < 3; ++m) {
      std::vector<double> f = values(slice(a, {m, 0, 0}, {1, n, n}));
      std::vector<int> ipiv(static_cast<std::size_t>(n));
      ASSERT_EQ(LAPACKE_dgetrf(LAPACK_ROW_MAJOR, n, n, f.data(), n, ipiv.data()), 0);
      double det = 1, magnitude = 1;
      for (std::int64_t i = 0; i < n; ++i) {
        det *= f[i * n + i] * (ipiv[i] != i + 1 ? -1.0 : 1.0);
        magnitude *= std::abs(f[i * n + i]);
      }
      EXPECT_NEAR(dets[m], det, 16 * n * n * eps * magnitude) << "matrix " << m << " of n = " << n;
    }
    const Tensor inverse = linalg::invert(a);
    const Tensor identity = broadcast(eye(Shape{n, n}, dtype), Shape{3, n, n});
    EXPECT_LE(max_abs(values(matmul(a, inverse) - identity)),
              8 * n * eps * growth * max_abs(values(a)) * max_abs(values(inverse)) * n);
  }
}

TEST_P(Linalg, IllConditionedSolvesKeepASmallBackwardError) {
  // κ = 1e12 in f64 (1e5 in f32): backward stability bounds the residual whatever κ is.
  const DType dtype = GetParam();
  const std::int64_t n = 10;
  const Tensor a = conditioned(n, dtype == DType::f64 ? 1e12 : 1e5, dtype);
  const Tensor b = uniform(key(51), {n, 3}, dtype, -1.0, 1.0);
  const Tensor x = linalg::solve(a, b);
  const double bound = 8 * n * n * n * unit_roundoff(dtype) * max_abs(values(a)) * max_abs(values(x));
  EXPECT_LE(max_abs(values(matmul(a, x) - b)), bound);
  const Tensor l = linalg::cholesky(a);
  EXPECT_LE(max_abs_diff(values(matmul(l, matrix_transpose(l))), values(a)),
            4 * n * unit_roundoff(dtype) * max_abs(values(a)));
}

// ---- singular and non-positive-definite input: NaN or a zero pivot, never an error --------------------------

TEST_P(Linalg, NotPositiveDefiniteGivesNanFromTheFailingColumn) {
  const DType dtype = GetParam();
  // Leading 2x2 block positive definite, the third pivot 1 - 4 < 0.
  const Tensor a = as_type(tensor<double>({4, 0, 0, 0, 1, 0, 0, 2, 1}, {3, 3}), dtype);
  for (Backend* backend : {&reference_backend(), &vulkan::backend()}) {
    if (backend != &reference_backend() && !vulkan::available()) continue;
    const std::vector<double> l = values(linalg::cholesky(a.to(*backend)));
    EXPECT_EQ(l[0], 2.0);
    EXPECT_EQ(l[4], 1.0);
    EXPECT_EQ(l[7], 2.0);
    EXPECT_TRUE(std::isnan(l[8])) << "the failing pivot's square root, on " << backend->name();
  }
}

TEST_P(Linalg, SingularMatricesGiveZeroDeterminantAndNonFiniteSolves) {
  const DType dtype = GetParam();
  const Tensor a = as_type(tensor<double>({1, 2, 3, 2, 4, 6, 1, 0, 1}, {3, 3}), dtype);  // row 2 = 2 row 1
  for (Backend* backend : {&reference_backend(), &vulkan::backend()}) {
    if (backend != &reference_backend() && !vulkan::available()) continue;
    const Tensor ad = a.to(*backend);
    EXPECT_EQ(linalg::determinant(ad).item(), 0.0) << backend->name();
    const std::vector<double> u = values(linalg::lu(ad).u);
    EXPECT_EQ(u[8], 0.0) << "a zero on U's diagonal, on " << backend->name();
    const std::vector<double> x = values(linalg::solve(ad, ones({3}, dtype, *backend)));
    bool finite = true;
    for (double v : x) finite = finite && std::isfinite(v);
    EXPECT_FALSE(finite) << backend->name();
  }
}

TEST(Linalg, EmptyBatchesAndEmptyMatrices) {
  for (const Shape& shape : {Shape{0, 3, 3}, Shape{2, 0, 0}}) {
    EXPECT_EQ(linalg::cholesky(zeros(shape, DType::f64)).shape(), shape);
    EXPECT_EQ(linalg::lu(zeros(shape)).u.shape(), shape);
    EXPECT_EQ(linalg::invert(zeros(shape)).shape(), shape);
  }
  // The determinant of a 0x0 matrix is 1 (the empty product), as NumPy's.
  EXPECT_EQ(values(linalg::determinant(zeros({2, 0, 0}))), (std::vector<double>{1.0, 1.0}));
}

// ---- Vulkan against the reference ----------------------------------------------------------------------------

TEST_P(Linalg, VulkanFactorisationsMatchTheReference) {
  NXV_REQUIRE_VULKAN();
  const DType dtype = GetParam();
  // Shapes: one matrix, a batch, orders around the workgroup's 64 invocations, size 1, empty.
  for (const auto& [batch, n] : std::vector<std::pair<Shape, std::int64_t>>{
           {{}, 1}, {{}, 5}, {{3, 2}, 4}, {{2}, 63}, {{1}, 70}, {{0}, 3}, {{2}, 0}}) {
    const std::string at = to_string(batch) + " n = " + std::to_string(n);
    expect_close_on_vulkan([](const std::vector<Tensor>& x) { return linalg::cholesky(x[0]); },
                           {spd(batch, n, dtype, 60 + n)}, "cholesky " + at);
    expect_close_on_vulkan(
        [](const std::vector<Tensor>& x) {
          const linalg::LU f = linalg::lu(x[0]);
          return concatenate({f.p, f.l, f.u}, -1);
        },
        {random_matrices(batch, n, dtype, 70 + n)}, "lu " + at);
  }
}

TEST_P(Linalg, VulkanBlockedCholeskyReconstructsAndAgreesWithTheReference) {
  NXV_REQUIRE_VULKAN();
  const DType dtype = GetParam();
  const double eps = unit_roundoff(dtype);
  // Orders past two panels of 64 run blocked onto matmul (src/vulkan/kernels/linalg_blocked.cpp): one split with a
  // leaf of 65, a batch, and two levels of recursion with a ragged last block.
  for (const auto& [batch, n] : std::vector<std::pair<Shape, std::int64_t>>{{{2}, 129}, {{}, 300}}) {
    const std::string at = to_string(batch) + " n = " + std::to_string(n);
    const Tensor a = spd(batch, n, dtype, 90 + n);
    Tensor l;
    EXPECT_EQ(fallback::count_total([&] { l = linalg::cholesky(a.to(vulkan::backend())).to_host(); }), 0u) << at;
    const double norm_a = max_abs(values(a));
    EXPECT_LE(max_abs_diff(values(matmul(l, matrix_transpose(l))), values(a)), 4 * n * eps * norm_a) << at;
    EXPECT_EQ(max_abs(values(triu(l, 1))), 0.0) << at;
    EXPECT_LE(max_abs_diff(values(l), values(linalg::cholesky(a))), 16 * n * eps * std::sqrt(norm_a)) << at;
  }
  // Not positive definite at pivot 200 (in the second half's block): NaN from column 200 on, as the reference.
  const std::int64_t n = 300;
  std::vector<double> entries = values(spd({}, n, dtype, 7));
  entries[200 * n + 200] = -1.0;
  const Tensor a = as_type(tensor<double>(entries, {n, n}), dtype);
  const std::vector<double> want = values(linalg::cholesky(a)), got = values(linalg::cholesky(a.to(vulkan::backend())));
  int mismatches = 0;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j <= i; ++j) {
      const std::size_t e = static_cast<std::size_t>(i * n + j);
      EXPECT_EQ(std::isnan(want[e]), j >= 200) << "the reference at " << i << "," << j;
      if (std::isnan(got[e]) != std::isnan(want[e]) && mismatches++ < 3)
        ADD_FAILURE() << "element " << i << "," << j << " is " << got[e] << ", the reference " << want[e];
    }
}

TEST_P(Linalg, VulkanBlockedLuReconstructsAndPivotsAsTheReference) {
  NXV_REQUIRE_VULKAN();
  const DType dtype = GetParam();
  const double eps = unit_roundoff(dtype);
  // Orders past 256 recurse on columns onto matmul (src/vulkan/kernels/linalg_blocked.cpp): a batch just past it,
  // and 300, whose trailing square half goes to the one-workgroup kernel.
  for (const auto& [batch, n] : std::vector<std::pair<Shape, std::int64_t>>{{{2}, 257}, {{}, 300}}) {
    const std::string at = to_string(batch) + " n = " + std::to_string(n);
    const Tensor a = random_matrices(batch, n, dtype, 110 + n);
    linalg::LU f;
    EXPECT_EQ(fallback::count_total([&] {
                f = linalg::lu(a.to(vulkan::backend()));
                f = {f.p.to_host(), f.l.to_host(), f.u.to_host()};
              }),
              0u)
        << at;
    const double bound = 4 * n * n * eps * max_abs(values(f.l)) * max_abs(values(f.u));
    EXPECT_LE(max_abs_diff(values(matmul(f.p, matmul(f.l, f.u))), values(a)), bound) << at;
    EXPECT_EQ(max_abs(values(triu(f.l, 1))), 0.0) << at;
    EXPECT_EQ(max_abs(values(tril(f.u, -1))), 0.0) << at;
    EXPECT_EQ(values(f.p), values(linalg::lu(a).p)) << at << ": the reference's pivots";
  }
  // The determinant's sign comes from the pivots: rows rolled by one (an odd permutation at n = 300) of a matrix
  // near the identity; and an exactly zero column gives an exactly zero pivot, so a zero determinant.
  const std::int64_t n = 300;
  const Tensor near_identity = random_matrices({}, n, dtype, 5) * 0.01 + eye(Shape{n, n}, dtype, reference_backend());
  const Tensor rolled =
      concatenate({matrix_block(near_identity, 1, 0, n - 1, n), matrix_block(near_identity, 0, 0, 1, n)}, 0);
  const double want = linalg::determinant(rolled).item(),
               got = linalg::determinant(rolled.to(vulkan::backend())).item();
  EXPECT_LT(want, 0.0);
  EXPECT_NEAR(got, want, 64 * n * eps * std::abs(want));
  std::vector<double> singular = values(near_identity);  // U's diagonal near 1: its product neither overflows
  for (std::int64_t i = 0; i < n; ++i) singular[i * n + 200] = 0.0;
  EXPECT_EQ(linalg::determinant(as_type(tensor<double>(singular, {n, n}), dtype).to(vulkan::backend())).item(), 0.0);
}

TEST_P(Linalg, VulkanTriangularSolveMatchesTheReferenceEveryWay) {
  NXV_REQUIRE_VULKAN();
  const DType dtype = GetParam();
  const std::int64_t n = 6;
  const Tensor a = random_matrices({2}, n, dtype, 80, 2.0);
  for (bool left : {true, false})
    for (bool lower : {true, false})
      for (bool transpose_a : {true, false})
        for (bool unit : {true, false}) {
          const TriangularSolveOptions o{left, lower, transpose_a, unit};
          const Tensor b = uniform(key(81), left ? Shape{2, n, 3} : Shape{2, 3, n}, dtype, -1.0, 1.0);
          expect_close_on_vulkan([o](const std::vector<Tensor>& x) { return linalg::triangular_solve(x[0], x[1], o); },
                                 {a, b},
                                 "triangular_solve left " + std::to_string(left) + " lower " + std::to_string(lower) +
                                     " transpose " + std::to_string(transpose_a) + " unit " + std::to_string(unit));
        }
  // A large right-hand side (more vectors than invocations), a vector, and broadcast batch axes.
  expect_close_on_vulkan([](const std::vector<Tensor>& x) { return linalg::triangular_solve(x[0], x[1]); },
                         {random_matrices({}, 5, dtype, 82, 2.0), uniform(key(83), {3, 5, 100}, dtype, -1.0, 1.0)},
                         "triangular_solve with 100 right-hand sides");
  expect_close_on_vulkan([](const std::vector<Tensor>& x) { return linalg::solve(x[0], x[1]); },
                         {random_matrices({4}, 7, dtype, 84), uniform(key(85), {7}, dtype, -1.0, 1.0)},
                         "solve with a vector");
}

TEST_P(Linalg, VulkanBlockedTriangularSolveMatchesTheReferenceEveryWay) {
  NXV_REQUIRE_VULKAN();
  const DType dtype = GetParam();
  // Order 200, past 128: blocked onto matmul (src/vulkan/kernels/linalg_blocked.cpp). Off-diagonal entries of
  // 1/n at most keep every triangle well conditioned, the unit-diagonal ones too (the error is then within n ε).
  const std::int64_t n = 200;
  const Tensor a = random_matrices({2}, n, dtype, 86) / static_cast<double>(n) + eye(Shape{n, n}, dtype);
  for (bool left : {true, false})
    for (bool lower : {true, false})
      for (bool transpose_a : {true, false})
        for (bool unit : {true, false}) {
          const TriangularSolveOptions o{left, lower, transpose_a, unit};
          const Tensor b = uniform(key(87), left ? Shape{2, n, 5} : Shape{2, 5, n}, dtype, -1.0, 1.0);
          expect_close_on_vulkan(
              [o](const std::vector<Tensor>& x) { return linalg::triangular_solve(x[0], x[1], o); }, {a, b},
              "blocked triangular_solve left " + std::to_string(left) + " lower " + std::to_string(lower) +
                  " transpose " + std::to_string(transpose_a) + " unit " + std::to_string(unit),
              static_cast<double>(n));
        }
  // solve and invert of order 300: the blocked lu, then two blocked triangular solves.
  const Tensor m = random_matrices({}, 300, dtype, 88, 300.0);
  expect_close_on_vulkan([](const std::vector<Tensor>& x) { return linalg::invert(x[0]); }, {m}, "invert 300",
                         4.0 * 300);
}

TEST_P(Linalg, VulkanCompositesMatchTheReference) {
  NXV_REQUIRE_VULKAN();
  const DType dtype = GetParam();
  const Tensor a = random_matrices({3}, 6, dtype, 90);
  expect_close_on_vulkan([](const std::vector<Tensor>& x) { return linalg::determinant(x[0]); }, {a}, "determinant");
  expect_close_on_vulkan([](const std::vector<Tensor>& x) { return linalg::invert(x[0]); }, {a}, "invert");
  expect_close_on_vulkan([](const std::vector<Tensor>& x) { return linalg::matrix_power(x[0], 5); }, {a},
                         "matrix_power 5");
  expect_close_on_vulkan(
      [](const std::vector<Tensor>& x) {
        return linalg::norm(x[0], {.ord = "inf", .axes = Axes{1, 2}});
      },
      {a}, "norm inf");
}

TEST(Linalg, JitOnVulkanEqualsEager) {
  NXV_REQUIRE_VULKAN();
  const Tensor a = random_matrices({5}, 6, DType::f32, 95).to(vulkan::backend());
  const Tensor b = uniform(key(96), {5, 6, 2}, DType::f32, -1.0, 1.0).to(vulkan::backend());
  const auto f = [](const Tensor& a, const Tensor& b) {
    return linalg::solve(a, b) * 2.0 + expand_dims(expand_dims(linalg::determinant(a), 1), 2);
  };
  EXPECT_EQ(compare_exact(f(a, b).to_host(), jit(f)(a, b).to_host()), "");
}

TEST(Linalg, JitOfBlockedFactorisationsEqualsEagerCallAfterCall) {
  NXV_REQUIRE_VULKAN();
  // The blocked kernels run other ops inside a jitted call (and, with replay, inside a recording): each call, with
  // new inputs, must equal eager.
  const auto f = [](const Tensor& a, const Tensor& b) {
    return linalg::solve(a, b) +
           linalg::cholesky(matmul(a, matrix_transpose(a)) + eye(Shape{300, 300}, DType::f32, a.backend()));
  };
  for (const vulkan::Replay replay : {vulkan::Replay::automatic, vulkan::Replay::always}) {
    const auto jitted = jit(f, {.compiler = vulkan::compiler({.replay = replay})});
    for (std::uint64_t call = 0; call < 3; ++call) {
      const Tensor a = random_matrices({}, 300, DType::f32, 120 + call, 300.0).to(vulkan::backend());
      const Tensor b = uniform(key(130 + call), {300, 300}, DType::f32, -1.0, 1.0).to(vulkan::backend());
      EXPECT_EQ(compare_exact(f(a, b).to_host(), jitted(a, b).to_host()), "") << "call " << call;
    }
  }
}

// ---- the composites' values --------------------------------------------------------------------------------

TEST(Linalg, MatrixPowerByRepeatedSquaring) {
  const Tensor a = random_matrices({2}, 3, DType::f64, 100);
  Tensor want = broadcast(eye(Shape{3, 3}, DType::f64), Shape{2, 3, 3});
  for (int k = 1; k <= 6; ++k) {
    want = matmul(want, a);
    EXPECT_LE(max_abs_diff(values(linalg::matrix_power(a, k)), values(want)), 1e-13 * max_abs(values(want))) << k;
  }
  EXPECT_EQ(values(linalg::matrix_power(a, 0)), values(broadcast(eye(Shape{3, 3}, DType::f64), Shape{2, 3, 3})));
  const Tensor inverse_cubed = linalg::matrix_power(a, -3);
  EXPECT_LE(max_abs(values(matmul(inverse_cubed, linalg::matrix_power(a, 3)) -
                           broadcast(eye(Shape{3, 3}, DType::f64), Shape{2, 3, 3}))),
            1e-10);
  // Integer matrices keep their dtype for k >= 0.
  const Tensor m = tensor<std::int32_t>({1, 1, 1, 0}, {2, 2});
  EXPECT_EQ(linalg::matrix_power(m, 10).to_vector<std::int32_t>(), (std::vector<std::int32_t>{89, 55, 55, 34}));
}

TEST(Linalg, NormsMatchTheirDefinitions) {
  const Tensor v = tensor<double>({3, -4, 0, 1}, {4});
  EXPECT_DOUBLE_EQ(linalg::norm(v).item(), std::sqrt(26.0));
  EXPECT_DOUBLE_EQ(linalg::norm(v, {.ord = "1"}).item(), 8.0);
  EXPECT_DOUBLE_EQ(linalg::norm(v, {.ord = "inf"}).item(), 4.0);
  EXPECT_DOUBLE_EQ(linalg::norm(v, {.ord = "-inf"}).item(), 0.0);
  EXPECT_DOUBLE_EQ(linalg::norm(v, {.ord = "0"}).item(), 3.0);
  EXPECT_NEAR(linalg::norm(v, {.ord = "3"}).item(), std::cbrt(27.0 + 64.0 + 1.0), 1e-14);
  const Tensor m = tensor<double>({1, -2, 3, -4, 5, -6}, {2, 3});
  EXPECT_DOUBLE_EQ(linalg::norm(m).item(), std::sqrt(91.0));
  EXPECT_DOUBLE_EQ(linalg::norm(m, {.ord = "1"}).item(), 9.0);     // max column sum |3| + |-6|
  EXPECT_DOUBLE_EQ(linalg::norm(m, {.ord = "-1"}).item(), 5.0);    // min column sum
  EXPECT_DOUBLE_EQ(linalg::norm(m, {.ord = "inf"}).item(), 15.0);  // max row sum
  EXPECT_DOUBLE_EQ(linalg::norm(m, {.ord = "-inf"}).item(), 6.0);
  // Batched, with axes, keeping them; integers converted to f32.
  const Tensor batch = linalg::norm(stack({m, m * 2.0}), {.ord = "1", .axes = Axes{1, 2}, .keep_axes = true});
  EXPECT_EQ(batch.shape(), (Shape{2, 1, 1}));
  EXPECT_EQ(values(batch), (std::vector<double>{9.0, 18.0}));
  EXPECT_EQ(linalg::norm(tensor<std::int32_t>({3, 4}, {2})).dtype(), DType::f32);
  EXPECT_EQ(linalg::norm(tensor<std::int32_t>({3, 4}, {2})).item(), 5.0);
}

TEST(Linalg, TrilTriuAndTakeDiagonal) {
  const Tensor x = tensor<double>({1, 2, 3, 4, 5, 6, std::numeric_limits<double>::infinity(), 8, 9}, {3, 3});
  EXPECT_EQ(values(tril(x)), (std::vector<double>{1, 0, 0, 4, 5, 0, INFINITY, 8, 9}));
  EXPECT_EQ(values(triu(x, 1)), (std::vector<double>{0, 2, 3, 0, 0, 6, 0, 0, 0}));
  EXPECT_EQ(values(tril(x, -1)), (std::vector<double>{0, 0, 0, 4, 0, 0, INFINITY, 8, 0}));
  EXPECT_EQ(values(take_diagonal(x)), (std::vector<double>{1, 5, 9}));
  EXPECT_EQ(values(take_diagonal(reshape(iota({2, 2, 3}, std::nullopt, DType::f64), {2, 2, 3}))),
            (std::vector<double>{0, 4, 6, 10}));
}

// ---- bad input -------------------------------------------------------------------------------------------

TEST(Linalg, BadInputGivesClearErrors) {
  expect_error([] { linalg::cholesky(zeros({3}, DType::f32)); }, {"cholesky", "rank >= 2", "f32[3]"});
  expect_error([] { linalg::cholesky(zeros({2, 3}, DType::f32)); }, {"cholesky", "square", "f32[2, 3]"});
  expect_error([] { linalg::lu(zeros({2, 2}, DType::s32)); }, {"lu", "f32 or f64", "s32[2, 2]"});
  expect_error([] { linalg::cholesky(zeros({2, 2}, DType::f16)); }, {"cholesky", "f32 or f64", "f16"});
  expect_error(
      [] {
        linalg::triangular_solve(zeros({3, 3}), zeros({4, 2}));
      },
      {"triangular_solve", "rows (4)", "order 3"});
  expect_error([] { linalg::triangular_solve(zeros({2, 3, 3}), zeros({3, 3, 2})); }, {"triangular_solve", "broadcast"});
  expect_error([] { linalg::solve(zeros({3, 3}), zeros({2})); }, {"solve", "rows (2)", "order 3"});
  expect_error([] { linalg::norm(zeros({2, 2, 2})); }, {"norm", "vector or a matrix", "f32[2, 2, 2]"});
  expect_error([] { linalg::norm(zeros({2}), {.ord = "fro"}); }, {"norm", "fro", "not a vector norm"});
  expect_error([] { linalg::norm(zeros({2, 2}), {.ord = "7"}); }, {"norm", "not a matrix norm", "nuc"});
  expect_error([] { linalg::matrix_power(zeros({2, 3}), 2); }, {"matrix_power", "square"});
  expect_error([] { linalg::matrix_power(zeros({2, 2}, DType::s32), -1); }, {"matrix_power", "negative power", "s32"});
  expect_error([] { tril(zeros({3})); }, {"tril", "rank >= 2"});
}

}  // namespace
}  // namespace nxv::testing
