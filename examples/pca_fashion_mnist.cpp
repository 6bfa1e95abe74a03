// PCA of Fashion-MNIST with nxv::linalg::eigh: the images pooled to 14x14, centred, their 196x196 covariance
// diagonalised; prints the variance the leading components explain and checks the eigendecomposition (eigenvalues
// summing to the total variance, reconstruction error with k components equal to the variance left out).
//
//   ./build/examples/pca_fashion_mnist [DIR]   (DIR: the IDX files; default $NXV_DATA_DIR, else Debian's
//                                               dataset-fashion-mnist directory)
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
  const std::int64_t count = 5000, k = 10;
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
  const bool ok = std::abs(total - trace) < 1e-3 * trace && w.front() > -1e-4 * total &&
                  std::abs(error - left_out) < 1e-3 * total && explained / total > 0.5;
  std::printf("%s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
