// nxv::Half and nxv::BFloat16 (include/nxv/half.hpp) against an oracle that knows nothing of their bit tricks: the
// nearest representable value found by search over every finite value of the type, in double, ties to the even
// bit pattern, overflow where IEEE puts it. Checked at every midpoint between neighbours (the ties), just above and
// below each, on a stride through all f32 bit patterns, and at the specials; then promotion, tensors of them and
// their printing.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

#include "nxv/nxv.hpp"

namespace nxv {
namespace {

// Every finite non-negative value of a 16-bit float type, ascending, with its bits.
template <class H>
std::vector<std::pair<double, std::uint16_t>> finite_values() {
  std::vector<std::pair<double, std::uint16_t>> v;
  for (std::uint32_t b = 0; b < 0x8000u; ++b) {
    const double x = static_cast<float>(H::from_bits(static_cast<std::uint16_t>(b)));
    if (std::isfinite(x)) v.emplace_back(x, static_cast<std::uint16_t>(b));
  }
  std::sort(v.begin(), v.end());
  return v;
}

// The correctly rounded 16-bit pattern of f (round to nearest, ties to even; beyond the largest finite value by half
// an ulp or more: infinity), by search.
template <class H>
std::uint16_t oracle(float f, const std::vector<std::pair<double, std::uint16_t>>& values, std::uint16_t inf_bits) {
  const std::uint16_t sign = std::signbit(f) ? 0x8000u : 0u;
  const double a = std::fabs(static_cast<double>(f));
  const auto& [largest, largest_bits] = values.back();
  const double ulp = largest - values[values.size() - 2].first;
  if (a >= largest + ulp / 2) return sign | inf_bits;  // the tie at largest + ulp/2 goes to the even "next" (inf)
  const auto hi = std::lower_bound(values.begin(), values.end(), std::make_pair(a, std::uint16_t{0}));
  if (hi == values.end()) return sign | largest_bits;
  if (hi->first == a || hi == values.begin()) return sign | hi->second;
  const auto lo = hi - 1;
  const double below = a - lo->first, above = hi->first - a;
  if (below < above) return sign | lo->second;
  if (above < below) return sign | hi->second;
  return sign | ((lo->second & 1u) == 0 ? lo->second : hi->second);
}

// The f32 values where rounding is decided: each midpoint between neighbouring values (exact in f32: a 16-bit
// float's neighbours differ in one bit below its 11 or 8 significant ones) and the f32 neighbours of each; a stride
// through every f32 pattern; both signs.
template <class H>
std::vector<float> probes(const std::vector<std::pair<double, std::uint16_t>>& values) {
  std::vector<float> p;
  for (std::size_t i = 0; i + 1 < values.size(); ++i) {
    const float mid = static_cast<float>((values[i].first + values[i + 1].first) / 2);
    EXPECT_EQ(static_cast<double>(mid), (values[i].first + values[i + 1].first) / 2) << "midpoint not exact";
    p.insert(p.end(), {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY)});
  }
  const double top = values.back().first + (values.back().first - values[values.size() - 2].first) / 2;
  p.insert(p.end(), {static_cast<float>(top), std::nextafter(static_cast<float>(top), 0.0f),
                     std::nextafter(static_cast<float>(top), INFINITY), std::numeric_limits<float>::max(),
                     std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::min(), 0.0f, INFINITY});
  for (std::uint64_t b = 0; b < 0x7f800000u; b += 40961)
    p.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(b)));
  const std::size_t n = p.size();
  for (std::size_t i = 0; i < n; ++i) p.push_back(-p[i]);
  return p;
}

template <class H>
void expect_correctly_rounded(std::uint16_t inf_bits) {
  const auto values = finite_values<H>();
  int failures = 0;
  for (const float f : probes<H>(values)) {
    const std::uint16_t want = oracle<H>(f, values, inf_bits), got = H(f).bits;
    if (want != got && ++failures <= 5)
      ADD_FAILURE() << "f32 " << f << " (0x" << std::hex << std::bit_cast<std::uint32_t>(f) << "): got 0x" << got
                    << ", expected 0x" << want;
  }
  EXPECT_EQ(failures, 0);
}

TEST(Half, FromFloatRoundsToNearestEvenAtEveryTieAndOverflowsToInfinity) {
  expect_correctly_rounded<Half>(0x7c00u);
  EXPECT_EQ(Half(65504.0f).bits, 0x7bffu);
  EXPECT_EQ(Half(65519.99f).bits, 0x7bffu);
  EXPECT_EQ(Half(65520.0f).bits, 0x7c00u);
  EXPECT_EQ(Half(std::ldexp(1.0f, -24)).bits, 0x0001u);  // the smallest subnormal
  EXPECT_EQ(Half(std::ldexp(1.0f, -25)).bits, 0x0000u);  // half of it: a tie, to even (zero)
  EXPECT_EQ(Half(-0.0f).bits, 0x8000u);
}

TEST(BFloat16, FromFloatRoundsToNearestEvenAtEveryTieAndOverflowsToInfinity) {
  expect_correctly_rounded<BFloat16>(0x7f80u);
  EXPECT_EQ(BFloat16(1.0f).bits, 0x3f80u);
  EXPECT_EQ(BFloat16(std::bit_cast<float>(0x3f808000u)).bits, 0x3f80u);  // a tie: to even
  EXPECT_EQ(BFloat16(std::bit_cast<float>(0x3f818000u)).bits, 0x3f82u);  // a tie: to even (up)
  EXPECT_EQ(BFloat16(std::numeric_limits<float>::max()).bits, 0x7f80u);
}

// Every pattern widens to the float of its value and narrows back to itself; NaNs stay NaN with their sign.
template <class H>
void expect_round_trips(std::uint16_t quiet_nan) {
  for (std::uint32_t b = 0; b <= 0xffffu; ++b) {
    const H h = H::from_bits(static_cast<std::uint16_t>(b));
    const float f = static_cast<float>(h);
    if (std::isnan(f)) {
      ASSERT_EQ(H(f).bits, (b & 0x8000u) | quiet_nan) << std::hex << b;
    } else {
      ASSERT_EQ(H(f).bits, b) << std::hex << b;
      ASSERT_EQ(static_cast<double>(h), static_cast<double>(f));
    }
  }
}

TEST(Half, EveryPatternRoundTripsThroughFloat) {
  expect_round_trips<Half>(0x7e00u);
  EXPECT_EQ(static_cast<float>(Half::from_bits(0x3c00u)), 1.0f);
  EXPECT_EQ(static_cast<float>(Half::from_bits(0x0001u)), std::ldexp(1.0f, -24));
  EXPECT_EQ(static_cast<float>(Half::from_bits(0x03ffu)), std::ldexp(1023.0f, -24));
  EXPECT_EQ(static_cast<float>(Half::from_bits(0xfc00u)), -INFINITY);
}

TEST(BFloat16, EveryPatternRoundTripsThroughFloat) { expect_round_trips<BFloat16>(0x7fc0u); }

TEST(Half, DoublesAndIntegersConvertThroughFloat) {
  // 1 + 2^-11 + 2^-40: nearer 1 + 2^-10 than 1 in double, but f32 rounds it to the tie 1 + 2^-11 first, which goes
  // to even (1): the documented double rounding, as PyTorch's and Eigen's conversions do.
  const double x = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(Half(x).bits, 0x3c00u);
  const Tensor t = as_type(tensor<double>({x, 65519.0, 65520.0, -1e300}, {4}), DType::f16);
  const std::vector<Half> h = t.to_vector<Half>();
  EXPECT_EQ(h[0].bits, 0x3c00u);
  EXPECT_EQ(h[1].bits, 0x7bffu);
  EXPECT_EQ(h[2].bits, 0x7c00u);
  EXPECT_EQ(h[3].bits, 0xfc00u);
  // float -> int saturates and truncates as for f32; the 16-bit value 2049 does not exist in f16 (ties to 2048).
  EXPECT_EQ(as_type(tensor<std::int32_t>({2049, 2051, -70000}, {3}), DType::f16).to_vector<Half>()[0].bits, 0x6800u);
  const std::vector<std::int32_t> back =
      as_type(as_type(tensor<float>({1e9f, -3.75f, NAN}, {3}), DType::bf16), DType::s32).to_vector<std::int32_t>();
  EXPECT_EQ(back[0], 998244352);  // bf16(1e9) = 0x4e6e: 1.859375 * 2^29
  EXPECT_EQ(back[1], -3);
  EXPECT_EQ(back[2], 0);
}

TEST(HalfDTypes, PromoteAsNxAndJaxDo) {
  EXPECT_EQ(promote(DType::f16, DType::bf16), DType::f32);
  EXPECT_EQ(promote(DType::bf16, DType::f16), DType::f32);
  EXPECT_EQ(promote(DType::f16, DType::f32), DType::f32);
  EXPECT_EQ(promote(DType::bf16, DType::f64), DType::f64);
  EXPECT_EQ(promote(DType::s64, DType::f16), DType::f16);
  EXPECT_EQ(promote(DType::u8, DType::bf16), DType::bf16);
  EXPECT_EQ(promote(DType::pred, DType::f16), DType::f16);
  EXPECT_EQ(float_type(DType::bf16), DType::bf16);
  EXPECT_EQ(dtype_from_name("bf16"), DType::bf16);
  EXPECT_EQ(size_of(DType::f16), 2u);
  EXPECT_TRUE(is_float(DType::f16) && is_float(DType::bf16));
}

TEST(HalfDTypes, TensorsHoldPrintAndComputeInFloatRoundingOnce) {
  const Tensor a = as_type(tensor<float>({1.0f, 0.1f, 65504.0f, -0.0f}, {4}), DType::f16);
  EXPECT_EQ(a.dtype(), DType::f16);
  EXPECT_EQ(a.to_vector<Half>()[1].bits, 0x2e66u);  // 0.1 -> 0.0999755859375
  EXPECT_DOUBLE_EQ(reshape(slice(a, {1}, {1}), {}).item(), 0.0999755859375);
  std::ostringstream s;
  s << a;
  EXPECT_NE(s.str().find("0.099976"), std::string::npos) << s.str();
  EXPECT_NE(s.str().find("-0"), std::string::npos) << s.str();
  // 65504 + 65504 overflows to inf in f16, not in the f32 it is computed in: the one rounding is to f16.
  EXPECT_TRUE(std::isinf(static_cast<float>(add(a, a).to_vector<Half>()[2])));
  // 1 + 2^-11 is a tie in f16 (rounds to 1); computed in f32 and rounded once.
  const Tensor one = full({}, 1.0, DType::f16), tiny = full({}, std::ldexp(1.0, -11), DType::f16);
  EXPECT_EQ(add(one, tiny).to_vector<Half>()[0].bits, 0x3c00u);
  EXPECT_EQ(add(one, add(tiny, tiny)).to_vector<Half>()[0].bits, 0x3c01u);
  // A sum accumulates in f32: 4096 ones are 4096 (an f16 accumulator would stop at 2048).
  EXPECT_EQ(sum(full({4096}, 1.0, DType::f16)).item(), 4096.0);
  EXPECT_EQ(sum(full({4096}, 1.0, DType::f16)).dtype(), DType::f16);
}

}  // namespace
}  // namespace nxv
