// PCA of Fashion-MNIST two ways: the images pooled to 14x14 and centred, then (1) their 196x196 covariance
// diagonalised by nxv::linalg::eigh and (2) the data matrix itself factorised by nxv::linalg::svd (the components are
// its right singular vectors, the variances its squared singular values / (count - 1)). Prints the variance the
// leading components explain and checks both: eigenvalues summing to the total variance, the reconstruction error
// with k components equal to the variance left out, and svd's variances equal to eigh's.
//
//   ./build/examples/pca_fashion_mnist [DIR]   (DIR: the IDX files; default $NXV_DATA_DIR, else Debian's
//                                               dataset-fashion-mnist directory)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <nxv/linalg.hpp>
#include <nxv/nxv.hpp>

#include "io/idx.hpp"

int main(int argc, char** argv) {
  using namespace nxv;
  const char* env = std::getenv("NXV_DATA_DIR");
  const std::filesystem::path dir = argc > 1 ? argv[1] : env ? env : "/usr/share/datasets/fashion-mnist";
  Backend& backend =
      vulkan::available() && !std::getenv("NXV_EXAMPLE_REFERENCE") ? vulkan::backend() : reference_backend();
  const std::int64_t count = 1000, k = 10;
  // [60000, 28, 28] u8 -> the first `count`, pooled 2x2 to [count, 196] f32 in [0, 1].
  const Tensor images = io::load_idx(dir / "train-images-idx3-ubyte.gz", backend);
  const Tensor first = as_type(slice(images, {0, 0, 0}, {count, 28, 28}), DType::f32) / 255.0;
  const Tensor pooled = reshape(window_mean(first, {1, 2, 2}, {.strides = Axes{1, 2, 2}}), {count, 196});
  const Tensor centred = pooled - mean(pooled, Axes{0}, true);
  const Tensor covariance = dot(transpose(centred), centred) / static_cast<double>(count - 1);

  const linalg::Eigh e = linalg::eigh(covariance);  // ascending
  const std::vector<double> w = as_type(e.eigenvalues, DType::f64).to_host().to_vector<double>();
  double total = 0;
  for (double v : w) total += v;
  const double trace = as_type(sum(take_diagonal(covariance)), DType::f64).item();
  std::printf("on %s: %lld images, 196 pooled pixels, total variance %.4f (trace %.4f)\n",
              std::string(backend.name()).c_str(), static_cast<long long>(count), total, trace);
  double explained = 0;
  for (std::int64_t i = 0; i < k; ++i) {
    explained += w[w.size() - 1 - i];
    std::printf("component %2lld: eigenvalue %.4f, cumulative explained %.1f%%\n", static_cast<long long>(i + 1),
                w[w.size() - 1 - i], 100 * explained / total);
  }
  // Project onto the top k components and back: the mean squared reconstruction error per image equals the
  // variance left out (times (count - 1) / count).
  const Tensor top = slice(e.eigenvectors, {0, 196 - k}, {196, k});
  const Tensor reconstructed = dot(dot(centred, top), transpose(top));
  const double error = as_type(sum((centred - reconstructed) * (centred - reconstructed)), DType::f64).item() /
                       static_cast<double>(count - 1);
  const double left_out = total - explained;
  std::printf("reconstruction error with %lld components %.4f, variance left out %.4f\n", static_cast<long long>(k),
              error, left_out);
  // The same components from the data's singular values (descending).
  const std::vector<double> s = as_type(linalg::svd(centred).s, DType::f64).to_host().to_vector<double>();
  double worst = 0;
  for (std::int64_t i = 0; i < k; ++i)
    worst = std::max(worst, std::abs(s[i] * s[i] / static_cast<double>(count - 1) - w[w.size() - 1 - i]));
  std::printf("svd: the top %lld variances from the singular values differ from eigh's by at most %.2e\n",
              static_cast<long long>(k), worst);
  const bool ok = std::abs(total - trace) < 1e-3 * trace && w.front() > -1e-4 * total &&
                  std::abs(error - left_out) < 1e-3 * total && explained / total > 0.5 && worst < 1e-3 * total;
  std::printf("%s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
