// Precision::fast for dot (include/nxv/precision.hpp) on the Vulkan backend: every result within the stated bound
// gamma(K) * sum_k |a_k b_k| of the exact value (computed here in double, with an error-free product and sum for
// f64), for every orientation, batches, edge sizes (1, 15, 16, 17, 63, 64, 65, primes, K = 0) and each kernel
// variant; inf and NaN where the exact mode has them; the same bits run after run and from every variant that
// sums in k order (the tensor-core variant sums in the hardware's order: the same bits run after run, its own
// bound); fused (jit) = eager within the mode; long contractions with few output tiles split K into chunks
// (dot_k_splits), every variant alike. The exact mode's bit-for-bit parity is dot_test.cpp's and the parity
// suites'. On a device without tensor cores a forced `tensor` runs `mid`.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "nxv/defn.hpp"
#include "nxv/grad.hpp"
#include "support/dot_kernels.hpp"
#include "support/kernels.hpp"

namespace nxv::vulkan::test {
namespace {

using kernels::DotKernel;

// One problem: `batch` products of [m, k] x [k, n]; a stored as [batch, m, k] or, transposed, [batch, k, m], and b
// as [batch, k, n] or [batch, n, k]. batch = 0 means no batch axis at all.
struct Problem {
  std::int64_t batch, m, k, n;
  bool a_transposed, b_transposed;
  std::string text() const {
    return std::to_string(batch) + "x" + std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n) +
           (a_transposed ? " aT" : "") + (b_transposed ? " bT" : "");
  }
};

// Canonical values: a[p][i][kk] and b[p][kk][j], uniform in [-4, 4) rounded to the dtype.
struct Operands {
  std::vector<double> a, b;  // canonical layouts
  Tensor ta, tb;             // stored layouts, on the host
};

double uniform_value(std::uint64_t& state) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<double>(state >> 11) * 0x1p-53 * 8.0 - 4.0;
}

// `v` rounded to dtype t (the operands' values as the oracle must see them).
double round_to(DType t, double v) {
  if (t == DType::f32) return static_cast<float>(v);
  if (t == DType::f16) return static_cast<float>(Half(static_cast<float>(v)));
  if (t == DType::bf16) return static_cast<float>(BFloat16(static_cast<float>(v)));
  return v;
}

Operands operands_of(const Problem& p, DType t, std::uint64_t seed) {
  const std::int64_t nb = std::max<std::int64_t>(p.batch, 1);
  Operands o;
  o.a.resize(nb * p.m * p.k);
  o.b.resize(nb * p.k * p.n);
  std::uint64_t state = seed;
  for (double& v : o.a) v = round_to(t, uniform_value(state));
  for (double& v : o.b) v = round_to(t, uniform_value(state));
  std::vector<double> sa(o.a.size()), sb(o.b.size());
  for (std::int64_t q = 0; q < nb; ++q)
    for (std::int64_t kk = 0; kk < p.k; ++kk) {
      for (std::int64_t i = 0; i < p.m; ++i) {
        const double v = o.a[(q * p.m + i) * p.k + kk];
        sa[p.a_transposed ? (q * p.k + kk) * p.m + i : (q * p.m + i) * p.k + kk] = v;
      }
      for (std::int64_t j = 0; j < p.n; ++j) {
        const double v = o.b[(q * p.k + kk) * p.n + j];
        sb[p.b_transposed ? (q * p.n + j) * p.k + kk : (q * p.k + kk) * p.n + j] = v;
      }
    }
  Shape shape_a = p.a_transposed ? Shape{p.k, p.m} : Shape{p.m, p.k};
  Shape shape_b = p.b_transposed ? Shape{p.n, p.k} : Shape{p.k, p.n};
  if (p.batch > 0) {
    shape_a.insert(0, p.batch);
    shape_b.insert(0, p.batch);
  }
  o.ta = as_type(tensor(sa, shape_a, reference_backend()), t);
  o.tb = as_type(tensor(sb, shape_b, reference_backend()), t);
  return o;
}

Tensor dot_of(const Problem& p, const Tensor& a, const Tensor& b, std::optional<Precision> precision) {
  const std::int64_t off = p.batch > 0 ? 1 : 0;
  const Axes batch = p.batch > 0 ? Axes{0} : Axes{};
  return dot(a, {p.a_transposed ? off : off + 1}, batch, b, {p.b_transposed ? off + 1 : off}, batch, precision);
}

// a + b as an unevaluated pair (Knuth's TwoSum) and a * b (by fma): the accurate dot of Ogita, Rump and Oishi
// (Dot2), as exact as a sum in twice the precision -- the oracle for f64 inputs.
double accurate_dot(const std::vector<double>& a, const std::vector<double>& b, std::int64_t a0, std::int64_t a_step,
                    std::int64_t b0, std::int64_t b_step, std::int64_t k, double& abs_sum) {
  double s = 0, c = 0;
  abs_sum = 0;
  for (std::int64_t kk = 0; kk < k; ++kk) {
    const double x = a[a0 + kk * a_step], y = b[b0 + kk * b_step];
    const double h = x * y, l = std::fma(x, y, -h);
    const double t = s + h, z = t - s, e = (s - (t - z)) + (h - z);
    s = t;
    c += e + l;
    abs_sum += std::abs(h);
  }
  return s + c;
}

// Every element of `got` (the problem's result, fast) within gamma(K) * sum|a_k b_k| of the exact value; f16 and bf16
// accumulate in f32 (gamma of f32; of 2^-22 for f16 on tensor cores, whose alignment truncates) and round once:
// plus their unit roundoff of the f32 result, and half their smallest subnormal where the result underflows.
void expect_within_bound(const Problem& p, DType t, const Operands& o, const Tensor& got, const std::string& what) {
  ASSERT_EQ(got.dtype(), t) << what;
  const std::vector<double> values = as_type(got.to_host(), DType::f64).to_vector<double>();
  const bool tensor_cores = kernels::tensor_dot_possible(Precision::fast, t);
  const double u = t == DType::f64 ? 0x1p-53 : tensor_cores ? 0x1p-22 : 0x1p-24;
  const double rounding = t == DType::f16 ? 0x1p-11 : t == DType::bf16 ? 0x1p-8 : 0;
  const double underflow = t == DType::f16 ? 0x1p-25 : t == DType::bf16 ? 0x1p-134 : 0;
  const double gamma = static_cast<double>(p.k) * u / (1.0 - static_cast<double>(p.k) * u);
  const std::int64_t nb = std::max<std::int64_t>(p.batch, 1);
  int reported = 0;
  for (std::int64_t q = 0; q < nb; ++q)
    for (std::int64_t i = 0; i < p.m; ++i)
      for (std::int64_t j = 0; j < p.n; ++j) {
        double abs_sum = 0;
        const double exact = accurate_dot(o.a, o.b, (q * p.m + i) * p.k, 1, q * p.k * p.n + j, p.n, p.k, abs_sum);
        // The oracle's own rounding (at most 2 ulp of double) on top of the bound.
        const double accumulated = gamma * abs_sum;
        const double bound = accumulated + rounding * (std::abs(exact) + accumulated) + underflow +
                             2 * std::numeric_limits<double>::epsilon() * std::abs(exact);
        const double value = values[(q * p.m + i) * p.n + j];
        const double error = std::abs(value - exact);
        if (!(error <= bound) && reported++ < 3)
          ADD_FAILURE() << what << " element [" << q << ", " << i << ", " << j << "]: " << value << " is " << error
                        << " from " << exact << ", more than the bound " << bound;
      }
}

std::vector<Problem> edge_problems() {
  std::vector<Problem> problems;
  // Sizes around the 16-wide slabs and 64-wide tiles, primes, 1 and K = 0, in every orientation.
  const std::int64_t sizes[][3] = {{1, 1, 1},    {15, 16, 17},  {17, 15, 16},  {63, 64, 65}, {65, 63, 64},
                                   {64, 65, 63}, {127, 1, 131}, {1, 131, 127}, {16, 0, 16},  {67, 37, 131}};
  for (const auto& s : sizes)
    for (int orientation = 0; orientation < 4; ++orientation)
      problems.push_back({0, s[0], s[1], s[2], (orientation & 1) != 0, (orientation & 2) != 0});
  problems.push_back({3, 65, 33, 17, false, false});
  problems.push_back({2, 17, 64, 65, true, true});
  // Split contractions (dot_k_splits): 19 chunks of 264 and a last one of 248; 7 of 293 and one of 289 over three
  // tiles; 16 of 257 and one of 244, the chunk a prime (operand offsets not multiples of a vector).
  for (int orientation = 0; orientation < 4; ++orientation)
    problems.push_back({0, 5, 5000, 7, (orientation & 1) != 0, (orientation & 2) != 0});
  problems.push_back({0, 130, 2047, 3, true, false});
  problems.push_back({0, 64, 4099, 64, false, true});
  return problems;
}

TEST(VulkanDotFast, EveryVariantIsWithinTheBoundOnEveryOrientationAndEdgeSize) {
  NXV_REQUIRE_VULKAN();
  for (const std::optional<DotKernel> variant :
       {std::optional<DotKernel>(), std::optional(DotKernel::tiled), std::optional(DotKernel::mid),
        std::optional(DotKernel::big), std::optional(DotKernel::tensor)}) {
    const ForcedDotKernel forced(variant);
    const std::string name_of_variant = variant ? kernels::dot_kernel_name(*variant) : "auto";
    for (DType t : {DType::f32, DType::f64, DType::f16, DType::bf16}) {
      std::uint64_t seed = 1;
      for (const Problem& p : edge_problems()) {
        const Operands o = operands_of(p, t, seed++);
        const Tensor got = dot_of(p, o.ta.to(vulkan::backend()), o.tb.to(vulkan::backend()), Precision::fast);
        expect_within_bound(p, t, o, got, "fast dot " + name_of_variant + " " + std::string(name(t)) + " " + p.text());
      }
    }
  }
}

TEST(VulkanDotFast, TheSameBitsRunAfterRunAndFromEveryVariant) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::f32, DType::f64, DType::f16, DType::bf16}) {
    // 512^3 is where the size rule takes `mid` (or, for f16 on tensor cores, `tensor`) in fast; 131 x 67 x 129
    // leaves partial tiles and slabs; 64 x 4099 x 64 splits K in 17 chunks; 2 x 200 x 300 x 136 is a batch of
    // partial tensor tiles.
    for (const Problem& p : {Problem{0, 512, 512, 512, false, false}, Problem{0, 131, 67, 129, true, false},
                             Problem{0, 64, 4099, 64, false, false}, Problem{2, 200, 300, 136, true, true}}) {
      const Operands o = operands_of(p, t, 7);
      const Tensor a = o.ta.to(vulkan::backend()), b = o.tb.to(vulkan::backend());
      const std::string what = std::string(name(t)) + " " + p.text();
      const Tensor automatic = dot_of(p, a, b, Precision::fast).to_host();
      EXPECT_EQ(testing::compare_exact(automatic, dot_of(p, a, b, Precision::fast).to_host()), "") << what;
      expect_within_bound(p, t, o, automatic, "fast dot " + what);
      const bool automatic_is_tensor =
          kernels::tensor_dot_possible(Precision::fast, t) &&
          kernels::choose_dot_kernel(Precision::fast, t, std::max<std::int64_t>(p.batch, 1), p.m, p.n, p.k, true) ==
              DotKernel::tensor;
      Tensor k_order;  // the variants that sum in k order agree with each other
      for (DotKernel k : {DotKernel::tiled, DotKernel::mid, DotKernel::big}) {
        const ForcedDotKernel forced(k);
        const Tensor got = dot_of(p, a, b, Precision::fast).to_host();
        if (!k_order.defined()) k_order = got;
        EXPECT_EQ(testing::compare_exact(k_order, got), "")
            << what << ": " << kernels::dot_kernel_name(k) << " differs from tiled";
      }
      if (!automatic_is_tensor)
        EXPECT_EQ(testing::compare_exact(k_order, automatic), "") << what << ": the size rule's variant differs";
      const ForcedDotKernel forced(DotKernel::tensor);
      const Tensor tensor = dot_of(p, a, b, Precision::fast).to_host();
      EXPECT_EQ(testing::compare_exact(tensor, dot_of(p, a, b, Precision::fast).to_host()), "")
          << what << ": tensor twice";
      if (automatic_is_tensor) EXPECT_EQ(testing::compare_exact(tensor, automatic), "") << what;
      expect_within_bound(p, t, o, tensor, "fast dot tensor " + what);
    }
  }
}

// Values in [-4, 4) with NaN, +inf, -inf, -0 and a denormal sprinkled in. No huge finite values: a product that
// overflows is inf in exact but not inside fast's fma (f32: fma(2^100, 2^100, -inf) is -inf, while the rounded
// product 2^200 = inf makes exact's sum NaN), as precision.hpp states; from inf and NaN inputs both modes agree.
Tensor sprinkled(DType t, const Shape& shape, std::uint64_t seed) {
  std::vector<double> v(static_cast<std::size_t>(num_elements(shape)));
  std::uint64_t state = seed;
  const double specials[] = {std::nan(""), HUGE_VAL, -HUGE_VAL, -0.0, t == DType::f32 ? 1e-40 : 1e-310};
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = i % 29 == 3 ? specials[(i / 29) % 5] : uniform_value(state);
  return as_type(tensor(v, shape, reference_backend()), t);
}

int value_class(double x) { return std::isnan(x) ? 0 : std::isinf(x) ? (x > 0 ? 1 : 2) : 3; }

TEST(VulkanDotFast, InfinitiesAndNaNsComeOutWhereTheExactModeHasThem) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::f32, DType::f64, DType::f16})
    for (const std::optional<DotKernel> variant :
         {std::optional<DotKernel>(), std::optional(DotKernel::mid), std::optional(DotKernel::tensor)}) {
      const ForcedDotKernel forced(variant);
      // A device that flushes f32 denormals computes inf * denormal as inf * 0 = NaN: compare on flushed inputs, as
      // the exact mode's parity harness does (support/kernels.hpp).
      const bool flush = testing::vulkan_flushes_f32_denormals();
      Tensor a = sprinkled(t, {67, 37}, 23), b = sprinkled(t, {37, 70}, 24);
      if (flush) {
        a = testing::flush_f32_denormals(a);
        b = testing::flush_f32_denormals(b);
      }
      const std::vector<double> exact =
          as_type(dot(a, b, Precision::exact), DType::f64).to_vector<double>();  // the reference backend
      const std::vector<double> fast =
          as_type(dot(a.to(vulkan::backend()), b.to(vulkan::backend()), Precision::fast).to_host(), DType::f64)
              .to_vector<double>();
      int special = 0, finite = 0;
      for (std::size_t i = 0; i < exact.size(); ++i) {
        (value_class(exact[i]) == 3 ? finite : special) += 1;
        EXPECT_EQ(value_class(fast[i]), value_class(exact[i]))
            << name(t) << " element " << i << ": " << fast[i] << " for " << exact[i];
      }
      EXPECT_GT(special, 0) << "the test data should give infinities and NaNs";
      EXPECT_GT(finite, 0) << "the test data should give finite results too";
    }
}

// A split contraction: a NaN, an inf, and an inf and a -inf in different chunks of one row (their sum is NaN as in
// the exact k-order sum), against rows of finite values.
TEST(VulkanDotFast, InfinitiesAndNaNsCrossTheChunksOfASplitContraction) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::f32, DType::f64}) {
    const std::int64_t m = 6, k = 3000, n = 7;
    ASSERT_GT(kernels::dot_k_splits(Precision::fast, t, 1, m, n, k), 1);
    std::vector<double> a(m * k), b(k * n);
    std::uint64_t state = 9;
    for (double& v : a) v = uniform_value(state);
    for (double& v : b) v = 1.0 + std::abs(uniform_value(state)) / 4;  // positive: the products keep a's signs
    a[0 * k + 100] = std::nan("");
    a[1 * k + 5] = HUGE_VAL;
    a[2 * k + 10] = HUGE_VAL;
    a[2 * k + 2900] = -HUGE_VAL;
    const Tensor ta = as_type(tensor(a, {m, k}, reference_backend()), t);
    const Tensor tb = as_type(tensor(b, {k, n}, reference_backend()), t);
    const std::vector<double> exact = as_type(dot(ta, tb, Precision::exact), DType::f64).to_vector<double>();
    const std::vector<double> fast =
        as_type(dot(ta.to(vulkan::backend()), tb.to(vulkan::backend()), Precision::fast).to_host(), DType::f64)
            .to_vector<double>();
    for (std::int64_t i = 0; i < m * n; ++i) {
      EXPECT_EQ(value_class(fast[i]), value_class(exact[i])) << name(t) << " element " << i << ": " << fast[i];
      EXPECT_EQ(value_class(exact[i]), i < n ? 0 : i < 2 * n ? 1 : i < 3 * n ? 0 : 3) << "element " << i;
    }
  }
}

TEST(VulkanDotFast, IntegerDotsAreExactInEitherMode) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::s32, DType::s64, DType::u8}) {
    const Tensor a = testing::test_uniform(t, {65, 33}, 3, 0, 50), b = testing::test_uniform(t, {33, 66}, 4, 0, 50);
    const Tensor got = dot(a.to(vulkan::backend()), b.to(vulkan::backend()), Precision::fast).to_host();
    EXPECT_EQ(testing::compare_exact(dot(a, b, Precision::exact), got), "") << name(t);
  }
}

TEST(VulkanDotFast, FusedEqualsEagerWithinTheMode) {
  NXV_REQUIRE_VULKAN();
  // A dot with an epilogue (bias, relu) that the fusion compiler writes into its copy of the tiled kernel at the
  // small size, and the 512^3 one that runs `mid` eagerly.
  for (const std::int64_t n : {std::int64_t{48}, std::int64_t{512}}) {
    const Tensor x = testing::test_uniform(DType::f32, {n, n}, 5, -2, 2).to(vulkan::backend());
    const Tensor w = testing::test_uniform(DType::f32, {n, n}, 6, -2, 2).to(vulkan::backend());
    const Tensor c = testing::test_uniform(DType::f32, {n}, 7, -2, 2).to(vulkan::backend());
    auto layer = [](const Tensor& x, const Tensor& w, const Tensor& c) { return max(dot(x, w) + c, 0.0); };
    for (Precision mode : {Precision::exact, Precision::fast}) {
      const PrecisionScope scope(mode);
      const Tensor eager = layer(x, w, c).to_host();
      const Tensor fused = jit(layer)(x, w, c).to_host();
      EXPECT_EQ(testing::compare_exact(eager, fused), "") << n << " " << to_string(mode);
    }
  }
}

TEST(DotPrecision, TheCallTheScopeAndJitDecideTheMode) {
  const Tensor a = testing::test_uniform(DType::f32, {4, 3}, 1, -1, 1),
               b = testing::test_uniform(DType::f32, {3, 2}, 2, -1, 1);
  auto f = [](const Tensor& a, const Tensor& b) { return dot(a, b); };
  const Precision before = current_precision();
  {
    const PrecisionScope fast(Precision::fast);
    EXPECT_EQ(current_precision(), Precision::fast);
    EXPECT_NE(to_string(trace(f, a, b)).find(", fast)"), std::string::npos) << to_string(trace(f, a, b));
    {
      const PrecisionScope exact(Precision::exact);
      EXPECT_EQ(current_precision(), Precision::exact);
      EXPECT_EQ(to_string(trace(f, a, b)).find("fast"), std::string::npos);
      // The call's argument wins over the scope.
      auto named = [](const Tensor& a, const Tensor& b) { return dot(a, b, Precision::fast); };
      EXPECT_NE(to_string(trace(named, a, b)).find(", fast)"), std::string::npos);
    }
    EXPECT_EQ(current_precision(), Precision::fast);
  }
  EXPECT_EQ(current_precision(), before);
  // Integer dots are exact whatever is asked.
  auto ints = [](const Tensor& a, const Tensor& b) { return dot(a, b, Precision::fast); };
  EXPECT_EQ(to_string(trace(ints, as_type(a, DType::s32), as_type(b, DType::s32))).find("fast"), std::string::npos);

  // jit: the current mode is part of the cache key; JitOptions::precision fixes it.
  auto jitted = jit(f);
  {
    const PrecisionScope exact(Precision::exact);
    jitted(a, b);
    jitted(a, b);
  }
  EXPECT_EQ(jitted.trace_count(), 1);
  {
    const PrecisionScope fast(Precision::fast);
    jitted(a, b);
  }
  EXPECT_EQ(jitted.trace_count(), 2);
  auto pinned = jit(f, JitOptions{.precision = Precision::exact});
  for (Precision mode : {Precision::exact, Precision::fast}) {
    const PrecisionScope scope(mode);
    pinned(a, b);
  }
  EXPECT_EQ(pinned.trace_count(), 1);

  EXPECT_EQ(parse_precision("fast"), Precision::fast);
  EXPECT_EQ(parse_precision("exact"), Precision::exact);
  EXPECT_EQ(parse_precision("Fast"), std::nullopt);
  EXPECT_EQ(parse_precision(to_string(Precision::exact)), Precision::exact);
}

TEST(DotPrecision, TheGradientsDotsKeepTheForwardDotsMode) {
  const Tensor a = testing::test_uniform(DType::f32, {4, 3}, 1, -1, 1),
               b = testing::test_uniform(DType::f32, {3, 2}, 2, -1, 1);
  auto loss = [](const Tensor& a, const Tensor& b) { return sum(dot(a, b, Precision::fast)); };
  const PrecisionScope exact(Precision::exact);  // the backward pass runs under another mode
  const std::string graph = to_string(trace(grad(loss), a, b));
  std::size_t dots = 0, fast = 0;
  for (std::size_t at = graph.find("dot("); at != std::string::npos; at = graph.find("dot(", at + 1)) {
    ++dots;
    const std::size_t close = graph.find(')', graph.find(')', at) + 1);
    if (graph.substr(at, close - at).find("fast") != std::string::npos) ++fast;
  }
  EXPECT_GE(dots, 2u) << graph;
  EXPECT_EQ(fast, dots) << graph;
}

TEST(DotPrecision, TheReferenceBackendComputesTheExactLoopInBothModes) {
  // The oracle stays one readable loop: fast is a licence to the device kernels, not another reference.
  const Tensor a = testing::test_uniform(DType::f32, {33, 65}, 3, -3, 3),
               b = testing::test_uniform(DType::f32, {65, 17}, 4, -3, 3);
  EXPECT_EQ(testing::compare_exact(dot(a, b, Precision::exact), dot(a, b, Precision::fast)), "");
}

TEST(VulkanDotFast, TheSizeRuleTakesTheBlockedKernelOnlyForLargeFloatProblems) {
  EXPECT_EQ(kernels::choose_dot_kernel(Precision::fast, DType::f32, 1, 512, 512, 512), DotKernel::mid);
  EXPECT_EQ(kernels::choose_dot_kernel(Precision::fast, DType::f64, 1, 4096, 4096, 4096), DotKernel::mid);
  EXPECT_EQ(kernels::choose_dot_kernel(Precision::fast, DType::f32, 4, 256, 256, 512), DotKernel::mid);
  EXPECT_EQ(kernels::choose_dot_kernel(Precision::fast, DType::f32, 1, 32, 784, 128), DotKernel::tiled);
  EXPECT_EQ(kernels::choose_dot_kernel(Precision::fast, DType::f32, 1, 8, 65536, 65536), DotKernel::tiled);
  EXPECT_EQ(kernels::choose_dot_kernel(Precision::fast, DType::s32, 1, 4096, 4096, 4096), DotKernel::tiled);
  EXPECT_EQ(kernels::choose_dot_kernel(Precision::fast, DType::bf16, 1, 4096, 4096, 4096), DotKernel::mid);
  EXPECT_EQ(kernels::choose_dot_kernel(Precision::fast, DType::f16, 1, 32, 784, 128), DotKernel::tiled);
  // exact: the same sizes (every variant is bit-identical to the reference there), never tensor cores.
  for (DType t : {DType::f32, DType::f64, DType::f16}) {
    EXPECT_EQ(kernels::choose_dot_kernel(Precision::exact, t, 1, 4096, 4096, 4096, true), DotKernel::mid);
    EXPECT_EQ(kernels::choose_dot_kernel(Precision::exact, t, 1, 32, 784, 128, true), DotKernel::tiled);
  }
  // With tensor cores: f16 only, in fast, at the sizes `mid` would take.
  EXPECT_EQ(kernels::choose_dot_kernel(Precision::fast, DType::f16, 1, 4096, 4096, 4096, true), DotKernel::tensor);
  EXPECT_EQ(kernels::choose_dot_kernel(Precision::fast, DType::f16, 1, 4096, 4096, 4096, false), DotKernel::mid);
  EXPECT_EQ(kernels::choose_dot_kernel(Precision::fast, DType::f16, 1, 32, 784, 128, true), DotKernel::tiled);
  EXPECT_EQ(kernels::choose_dot_kernel(Precision::fast, DType::bf16, 1, 4096, 4096, 4096, true), DotKernel::mid);
  EXPECT_EQ(kernels::choose_dot_kernel(Precision::fast, DType::f32, 1, 4096, 4096, 4096, true), DotKernel::mid);
  EXPECT_EQ(kernels::choose_dot_kernel(Precision::exact, DType::f16, 1, 4096, 4096, 4096, true), DotKernel::mid);
  // Exact never runs on tensor cores, wherever it runs.
  EXPECT_FALSE(kernels::tensor_dot_possible(Precision::exact, DType::f16));
  EXPECT_FALSE(kernels::tensor_dot_possible(Precision::fast, DType::bf16));
}

TEST(VulkanDotFast, TheSplitRuleSplitsLongContractionsOfFewTilesOnlyInFast) {
  // A likelihood's gradient for 1024 chains over 10^4 observations: 32 tiles, 8 chunks of 1250.
  EXPECT_EQ(kernels::dot_k_splits(Precision::fast, DType::f32, 1, 1024, 100, 10000), 8);
  EXPECT_EQ(kernels::dot_k_splits(Precision::fast, DType::f64, 1, 5, 7, 5000), 19);       // at least 256 steps a chunk
  EXPECT_EQ(kernels::dot_k_splits(Precision::fast, DType::f32, 1, 1, 1, 1 << 20), 32);    // at most 32 chunks
  EXPECT_EQ(kernels::dot_k_splits(Precision::fast, DType::f32, 1, 1024, 100, 1000), 1);   // K below 1024
  EXPECT_EQ(kernels::dot_k_splits(Precision::fast, DType::f32, 1, 1024, 1024, 8192), 1);  // 256 tiles
  EXPECT_EQ(kernels::dot_k_splits(Precision::fast, DType::f32, 2, 64, 64, 8192), 1);      // batched
  EXPECT_EQ(kernels::dot_k_splits(Precision::fast, DType::s32, 1, 64, 64, 8192), 1);
  EXPECT_EQ(kernels::dot_k_splits(Precision::fast, DType::f16, 1, 64, 64, 8192), 1);  // 16-bit partials would round
  EXPECT_EQ(kernels::dot_k_splits(Precision::exact, DType::f32, 1, 64, 64, 8192), 1);
}

}  // namespace
}  // namespace nxv::vulkan::test
