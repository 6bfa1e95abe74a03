// qr, eigh and least_squares against LAPACK (geqrf/orgqr, syevd, gels) and the Vulkan kernels against the reference.
//
// Bounds (max-norm, ε the unit roundoff, Householder and Jacobi being backward stable):
//  - qr:    ‖A − Q R‖ ≤ c·m·n·ε·‖A‖, ‖QᵀQ − I‖ ≤ c·m·ε                                        (c = 4)
//  - eigh:  ‖A V − V diag(w)‖ ≤ c·n·ε·‖A‖, ‖VᵀV − I‖ ≤ c·n·ε, |w − w_LAPACK| ≤ c·n·ε·‖A‖     (c = 8)
//  - least_squares: the normal equations' residual ‖Aᵀ(A x − b)‖ ≤ c·m·n·ε·‖A‖²‖x‖·κ-free form below, and x within
//    c·n·ε·κ relative of LAPACK's gels on these well-conditioned inputs.
// Q's and R's signs follow LAPACK's convention, so they are compared with LAPACK's directly; eigenvectors only up to
// sign, through the residuals.
#include <lapacke.h>

#include "nxv/grad.hpp"
#include "nxv/linalg.hpp"
#include "support/expect_error.hpp"
#include "support/linalg.hpp"
#include "support/parity.hpp"

namespace nxv::testing {
namespace {

Tensor is_finite_value(const Tensor& x) { return logical_not(logical_or(is_nan(x), is_infinity(x))); }

class Orthogonal : public ::testing::TestWithParam<DType> {};
INSTANTIATE_TEST_SUITE_P(Dtypes, Orthogonal, ::testing::Values(DType::f32, DType::f64),
                         [](const ::testing::TestParamInfo<DType>& info) { return std::string(name(info.param)); });

Tensor random_rect(const Shape& shape, DType dtype, std::uint64_t seed) {
  return uniform(key(seed), shape, dtype, -1.0, 1.0, reference_backend());
}

TEST_P(Orthogonal, QrReconstructsIsOrthogonalAndMatchesLapack) {
  const DType dtype = GetParam();
  const double eps = unit_roundoff(dtype);
  for (const auto& [m, n] :
       std::vector<std::pair<std::int64_t, std::int64_t>>{{5, 3}, {3, 5}, {4, 4}, {40, 9}, {1, 1}}) {
    const Tensor a = random_rect({m, n}, dtype, 200 + m * 10 + n);
    for (linalg::QrMode mode : {linalg::QrMode::reduced, linalg::QrMode::complete}) {
      const linalg::QR f = linalg::qr(a, mode);
      const std::int64_t q = mode == linalg::QrMode::complete ? m : std::min(m, n);
      const std::string at = std::to_string(m) + "x" + std::to_string(n) + (q == m ? " complete" : " reduced");
      ASSERT_EQ(f.q.shape(), (Shape{m, q})) << at;
      ASSERT_EQ(f.r.shape(), (Shape{q, n})) << at;
      EXPECT_LE(max_abs_diff(values(matmul(f.q, f.r)), values(a)), 4 * m * n * eps * max_abs(values(a))) << at;
      EXPECT_LE(max_abs(values(matmul(matrix_transpose(f.q), f.q) - eye(Shape{q, q}, dtype))), 4 * m * eps) << at;
      EXPECT_EQ(max_abs(values(tril(f.r, -1))), 0.0) << at;
      // LAPACK in f64 on the same numbers: the same reflectors, so the same signs.
      std::vector<double> lapack = values(a);
      std::vector<double> tau(static_cast<std::size_t>(std::min(m, n)));
      ASSERT_EQ(LAPACKE_dgeqrf(LAPACK_ROW_MAJOR, m, n, lapack.data(), n, tau.data()), 0);
      const std::vector<double> r = values(f.r);
      for (std::int64_t i = 0; i < std::min(q, m); ++i)
        for (std::int64_t j = i; j < n; ++j)
          EXPECT_NEAR(r[i * n + j], lapack[i * n + j], 8 * m * n * eps) << at << " r(" << i << ", " << j << ")";
    }
  }
}

TEST_P(Orthogonal, EighSolvesTheEigenproblemAndMatchesLapack) {
  const DType dtype = GetParam();
  const double eps = unit_roundoff(dtype);
  for (std::int64_t n : {1, 2, 5, 8, 33}) {
    const Tensor x = random_matrices({}, n, dtype, 300 + n);
    const Tensor a = x + matrix_transpose(x);
    const linalg::Eigh e = linalg::eigh(a);
    const double norm = std::sqrt(sum(a * a).item());  // Frobenius: ≥ the 2-norm the eigenvalue bounds need
    const Tensor av = matmul(a, e.eigenvectors), vw = e.eigenvectors * expand_dims(e.eigenvalues, 0);
    EXPECT_LE(max_abs_diff(values(av), values(vw)), 8 * n * eps * norm) << "n = " << n;
    EXPECT_LE(max_abs(values(matmul(matrix_transpose(e.eigenvectors), e.eigenvectors) - eye(Shape{n, n}, dtype))),
              8 * n * eps);
    std::vector<double> lapack = values(a), w(static_cast<std::size_t>(n));
    ASSERT_EQ(LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'L', n, lapack.data(), n, w.data()), 0);
    const std::vector<double> ours = values(e.eigenvalues);
    for (std::int64_t i = 0; i < n; ++i) EXPECT_NEAR(ours[i], w[i], 8 * n * eps * norm) << "eigenvalue " << i;
  }
}

TEST_P(Orthogonal, EighOfIllConditionedDegenerateAndZeroMatrices) {
  const DType dtype = GetParam();
  const double eps = unit_roundoff(dtype);
  const std::int64_t n = 10;
  // Eigenvalues from 1 down to 1/κ: the small ones are found to the absolute accuracy ε‖A‖.
  const Tensor ill = conditioned(n, dtype == DType::f64 ? 1e12 : 1e5, dtype);
  const linalg::Eigh e = linalg::eigh(ill);
  EXPECT_LE(max_abs_diff(values(matmul(ill, e.eigenvectors)), values(e.eigenvectors * expand_dims(e.eigenvalues, 0))),
            8 * n * eps);
  EXPECT_NEAR(values(e.eigenvalues).back(), 1.0, 8 * n * eps);
  // A repeated eigenvalue (3, 3, 3, 1): any orthonormal basis of its space will do.
  const Tensor degenerate = as_type(tensor<double>({3, 0, 0, 0, 0, 2, 1, 0, 0, 1, 2, 0, 0, 0, 0, 3}, {4, 4}), dtype);
  const linalg::Eigh d = linalg::eigh(degenerate);
  const std::vector<double> dw = values(d.eigenvalues), want{1, 3, 3, 3};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(dw[i], want[i], 32 * eps) << "eigenvalue " << i;
  EXPECT_LE(max_abs(values(matmul(matrix_transpose(d.eigenvectors), d.eigenvectors) - eye(Shape{4, 4}, dtype))),
            32 * eps);
  // Zero and diagonal matrices need no rotation: V = I (sorted).
  EXPECT_EQ(values(linalg::eigh(zeros({3, 3}, dtype)).eigenvectors), values(eye(Shape{3, 3}, dtype)));
  const linalg::Eigh diag = linalg::eigh(as_type(tensor<double>({2, 0, 0, -1}, {2, 2}), dtype));
  EXPECT_EQ(values(diag.eigenvalues), (std::vector<double>{-1, 2}));
  EXPECT_EQ(values(diag.eigenvectors), (std::vector<double>{0, 1, 1, 0}));
  // Only the lower triangle is read.
  const Tensor lower_only = as_type(tensor<double>({2, 100, 1, 2}, {2, 2}), dtype);
  const std::vector<double> lw = values(linalg::eigh(lower_only).eigenvalues);
  EXPECT_NEAR(lw[0], 1.0, 8 * eps);
  EXPECT_NEAR(lw[1], 3.0, 8 * eps);
}

TEST_P(Orthogonal, LeastSquaresMatchesLapackGels) {
  const DType dtype = GetParam();
  const double eps = unit_roundoff(dtype);
  for (const auto& [m, n] : std::vector<std::pair<std::int64_t, std::int64_t>>{{8, 3}, {3, 6}, {5, 5}}) {
    const Tensor a = random_rect({m, n}, dtype, 400 + m + n) + eye(Shape{m, n}, dtype) * 2.0;
    const Tensor b = random_rect({m, 2}, dtype, 401);
    const Tensor x = linalg::least_squares(a, b);
    ASSERT_EQ(x.shape(), (Shape{n, 2}));
    std::vector<double> av = values(a), bv(static_cast<std::size_t>(std::max(m, n) * 2), 0.0);
    const std::vector<double> b_values = values(b);
    std::copy(b_values.begin(), b_values.end(), bv.begin());
    ASSERT_EQ(LAPACKE_dgels(LAPACK_ROW_MAJOR, 'N', m, n, 2, av.data(), n, bv.data(), 2), 0);
    bv.resize(static_cast<std::size_t>(n * 2));
    EXPECT_LE(max_abs_diff(values(x), bv), 64 * m * n * eps * std::max(1.0, max_abs(bv))) << m << "x" << n;
    // A vector b gives the first column.
    const Tensor xv = linalg::least_squares(a, squeeze(slice(b, {0, 0}, {m, 1}), Axes{1}));
    EXPECT_EQ(values(xv), values(squeeze(slice(x, {0, 0}, {n, 1}), Axes{1})));
  }
}

TEST_P(Orthogonal, SvdReconstructsIsOrthogonalAndMatchesLapack) {
  const DType dtype = GetParam();
  const double eps = unit_roundoff(dtype);
  for (const auto& [m, n] :
       std::vector<std::pair<std::int64_t, std::int64_t>>{{6, 4}, {4, 6}, {5, 5}, {30, 7}, {1, 3}}) {
    const Tensor a = random_rect({m, n}, dtype, 800 + m * 10 + n);
    const std::int64_t k = std::min(m, n);
    const std::string at = std::to_string(m) + "x" + std::to_string(n);
    const linalg::SVD f = linalg::svd(a);
    ASSERT_EQ(f.u.shape(), (Shape{m, k})) << at;
    ASSERT_EQ(f.s.shape(), (Shape{k})) << at;
    ASSERT_EQ(f.vt.shape(), (Shape{k, n})) << at;
    const double norm = std::sqrt(sum(a * a).item());
    EXPECT_LE(max_abs_diff(values(matmul(f.u * expand_dims(f.s, 0), f.vt)), values(a)), 8 * m * n * eps * norm) << at;
    EXPECT_LE(max_abs(values(matmul(matrix_transpose(f.u), f.u) - eye(Shape{k, k}, dtype))), 8 * m * eps) << at;
    EXPECT_LE(max_abs(values(matmul(f.vt, matrix_transpose(f.vt)) - eye(Shape{k, k}, dtype))), 8 * n * eps) << at;
    std::vector<double> lapack = values(a), sv(static_cast<std::size_t>(k)), superb(static_cast<std::size_t>(k));
    ASSERT_EQ(LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'N', 'N', m, n, lapack.data(), n, sv.data(), nullptr, 1, nullptr, 1,
                             superb.data()),
              0);
    const std::vector<double> ours = values(f.s);
    for (std::int64_t i = 0; i < k; ++i) EXPECT_NEAR(ours[i], sv[i], 8 * m * n * eps * norm) << at << " s" << i;
    // Complete bases.
    const linalg::SVD full = linalg::svd(a, true);
    ASSERT_EQ(full.u.shape(), (Shape{m, m})) << at;
    ASSERT_EQ(full.vt.shape(), (Shape{n, n})) << at;
    EXPECT_LE(max_abs(values(matmul(matrix_transpose(full.u), full.u) - eye(Shape{m, m}, dtype))), 16 * m * eps) << at;
    EXPECT_LE(max_abs(values(matmul(full.vt, matrix_transpose(full.vt)) - eye(Shape{n, n}, dtype))), 16 * n * eps)
        << at;
  }
}

TEST_P(Orthogonal, PinvSatisfiesThePenroseConditionsAndNormsUseTheSingularValues) {
  const DType dtype = GetParam();
  const double eps = unit_roundoff(dtype);
  // Rank 2 in 5x4: the pseudo-inverse, not an inverse.
  const Tensor left = random_rect({5, 2}, dtype, 900), right = random_rect({2, 4}, dtype, 901);
  const Tensor a = matmul(left, right);
  const Tensor p = linalg::pinv(a);
  ASSERT_EQ(p.shape(), (Shape{4, 5}));
  const double scale = max_abs(values(a)) * max_abs(values(p)) * 400 * eps;
  EXPECT_LE(max_abs_diff(values(matmul(matmul(a, p), a)), values(a)), scale * max_abs(values(a)));
  EXPECT_LE(max_abs_diff(values(matmul(matmul(p, a), p)), values(p)), scale * max_abs(values(p)));
  const Tensor ap = matmul(a, p), pa = matmul(p, a);
  EXPECT_LE(max_abs_diff(values(ap), values(matrix_transpose(ap))), scale);  // symmetric
  EXPECT_LE(max_abs_diff(values(pa), values(matrix_transpose(pa))), scale);
  const Tensor full_rank = random_rect({4, 4}, dtype, 902) + eye(Shape{4, 4}, dtype) * 3.0;
  EXPECT_LE(max_abs_diff(values(linalg::pinv(full_rank)), values(linalg::invert(full_rank))), 256 * eps);
  // Norms: 2 and -2 the extreme singular values, nuc their sum.
  const Tensor d = as_type(tensor<double>({3, 0, 0, 0, -4, 0}, {2, 3}), dtype);
  EXPECT_NEAR(linalg::norm(d, {.ord = "2"}).item(), 4.0, 8 * eps);
  EXPECT_NEAR(linalg::norm(d, {.ord = "-2"}).item(), 3.0, 8 * eps);
  EXPECT_NEAR(linalg::norm(d, {.ord = "nuc"}).item(), 7.0, 16 * eps);
  const Tensor batch = linalg::norm(stack({d, d * 2.0}, 1), {.ord = "2", .axes = Axes{0, 2}, .keep_axes = true});
  EXPECT_EQ(batch.shape(), (Shape{1, 2, 1}));
  EXPECT_NEAR(values(batch)[1], 8.0, 16 * eps);
}

TEST(Orthogonal, NonFiniteInputGivesNanAndEnds) {
  // A NaN (or an infinity) in the matrix: the Jacobi kernels skip the rotations it poisons and stop within their
  // sweep limit, and NaN reaches the results; qr's reflectors carry it along. On both backends.
  std::vector<double> v(16, 0.5);
  v[6] = v[9] = std::numeric_limits<double>::quiet_NaN();
  for (const double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    v[6] = v[9] = bad;
    const Tensor a = tensor<double>(v, {4, 4});
    for (Backend* backend : {&reference_backend(), &vulkan::backend()}) {
      if (backend != &reference_backend() && !vulkan::available()) continue;
      const Tensor x = a.to(*backend);
      EXPECT_TRUE(any(is_nan(linalg::eigh(x).eigenvalues)).item() != 0) << backend->name() << " " << bad;
      EXPECT_TRUE(any(is_nan(linalg::svd(x).s)).item() != 0) << backend->name() << " " << bad;
      EXPECT_TRUE(any(logical_not(is_finite_value(linalg::qr(x).r))).item() != 0) << backend->name() << " " << bad;
    }
  }
}

TEST(Orthogonal, EmptyMatrices) {
  EXPECT_EQ(linalg::qr(zeros({2, 0, 3})).q.shape(), (Shape{2, 0, 0}));
  const linalg::QR tall = linalg::qr(zeros({3, 0}), linalg::QrMode::complete);
  EXPECT_EQ(values(tall.q), values(eye(Shape{3, 3}, DType::f32)));  // complete Q of a 3x0 matrix: the identity
  EXPECT_EQ(tall.r.shape(), (Shape{3, 0}));
  EXPECT_EQ(linalg::eigh(zeros({4, 0, 0})).eigenvalues.shape(), (Shape{4, 0}));
}

TEST_P(Orthogonal, VulkanMatchesTheReference) {
  NXV_REQUIRE_VULKAN();
  const DType dtype = GetParam();
  for (const auto& [batch, m, n] : std::vector<std::tuple<Shape, std::int64_t, std::int64_t>>{
           {{}, 1, 1}, {{3}, 6, 4}, {{2}, 4, 7}, {{}, 70, 66}, {{0}, 3, 3}}) {
    const std::string at = to_string(batch) + " " + std::to_string(m) + "x" + std::to_string(n);
    Shape shape = batch;
    shape.push_back(m);
    shape.push_back(n);
    for (linalg::QrMode mode : {linalg::QrMode::reduced, linalg::QrMode::complete})
      expect_close_on_vulkan(
          [mode](const std::vector<Tensor>& x) {
            const linalg::QR f = linalg::qr(x[0], mode);
            return concatenate({flatten(f.q), flatten(f.r)}, 0);
          },
          {random_rect(shape, dtype, 500 + m)}, "qr " + at, 16.0 * m);
  }
  for (const auto& [batch, n] :
       std::vector<std::pair<Shape, std::int64_t>>{{{}, 1}, {{4}, 3}, {{2}, 8}, {{}, 67}, {{0}, 3}}) {
    const std::string at = to_string(batch) + " n = " + std::to_string(n);
    const Tensor x = random_matrices(batch, n, dtype, 600 + n);
    expect_close_on_vulkan(
        [](const std::vector<Tensor>& x) {
          const linalg::Eigh e = linalg::eigh(x[0]);
          return concatenate({flatten(e.eigenvalues), flatten(e.eigenvectors)}, 0);
        },
        {x + matrix_transpose(x)}, "eigh " + at, 16.0 * n);
  }
  for (const auto& [batch, m, n] : std::vector<std::tuple<Shape, std::int64_t, std::int64_t>>{
           {{}, 1, 1}, {{3}, 6, 4}, {{2}, 4, 7}, {{}, 70, 65}, {{0}, 3, 3}}) {
    Shape shape = batch;
    shape.push_back(m);
    shape.push_back(n);
    expect_close_on_vulkan(
        [](const std::vector<Tensor>& x) {
          const linalg::SVD f = linalg::svd(x[0]);
          return concatenate({flatten(f.u), flatten(f.s), flatten(f.vt)}, 0);
        },
        {random_rect(shape, dtype, 650 + m)}, "svd " + to_string(shape), 16.0 * m);
  }
  expect_close_on_vulkan([](const std::vector<Tensor>& x) { return linalg::least_squares(x[0], x[1]); },
                         {random_rect({3, 9, 4}, dtype, 700), random_rect({3, 9}, dtype, 701)}, "least_squares", 256.0);
}

TEST(Orthogonal, BadInputGivesClearErrors) {
  expect_error([] { linalg::eigh(zeros({2, 3})); }, {"eigh", "square", "f32[2, 3]"});
  expect_error([] { linalg::qr(zeros({4}, DType::f64)); }, {"qr", "rank >= 2"});
  expect_error([] { linalg::svd(zeros({4, 4}, DType::s64)); }, {"svd", "f32 or f64", "s64[4, 4]"});
  expect_error([] { linalg::least_squares(zeros({4, 2}), zeros({3})); }, {"least_squares", "rows (3)", "rows 4"});
  // qr's gradient where PyTorch has none: complete mode of a tall matrix.
  expect_error(
      [] {
        grad([](const Tensor& a) { return sum(linalg::qr(a, linalg::QrMode::complete).q); })(ones({3, 2}));
      },
      {"qr", "gradient", "complete"});
}

}  // namespace
}  // namespace nxv::testing
