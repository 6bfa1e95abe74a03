// The shaders' f16 and bf16 conversions (src/vulkan/kernels/lib/half.glsl) equal the host's (include/nxv/half.hpp,
// itself checked against a search oracle in tests/core/half_test.cpp) bit for bit: every 16-bit pattern widened to
// f32, and f32 values at and around every rounding tie, on a stride through all patterns, and the specials, narrowed
// -- in the eager cast kernels and in a fused kernel (the fusion compiler's own spelling of the same conversions).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

#include "nxv/nxv.hpp"
#include "support/parity.hpp"

namespace nxv::vulkan::test {
namespace {

// Every 16-bit pattern.
Tensor all_patterns(Backend& backend) {
  std::vector<std::uint16_t> v(65536);
  for (std::uint32_t b = 0; b < 65536; ++b) v[b] = static_cast<std::uint16_t>(b);
  return tensor<std::uint16_t>(v, {65536}, backend);
}

// Midpoints between neighbouring values of H and the f32 values next to them, a stride through the f32 patterns,
// the specials; both signs.
template <class H>
std::vector<float> narrowing_probes() {
  std::vector<float> p;
  for (std::uint32_t b = 0; b + 1 < 0x7f80u; ++b) {
    const float lo = static_cast<float>(H::from_bits(static_cast<std::uint16_t>(b)));
    const float hi = static_cast<float>(H::from_bits(static_cast<std::uint16_t>(b + 1)));
    if (!std::isfinite(hi)) break;
    const float mid = (lo + hi) / 2;  // exact: one bit below the 16-bit type's significand
    p.insert(p.end(), {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY)});
  }
  for (std::uint64_t b = 0; b < 0x7f800000u; b += 65521)
    p.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(b)));
  p.insert(p.end(), {std::numeric_limits<float>::max(), std::numeric_limits<float>::denorm_min(),
                     std::numeric_limits<float>::min(), 65504.0f, 65519.996f, 65520.0f, INFINITY, NAN});
  const std::size_t n = p.size();
  for (std::size_t i = 0; i < n; ++i) p.push_back(-p[i]);
  return p;
}

// How NaN results compare: by NaN-ness and sign where only bit operations touch them (the cast kernels), by
// NaN-ness alone where float arithmetic does (Vulkan leaves the sign and payload of an arithmetic NaN result
// unspecified; NVIDIA's negation returns a positive NaN for -NaN), as the parity suites compare.
enum class NanSign { kept, free };

// Everything but NaN results by bits. Where `alternative` is given, an element may equal either want's or its.
template <class H>
void expect_same_bits(const std::vector<H>& want, const std::vector<H>& got, const char* what, NanSign nan_sign,
                      const std::vector<H>* alternative = nullptr) {
  ASSERT_EQ(want.size(), got.size());
  const auto same = [&](H w, H g) {
    const bool nan = std::isnan(static_cast<float>(w)) && std::isnan(static_cast<float>(g));
    const bool same_sign = (w.bits & 0x8000u) == (g.bits & 0x8000u);
    return w.bits == g.bits || (nan && (nan_sign == NanSign::free || same_sign));
  };
  int failures = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (same(want[i], got[i]) || (alternative != nullptr && same((*alternative)[i], got[i]))) continue;
    if (++failures <= 5)
      ADD_FAILURE() << what << " element " << i << ": host 0x" << std::hex << want[i].bits << ", device 0x"
                    << got[i].bits;
  }
  EXPECT_EQ(failures, 0) << what;
}

// bf16 values in f32's denormal range (bf16 has f32's exponent range) as zeros of their sign; f16 values as they are.
template <class H>
std::vector<H> flush_bf16_denormals(std::vector<H> v) {
  if constexpr (std::is_same_v<H, BFloat16>)
    for (H& h : v)
      if ((h.bits & 0x7f80u) == 0) h.bits &= 0x8000u;
  return v;
}

template <class H>
void expect_device_conversions_match_host() {
  NXV_REQUIRE_VULKAN();
  const DType t = dtype_of_v<H>;
  Backend& vk = vulkan::backend();
  // Widening: every pattern, by the eager cast kernel.
  const Tensor halves = bitcast(all_patterns(vk), t);
  const std::vector<float> widened = as_type(halves, DType::f32).to_vector<float>();
  const std::vector<float> on_host = as_type(halves.to_host(), DType::f32).to_vector<float>();
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const float w = widened[b], h = on_host[b];
    ASSERT_TRUE(std::bit_cast<std::uint32_t>(w) == std::bit_cast<std::uint32_t>(h) || (std::isnan(w) && std::isnan(h)))
        << name(t) << " pattern 0x" << std::hex << b << ": device " << w << ", host " << h;
  }
  // Narrowing: the probes, eagerly and in a fused kernel (cast, then an op computing on the 16-bit value).
  const std::vector<float> probes = narrowing_probes<H>();
  const Tensor x = tensor<float>(probes, {static_cast<std::int64_t>(probes.size())});
  const std::vector<H> want = as_type(x, t).to_vector<H>();
  for (std::size_t i = 0; i < probes.size(); ++i) ASSERT_EQ(want[i].bits, H(probes[i]).bits);
  expect_same_bits(want, as_type(x.to(vk), t).to_vector<H>(), "eager cast", NanSign::kept);
  // The fused kernel computes on f32 values: on a device that flushes f32 denormals (NVIDIA), a bf16 result in
  // f32's denormal range becomes a zero of its sign when the negations compute on it, and an f32-denormal input
  // may be flushed before it is rounded (NVIDIA rounds it as it is), so both are compared as the parity suites
  // compare: denormals as signed zeros.
  const auto fused = jit([&](const Tensor& v) { return negate(negate(as_type(v, t))); });
  std::vector<H> got = fused(x.to(vk)).template to_vector<H>();
  if (testing::vulkan_flushes_f32_denormals()) {
    const std::vector<H> flushed_input =
        flush_bf16_denormals(as_type(testing::flush_f32_denormals(x), t).to_vector<H>());
    expect_same_bits(flush_bf16_denormals(want), flush_bf16_denormals(std::move(got)),
                     "fused cast (f32 denormals flushed)", NanSign::free, &flushed_input);
  } else {
    expect_same_bits(want, got, "fused cast", NanSign::free);
  }
}

TEST(VulkanHalf, F16ConversionsMatchTheHostForEveryPatternAndTie) { expect_device_conversions_match_host<Half>(); }
TEST(VulkanHalf, BF16ConversionsMatchTheHostForEveryPatternAndTie) { expect_device_conversions_match_host<BFloat16>(); }

}  // namespace
}  // namespace nxv::vulkan::test
