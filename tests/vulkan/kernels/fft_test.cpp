// The VkFFT kernel (src/vulkan/kernels/fft.cpp) against the reference FFT: lengths of every kind (powers of two, small
// primes, Bluestein primes, long rows), both directions, f32 and f64, inputs inside shared slabs and in blocks of
// their own, and the plan cache's hazards: one plan launched on other buffers in the same batch, chained
// transforms, and jit (whose capture a VkFFT launch ends). Errors are bounded by c * eps * log2(n) * max|X|.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "nxv/defn.hpp"
#include "nxv/fallback.hpp"
#include "nxv/fft.hpp"
#include "nxv/ops.hpp"
#include "nxv/vulkan.hpp"
#include "support/parity.hpp"

namespace nxv {
namespace {

using C = std::complex<double>;

// max |vulkan - reference| <= 8 eps log2(n + 1) max |reference|, on the c128 values of both.
void expect_close(const Tensor& vk, const Tensor& ref, std::int64_t n, const std::string& what) {
  const std::vector<C> got = as_type(vk.to_host(), DType::c128).to_vector<C>();
  const std::vector<C> want = as_type(ref, DType::c128).to_vector<C>();
  ASSERT_EQ(got.size(), want.size()) << what;
  double worst = 0, scale = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    worst = std::max(worst, std::abs(got[i] - want[i]));
    scale = std::max(scale, std::abs(want[i]));
  }
  const double eps = vk.dtype() == DType::c64 ? 0x1p-24 : 0x1p-53;
  EXPECT_LE(worst, 8 * eps * std::log2(static_cast<double>(n) + 1) * scale) << what << " n=" << n;
}

TEST(VulkanFft, MatchesTheReferenceOverLengthsDirectionsAndDtypes) {
  NXV_REQUIRE_VULKAN();
  Backend& vk = vulkan::backend();
  for (DType dt : complex_dtypes)
    for (std::int64_t n : {2, 3, 5, 7, 8, 12, 17, 31, 64, 97, 360, 1000, 1009, 4096, 8192}) {
      const std::int64_t rows = n > 1000 ? 2 : 5;
      const Tensor x = testing::test_uniform(dt, {rows, n}, static_cast<std::uint64_t>(n), -1, 1);
      const auto fallbacks = fallback::count([&] {
        expect_close(fft(x.to(vk)), fft(x), n, std::string("fft ") + std::string(name(dt)));
        expect_close(ifft(x.to(vk)), ifft(x), n, std::string("ifft ") + std::string(name(dt)));
      });
      EXPECT_TRUE(fallbacks.empty()) << n << ": " << fallbacks.begin()->first;
    }
}

TEST(VulkanFft, AxesBatchesAndRealTransforms) {
  NXV_REQUIRE_VULKAN();
  Backend& vk = vulkan::backend();
  const Tensor x = testing::test_uniform(DType::c64, {6, 10, 9}, 21, -1, 1);
  expect_close(fft(x.to(vk), std::nullopt, 1), fft(x, std::nullopt, 1), 10, "axis 1");
  expect_close(fft2(x.to(vk)), fft2(x), 90, "fft2");
  expect_close(ifft2(fft2(x.to(vk))), x, 90, "ifft2(fft2)");
  const Tensor r = testing::test_uniform(DType::f64, {3, 50}, 22, -1, 1);
  expect_close(rfft(r.to(vk)), rfft(r), 50, "rfft");
  expect_close(as_type(irfft(rfft(r.to(vk)), 50), DType::c128), as_type(r, DType::c128), 50, "irfft(rfft)");
  // Many rows (past 65535 workgroups' worth of small transforms).
  const Tensor many = testing::test_uniform(DType::c64, {70000, 4}, 23, -1, 1);
  expect_close(fft(many.to(vk)), fft(many), 4, "70000 rows");
}

TEST(VulkanFft, OnePlanOnOtherBuffersInOneBatchAndUnderJit) {
  NXV_REQUIRE_VULKAN();
  Backend& vk = vulkan::backend();
  // Three transforms of one shape (one plan) on three inputs, recorded into one batch, and a chain of them:
  // each must read its own input although the plan's descriptors change between them.
  std::vector<Tensor> inputs, outputs;
  for (std::uint64_t seed : {31, 32, 33}) inputs.push_back(testing::test_uniform(DType::c64, {4, 256}, seed, -1, 1));
  for (const Tensor& in : inputs) outputs.push_back(fft(in.to(vk)));
  const Tensor chained = ifft(fft(fft(inputs[0].to(vk))));
  for (std::size_t i = 0; i < inputs.size(); ++i) expect_close(outputs[i], fft(inputs[i]), 256, "batched plan");
  expect_close(chained, ifft(fft(fft(inputs[0]))), 256, "chain");
  // Small tensors live inside shared slabs: the kernel copies them to a block of their own first.
  const Tensor small = testing::test_uniform(DType::c128, {3, 6}, 34, -1, 1);
  expect_close(fft(small.to(vk) * 2.0), fft(small * 2.0), 6, "slab input");
  // jit: a launch ends the capture, so each call runs the transform again on its own inputs.
  auto f = jit([](const Tensor& v) { return fft(v) * 0.5; });
  for (const Tensor& in : inputs) expect_close(f(in.to(vk)), fft(in) * 0.5, 256, "jit");
}

}  // namespace
}  // namespace nxv
