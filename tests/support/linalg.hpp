// Helpers of the linear-algebra suites (tests/linalg/, tests/grad/linalg_grad_test.cpp): max-norm errors, random
// well- and ill-conditioned matrices, and the Vulkan-against-reference check within 8 ε.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "nxv/fallback.hpp"
#include "nxv/ops.hpp"
#include "nxv/vulkan.hpp"

namespace nxv::testing {

inline double unit_roundoff(DType d) {
  return d == DType::f32 ? std::numeric_limits<float>::epsilon() / 2 : std::numeric_limits<double>::epsilon() / 2;
}

inline std::vector<double> values(const Tensor& t) { return as_type(t, DType::f64).to_host().to_vector<double>(); }

inline double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

inline double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

// Random matrices [batch..., n, n] with entries in [-1, 1], plus `shift` on the diagonal (shift > n - 1 makes them
// strictly diagonally dominant: non-singular, and positive definite when symmetric).
inline Tensor random_matrices(const Shape& batch, std::int64_t n, DType dtype, std::uint64_t seed, double shift = 0.0) {
  Shape shape = batch;
  shape.push_back(n);
  shape.push_back(n);
  const Tensor x = uniform(key(seed), shape, dtype, -1.0, 1.0, reference_backend());
  return shift == 0.0 ? x : x + eye(Shape{n, n}, dtype, reference_backend()) * shift;
}

// A symmetric positive-definite batch: x xᵀ / n + I.
inline Tensor spd(const Shape& batch, std::int64_t n, DType dtype, std::uint64_t seed) {
  const Tensor x = random_matrices(batch, n, dtype, seed);
  return matmul(x, matrix_transpose(x)) / static_cast<double>(std::max<std::int64_t>(n, 1)) +
         eye(Shape{n, n}, dtype, reference_backend());
}

// The Vulkan result of `fn` on `inputs` against the reference's, within `ulps` ε of the largest reference element
// (NaN matching NaN), and no host fallback.
inline void expect_close_on_vulkan(const std::function<Tensor(const std::vector<Tensor>&)>& fn,
                                   const std::vector<Tensor>& inputs, const std::string& what, double ulps = 8) {
  const Tensor want = fn(inputs);
  std::vector<Tensor> on_device;
  for (const Tensor& t : inputs) on_device.push_back(t.to(vulkan::backend()));
  Tensor got;
  const std::size_t fallbacks =
      fallback::unexplained_by_device(fallback::count([&] { got = fn(on_device).to_host(); })).size();
  EXPECT_EQ(fallbacks, 0u) << what << " fell back to the host";
  ASSERT_EQ(got.type(), want.type()) << what;
  const std::vector<double> w = values(want), g = values(got);
  const double tol = ulps * unit_roundoff(want.dtype()) * std::max(1.0, max_abs(w));
  int bad = 0;
  double largest = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const bool ok = std::isnan(w[i]) ? std::isnan(g[i]) : std::abs(g[i] - w[i]) <= tol;
    if (!std::isnan(w[i])) largest = std::max(largest, std::abs(g[i] - w[i]));
    if (!ok && bad++ < 3) ADD_FAILURE() << what << ": element " << i << " is " << g[i] << ", reference " << w[i];
  }
  // Not a failure within the bound, but worth seeing: where a device rounds differently from the reference.
  if (largest > 0)
    std::printf("[linalg] %s: Vulkan differs from the reference by up to %.3g ε of the largest element\n", what.c_str(),
                largest / (unit_roundoff(want.dtype()) * std::max(1.0, max_abs(w))));
}

// A = Q diag(1, ..., 1/κ) Qᵀ, Q orthogonal (a product of plane rotations built on the host in double).
inline Tensor conditioned(std::int64_t n, double kappa, DType dtype) {
  std::vector<double> q(static_cast<std::size_t>(n * n), 0.0);
  for (std::int64_t i = 0; i < n; ++i) q[i * n + i] = 1.0;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> angle(0.0, 6.283185307179586);
  for (int r = 0; r < 4 * n * n; ++r) {
    const std::int64_t i = static_cast<std::int64_t>(rng() % n), j = static_cast<std::int64_t>(rng() % n);
    if (i == j) continue;
    const double t = angle(rng), c = std::cos(t), s = std::sin(t);
    for (std::int64_t k = 0; k < n; ++k) {  // rows i and j of q rotated
      const double qi = q[i * n + k], qj = q[j * n + k];
      q[i * n + k] = c * qi - s * qj;
      q[j * n + k] = s * qi + c * qj;
    }
  }
  std::vector<double> a(static_cast<std::size_t>(n * n), 0.0);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t k = 0; k < n; ++k)
        a[i * n + j] +=
            q[k * n + i] * std::pow(kappa, -static_cast<double>(k) / static_cast<double>(n - 1)) * q[k * n + j];
  return as_type(tensor(a, {n, n}), dtype);
}

}  // namespace nxv::testing
