// Gradients of the linear-algebra ops and composites (src/grad/rules_linalg.cpp): the case table is checked against
// finite differences (f64, reference) and Vulkan against the reference (f32, f64), as every rule
// (support/grad_cases.hpp). The inputs are kept non-singular (a shifted diagonal) and away from ties in lu's pivot
// choice, where the functions are smooth. cholesky and triangular_solve read one triangle, so finite differences
// of the other entries are zero, and so must their gradients be.
#include "nxv/linalg.hpp"
#include "support/grad_cases.hpp"

namespace nxv::testing {
namespace {

using Xs = std::vector<Tensor>;

Tensor shifted(const Tensor& x, double shift) {
  const std::int64_t n = x.shape().back();
  return x + eye(Shape{n, n}, x.dtype(), x.backend()) * shift;
}

GradCase triangular_case(bool left, bool lower, bool transpose_a, bool unit) {
  const std::string name = std::string("triangular_solve_") + (left ? "left" : "right") +
                           (lower ? "_lower" : "_upper") + (transpose_a ? "_transposed" : "") + (unit ? "_unit" : "");
  const linalg::TriangularSolveOptions o{left, lower, transpose_a, unit};
  return {name, {{{2, 4, 4}, -1.0, 1.0}, {left ? Shape{2, 4, 3} : Shape{2, 3, 4}}}, [o](const Xs& x) {
            return linalg::triangular_solve(shifted(x[0], 3.0), x[1], o);
          }};
}

std::vector<GradCase> cases() {
  std::vector<GradCase> c = {
      // x + 5 I: its lower triangle read symmetrically is diagonally dominant, so positive definite.
      {"cholesky", {{{4, 4}, -1.0, 1.0}}, [](const Xs& x) { return linalg::cholesky(shifted(x[0], 5.0)); }},
      {"cholesky_batch", {{{2, 3, 3}, -1.0, 1.0}}, [](const Xs& x) { return linalg::cholesky(shifted(x[0], 4.0)); }},
      {"lu_factors",
       {{{2, 4, 4}}},
       [](const Xs& x) {
         const linalg::LU f = linalg::lu(x[0]);
         return concatenate({f.l, f.u * 0.5}, -1);
       }},
      {"determinant", {{{3, 4, 4}}}, [](const Xs& x) { return linalg::determinant(x[0]); }},
      {"solve",
       {{{2, 4, 4}, -1.0, 1.0}, {{2, 4, 2}}},
       [](const Xs& x) { return linalg::solve(shifted(x[0], 3.0), x[1]); }},
      {"solve_vector", {{{3, 3}}, {{3}}}, [](const Xs& x) { return linalg::solve(shifted(x[0], 5.0), x[1]); }},
      {"invert", {{{3, 3}, -1.0, 1.0}}, [](const Xs& x) { return linalg::invert(shifted(x[0], 3.0)); }},
      {"matrix_power_negative",
       {{{3, 3}, -1.0, 1.0}},
       [](const Xs& x) { return linalg::matrix_power(shifted(x[0], 3.0), -2); }},
      {"qr_tall",
       {{{5, 3}}},
       [](const Xs& x) {
         const linalg::QR f = linalg::qr(x[0]);
         return concatenate({f.q, transpose(f.r) * 0.5}, 0);
       }},
      {"qr_square_complete_batch",
       {{{2, 3, 3}}},
       [](const Xs& x) {
         const linalg::QR f = linalg::qr(x[0], linalg::QrMode::complete);
         return f.q * 2.0 + f.r;
       }},
      // The eigenvalues, and a sign-independent function of the eigenvectors: v diag(w³) vᵀ = a's cube.
      {"eigh_values", {{{4, 4}}}, [](const Xs& x) { return linalg::eigh(x[0]).eigenvalues; }},
      {"eigh_vectors",
       {{{2, 3, 3}}},
       [](const Xs& x) {
         const linalg::Eigh e = linalg::eigh(x[0]);
         const Tensor w = expand_dims(e.eigenvalues * e.eigenvalues * e.eigenvalues, 1);
         return dot(e.eigenvectors * w, Axes{2}, Axes{0}, e.eigenvectors, Axes{2}, Axes{0});
       }},
      // The singular values, and sign-independent functions of the singular vectors: u diag(s³) uᵀ, vᵀ diag(s) v.
      {"svd_values", {{{5, 3}}}, [](const Xs& x) { return linalg::svd(x[0]).s; }},
      {"svd_vectors_tall",
       {{{4, 3}}},
       [](const Xs& x) {
         const linalg::SVD f = linalg::svd(x[0]);
         const Tensor s3 = expand_dims(f.s * f.s * f.s, 0);
         return concatenate(
             {flatten(dot(f.u * s3, transpose(f.u))), flatten(dot(transpose(f.vt) * expand_dims(f.s, 0), f.vt))}, 0);
       }},
      {"svd_vectors_wide_batch",
       {{{2, 2, 4}}},
       [](const Xs& x) {
         const linalg::SVD f = linalg::svd(x[0]);
         return dot(f.u * expand_dims(f.s, 1), Axes{2}, Axes{0}, f.u, Axes{2}, Axes{0});
       }},
      {"pinv", {{{4, 3}}}, [](const Xs& x) { return linalg::pinv(x[0]); }},
      {"norm_nuc", {{{3, 3}}}, [](const Xs& x) { return linalg::norm(x[0], {.ord = "nuc"}); }},
      {"least_squares_tall", {{{6, 3}}, {{6, 2}}}, [](const Xs& x) { return linalg::least_squares(x[0], x[1]); }},
      {"least_squares_wide", {{{2, 4}}, {{2}}}, [](const Xs& x) { return linalg::least_squares(x[0], x[1]); }},
      {"norm_fro", {{{3, 4}}}, [](const Xs& x) { return linalg::norm(x[0]); }},
      {"norm_vector_3", {{{5}, 0.5, 2.0}}, [](const Xs& x) { return linalg::norm(x[0], {.ord = "3"}); }},
  };
  for (bool left : {true, false})
    for (bool lower : {true, false})
      for (bool transpose_a : {false, true}) c.push_back(triangular_case(left, lower, transpose_a, false));
  c.push_back(triangular_case(true, true, false, true));
  c.push_back(triangular_case(false, false, true, true));
  return c;
}

NXV_GRAD_CASE_SUITES(Linalg, cases());

}  // namespace
}  // namespace nxv::testing
