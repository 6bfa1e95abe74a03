// Linear and ridge regression with nxv::linalg: the normal equations solved by cholesky, least_squares (QR), the
// pseudo-inverse (svd), and ridge regression (the normal equations with λI added), on synthetic data y = X β + noise
// whose β is known. Runs on the Vulkan device when there is one (else the reference backend); exits 1 if an estimate is
// off.
//
//   ./build/examples/linear_regression
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <nxv/linalg.hpp>
#include <nxv/nxv.hpp>

int main() {
  using namespace nxv;
  Backend& backend =
      vulkan::available() && !std::getenv("NXV_EXAMPLE_REFERENCE") ? vulkan::backend() : reference_backend();
  const std::int64_t n = 2000, d = 6;
  const Tensor beta = tensor<double>({1.5, -2.0, 0.5, 3.0, 0.0, -1.0}, {d, 1}, backend);
  const Tensor x = normal(key(1), {n, d}, DType::f64, 0.0, 1.0, backend);
  const Tensor y = dot(x, beta) + normal(key(2), {n, 1}, DType::f64, 0.0, 0.1, backend);

  // Normal equations: (XᵀX) β = Xᵀy, XᵀX = L Lᵀ.
  const Tensor xt = transpose(x);
  const Tensor l = linalg::cholesky(dot(xt, x));
  const Tensor xty = dot(xt, y);
  const Tensor by_cholesky =
      linalg::triangular_solve(l, linalg::triangular_solve(l, xty), {.lower = true, .transpose_a = true});
  // QR: min ‖Xβ − y‖ without forming XᵀX (κ(X) instead of κ(X)²).
  const Tensor by_qr = linalg::least_squares(x, y);
  // SVD: β = X⁺ y, the minimum-norm solution even for a rank-deficient X.
  const Tensor by_svd = dot(linalg::pinv(x), y);
  // Ridge: (XᵀX + λI) β = Xᵀy shrinks β towards 0.
  const double lambda = 500.0;
  const Tensor ridge = linalg::solve(dot(xt, x) + eye(Shape{d, d}, DType::f64, backend) * lambda, xty);

  const std::vector<double> truth = beta.to_vector<double>(), c = by_cholesky.to_host().to_vector<double>(),
                            q = by_qr.to_host().to_vector<double>(), v = by_svd.to_host().to_vector<double>(),
                            r = ridge.to_host().to_vector<double>();
  std::printf("on %s, %lld observations of %lld features\n", std::string(backend.name()).c_str(),
              static_cast<long long>(n), static_cast<long long>(d));
  std::printf("%10s %12s %12s %12s %12s %12s\n", "feature", "true β", "cholesky", "qr", "svd", "ridge");
  bool ok = true;
  double truth_norm = 0, ridge_norm = 0;
  for (std::int64_t i = 0; i < d; ++i) {
    std::printf("%10lld %12.4f %12.4f %12.4f %12.4f %12.4f\n", static_cast<long long>(i), truth[i], c[i], q[i], v[i],
                r[i]);
    ok = ok && std::abs(c[i] - truth[i]) < 0.02 && std::abs(q[i] - c[i]) < 1e-10 && std::abs(v[i] - c[i]) < 1e-10;
    truth_norm += truth[i] * truth[i];
    ridge_norm += r[i] * r[i];
  }
  ok = ok && ridge_norm < truth_norm;  // shrunk
  std::printf("%s\n", ok ? "ok: the three estimates recover β, and ridge shrinks it" : "FAILED");
  return ok ? 0 : 1;
}
