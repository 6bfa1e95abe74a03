// The Fourier transforms (src/ops/fft.cpp, include/nxv/fft.hpp): against a direct DFT in long double within
// c * eps * log2(n + 1) * max|X| for every length up to 40 and a few long prime and composite ones, in c64 and c128;
// ifft round trips; Parseval; axes, Nx's length option, rfft/irfft (odd and even lengths) and the 2-D transforms;
// gradients in closed form; jit and vectorize; Vulkan against the reference; and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <random>

#include "nxv/defn.hpp"
#include "nxv/fft.hpp"
#include "nxv/grad.hpp"
#include "nxv/ops.hpp"
#include "nxv/vectorize.hpp"
#include "nxv/vulkan.hpp"
#include "support/expect_error.hpp"

namespace nxv {
namespace {

using testing::expect_error;
using C = std::complex<double>;
using CL = std::complex<long double>;

Backend& ref() { return reference_backend(); }

std::vector<C> random_complex(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<C> v(static_cast<std::size_t>(n));
  for (C& z : v) z = {u(rng), u(rng)};
  return v;
}

Tensor c128(const std::vector<C>& v, const Shape& shape) { return from_data<C>(std::span<const C>(v), shape, ref()); }

// The DFT of each row of `rows` rows of n, directly, in long double; jk reduced mod n so the angle is exact.
std::vector<CL> direct_dft(const std::vector<C>& x, std::int64_t n, bool inverse) {
  std::vector<CL> out(x.size());
  const long double sign = inverse ? 1 : -1;
  for (std::size_t r = 0; r < x.size() / static_cast<std::size_t>(n); ++r)
    for (std::int64_t j = 0; j < n; ++j) {
      CL acc = 0;
      for (std::int64_t k = 0; k < n; ++k) {
        const long double angle = sign * 2 * std::numbers::pi_v<long double> * ((j * k) % n) / n;
        acc += CL(x[r * n + k]) * CL(std::cos(angle), std::sin(angle));
      }
      out[r * n + j] = inverse ? acc / static_cast<long double>(n) : acc;
    }
  return out;
}

// max |got - want| <= c eps log2(n + 1) max |want|: the bound of a stable FFT.
void expect_fft_close(const Tensor& got, const std::vector<CL>& want, std::int64_t n, const std::string& what) {
  const std::vector<C> g = as_type(got, DType::c128).to_vector<C>();
  const double eps = got.dtype() == DType::c64 ? 0x1p-24 : 0x1p-53;
  long double worst = 0, scale = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    worst = std::max(worst, std::abs(CL(g[i]) - want[i]));
    scale = std::max(scale, std::abs(want[i]));
  }
  const double bound = 8 * eps * std::log2(static_cast<double>(n) + 1) * static_cast<double>(scale) + 1e-300;
  EXPECT_LE(static_cast<double>(worst), bound) << what << " n=" << n;
}

TEST(Fft, MatchesTheDirectDftForEveryLengthUpTo40AndLongOnes) {
  std::vector<std::int64_t> lengths;
  for (std::int64_t n = 1; n <= 40; ++n) lengths.push_back(n);
  for (std::int64_t n : {97, 128, 360, 1000, 1009}) lengths.push_back(n);
  for (std::int64_t n : lengths) {
    const std::vector<C> x = random_complex(3 * n, static_cast<std::uint64_t>(n));
    const Tensor t = c128(x, {3, n});
    std::vector<C> x64;  // the input as c64 holds it
    for (const C& z : x) x64.emplace_back(std::complex<float>(z));
    expect_fft_close(fft(t), direct_dft(x, n, false), n, "fft c128");
    expect_fft_close(ifft(t), direct_dft(x, n, true), n, "ifft c128");
    expect_fft_close(fft(as_type(t, DType::c64)), direct_dft(x64, n, false), n, "fft c64");
    expect_fft_close(ifft(fft(t)), std::vector<CL>(x.begin(), x.end()), n, "ifft(fft(x))");
  }
}

TEST(Fft, ParsevalAndKnownSpectra) {
  const std::int64_t n = 4096;
  const std::vector<C> x = random_complex(n, 7);
  const std::vector<C> X = fft(c128(x, {n})).to_vector<C>();
  long double energy = 0, spectral = 0;
  for (std::int64_t i = 0; i < n; ++i) energy += std::norm(CL(x[i])), spectral += std::norm(CL(X[i]));
  EXPECT_NEAR(static_cast<double>(spectral / (energy * n)), 1.0, 1e-13);
  // An impulse has a flat spectrum; a constant all its energy at 0.
  std::vector<C> impulse(12, 0.0);
  impulse[0] = 1;
  for (const C& z : fft(c128(impulse, {12})).to_vector<C>()) EXPECT_EQ(z, C(1, 0));
  const std::vector<C> constant = fft(full({12}, 2.0, DType::f64, ref())).to_vector<C>();
  EXPECT_EQ(constant[0], C(24, 0));
  for (int i = 1; i < 12; ++i) EXPECT_LT(std::abs(constant[i]), 1e-14) << i;
}

TEST(Fft, AxesLengthsAndRealInputs) {
  const std::vector<C> x = random_complex(5 * 6, 8);
  const Tensor t = c128(x, {5, 6});
  // Along axis 0 equals along the last axis of the transpose.
  EXPECT_EQ(fft(t, std::nullopt, 0).to_vector<C>(), transpose(fft(transpose(t))).to_vector<C>());
  // length: padded with zeros, or cropped.
  EXPECT_EQ(fft(t, 9).to_vector<C>(), fft(pad(t, 0.0, {{0, 0, 0}, {0, 3, 0}})).to_vector<C>());
  EXPECT_EQ(fft(t, 4).to_vector<C>(), fft(slice(t, {0, 0}, {5, 4})).to_vector<C>());
  EXPECT_EQ(fft(t, 9).shape(), (Shape{5, 9}));
  // Real and integer inputs become complex: f64 gives c128, the rest c64.
  EXPECT_EQ(fft(real(t)).dtype(), DType::c128);
  EXPECT_EQ(fft(tensor<std::int32_t>({1, 2, 3}, {3}, ref())).dtype(), DType::c64);
  EXPECT_EQ(fft(zeros({4}, DType::f32, ref())).dtype(), DType::c64);
  // An empty batch, and an empty axis without a length.
  EXPECT_EQ(fft(zeros({0, 8}, DType::c64, ref())).shape(), (Shape{0, 8}));
  EXPECT_EQ(fft(zeros({3, 0}, DType::c64, ref())).shape(), (Shape{3, 0}));
}

TEST(Fft, RfftAndIrfftMatchTheFullTransform) {
  for (std::int64_t n : {1, 2, 7, 8, 15, 16, 100}) {
    std::vector<double> signal(static_cast<std::size_t>(2 * n));
    std::mt19937_64 rng(static_cast<std::uint64_t>(n));
    for (double& v : signal) v = std::uniform_real_distribution<double>(-1, 1)(rng);
    const Tensor x = tensor<double>(signal, {2, n}, ref());
    const Tensor half = rfft(x);
    ASSERT_EQ(half.shape(), (Shape{2, n / 2 + 1})) << n;
    const Tensor full_spectrum = fft(x);
    EXPECT_EQ(half.to_vector<C>(), slice(full_spectrum, {0, 0}, {2, n / 2 + 1}).to_vector<C>()) << n;
    const std::vector<double> back = irfft(half, n).to_vector<double>();
    for (std::size_t i = 0; i < signal.size(); ++i) EXPECT_NEAR(back[i], signal[i], 1e-14) << n << " " << i;
  }
  // The default length 2 (m - 1), and imaginary parts of the bins that must be real are ignored (NumPy's rule).
  const Tensor bins = c128({{4, 5}, {1, -1}, {2, 7}}, {3});
  EXPECT_EQ(irfft(bins).shape(), (Shape{4}));
  const std::vector<double> y = irfft(bins).to_vector<double>();
  const std::vector<double> want{(4 + 2 + 2 * 1) / 4.0, (4 - 2 + 2 * -1 * -1) / 4.0, (4 + 2 - 2 * 1) / 4.0,
                                 (4 - 2 - 2 * -1 * -1) / 4.0};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(y[i], want[i], 1e-15) << i;
}

TEST(Fft, TwoDimensionalTransforms) {
  const std::int64_t rows = 6, cols = 10;
  const std::vector<C> x = random_complex(rows * cols, 9);
  const Tensor t = c128(x, {rows, cols});
  const std::vector<C> got = fft2(t).to_vector<C>();
  for (std::int64_t u = 0; u < rows; ++u)
    for (std::int64_t v = 0; v < cols; ++v) {
      CL want = 0;
      for (std::int64_t j = 0; j < rows; ++j)
        for (std::int64_t k = 0; k < cols; ++k) {
          const long double angle =
              -2 * std::numbers::pi_v<long double> *
              (static_cast<long double>((u * j) % rows) / rows + static_cast<long double>((v * k) % cols) / cols);
          want += CL(x[j * cols + k]) * CL(std::cos(angle), std::sin(angle));
        }
      EXPECT_LT(std::abs(CL(got[u * cols + v]) - want), 1e-13L) << u << " " << v;
    }
  const std::vector<C> back = ifft2(fft2(t)).to_vector<C>();
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_LT(std::abs(back[i] - x[i]), 1e-15) << i;
  EXPECT_EQ(fft2(t, std::array<std::int64_t, 2>{8, 4}).shape(), (Shape{8, 4}));
  // The axes in the other order: the same transform, rounded in another order.
  const std::vector<C> swapped = fft2(reshape(t, {1, rows, cols}), std::nullopt, {2, 1}).to_vector<C>();
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_LT(std::abs(swapped[i] - got[i]), 1e-13) << i;
}

TEST(Fft, GradientsInClosedForm) {
  // L(x) = Re(sum_j w_j X_j) for real x: dL/dx_k = Re(sum_j w_j e^{-2 pi i jk / n}) = Re(fft(w))_k.
  const std::int64_t n = 12;
  const Tensor w = c128(random_complex(n, 10), {n});
  const Tensor x = real(c128(random_complex(n, 11), {n}));
  const Tensor g = grad([&](const Tensor& v) { return real(sum(fft(v) * w)); })(x);
  const std::vector<double> got = g.to_vector<double>(), want = real(fft(w)).to_vector<double>();
  for (std::int64_t k = 0; k < n; ++k) EXPECT_NEAR(got[k], want[k], 1e-13) << k;
  // Parseval: sum |fft(z)|^2 = n sum |z|^2, so the gradient with respect to complex z is 2 n z; through ifft and
  // rfft/irfft as well (irfft(rfft(x)) is the identity, so sum(irfft(rfft(x))^2) has gradient 2x).
  const Tensor z = c128(random_complex(n, 12), {n});
  const std::vector<C> gz = grad([](const Tensor& v) { return sum(square(abs(fft(v)))); })(z).to_vector<C>();
  const std::vector<C> zv = z.to_vector<C>();
  for (std::int64_t k = 0; k < n; ++k) EXPECT_LT(std::abs(gz[k] - 2.0 * n * zv[k]), 1e-12) << k;
  const std::vector<double> gr =
      grad([&](const Tensor& v) { return sum(square(irfft(rfft(v), n))); })(x).to_vector<double>();
  const std::vector<double> xv = x.to_vector<double>();
  for (std::int64_t k = 0; k < n; ++k) EXPECT_NEAR(gr[k], 2 * xv[k], 1e-13) << k;
}

TEST(Fft, JitVectorizeAndVulkan) {
  const Tensor t = c128(random_complex(4 * 30, 13), {4, 30});
  const std::vector<C> eager = fft(t).to_vector<C>();
  EXPECT_EQ(jit([](const Tensor& v) { return fft(v); })(t).to_vector<C>(), eager);
  EXPECT_EQ(vectorize([](const Tensor& v) { return fft(v); })(t).to_vector<C>(), eager);
  if (!vulkan::available()) GTEST_SKIP() << "no Vulkan device";
  Backend& vk = vulkan::backend();
  for (DType dt : complex_dtypes) {
    const Tensor x = as_type(t, dt);
    const std::vector<C> want = as_type(fft2(x), DType::c128).to_vector<C>();
    const std::vector<C> got = as_type(fft2(x.to(vk)).to_host(), DType::c128).to_vector<C>();
    const double tol = dt == DType::c64 ? 1e-5 : 1e-13;
    for (std::size_t i = 0; i < want.size(); ++i) EXPECT_LT(std::abs(got[i] - want[i]), tol) << i;
  }
}

TEST(Fft, Errors) {
  const Tensor z = zeros({4}, DType::c64, ref());
  expect_error([&] { fft(scalar(1.0, DType::f32, ref())); }, {"fft", "f32[]", "rank >= 1"});
  expect_error([&] { fft(zeros({3}, DType::pred, ref())); }, {"fft", "pred", "numeric"});
  expect_error([&] { fft(z, 0); }, {"fft", "length 0", "length >= 1"});
  expect_error([&] { ifft(z, std::nullopt, 1); }, {"ifft", "axis 1"});
  expect_error([&] { rfft(z); }, {"rfft", "c64[4]", "real tensor"});
  expect_error([&] { irfft(zeros({1}, DType::c64, ref())); }, {"irfft", "0 points"});
  expect_error([&] { fft2(zeros({2, 2}, DType::c64, ref()), std::nullopt, {0, -2}); }, {"fft2", "repeated"});
  expect_error([&] { fft(Tensor()); }, {"fft", "undefined"});
}

}  // namespace
}  // namespace nxv
