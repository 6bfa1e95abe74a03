// Complex dtypes (src/ops/complex.cpp, src/ops/complex_lowering.cpp) on the reference backend: dtype rules, host
// I/O and printing, every elementwise op against std::complex<long double> within a stated bound, the edge values
// of C99's Annex G that the careful formulas exist for, the movement/reduction/dot lowerings against host loops,
// gradients (PyTorch's convention), jit and vectorize, and the errors of ops without a complex form.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <random>

#include "nxv/defn.hpp"
#include "nxv/grad.hpp"
#include "nxv/ops.hpp"
#include "nxv/vectorize.hpp"
#include "support/expect_error.hpp"

namespace nxv {
namespace {

using testing::expect_error;
using C = std::complex<double>;
using CL = std::complex<long double>;
constexpr double kInf = std::numeric_limits<double>::infinity();

Backend& ref() { return reference_backend(); }

std::vector<C> random_complex(std::size_t n, std::uint64_t seed, double scale = 4.0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-scale, scale);
  std::vector<C> v(n);
  for (C& z : v) z = {u(rng), u(rng)};
  return v;
}

Tensor c128(const std::vector<C>& v) { return from_data<C>(std::span<const C>(v), {std::int64_t(v.size())}, ref()); }
Tensor c64(const std::vector<C>& v) { return as_type(c128(v), DType::c64); }

// Every element of `got` within `ulps` units of its dtype's epsilon of `want`, relative to |want| (a componentwise
// bound would fail where a part cancels; Annex G's formulas promise the normwise one).
void expect_close(const Tensor& got, const std::vector<CL>& want, double ulps, const std::string& what) {
  const std::vector<C> g = as_type(got, DType::c128).to_vector<C>();
  const double eps = got.dtype() == DType::c64 ? 0x1p-23 : 0x1p-52;
  ASSERT_EQ(g.size(), want.size()) << what;
  for (std::size_t i = 0; i < g.size(); ++i) {
    const long double err = std::abs(CL(g[i]) - want[i]), mag = std::abs(want[i]);
    EXPECT_LE(static_cast<double>(err), ulps * eps * static_cast<double>(mag) + 1e-300)
        << what << " at " << i << ": got " << g[i] << ", want " << C(want[i]);
  }
}

TEST(Complex, DtypeRules) {
  EXPECT_EQ(size_of(DType::c64), 8u);
  EXPECT_EQ(size_of(DType::c128), 16u);
  EXPECT_EQ(dtype_from_name("c128"), DType::c128);
  EXPECT_TRUE(is_complex(DType::c64));
  EXPECT_FALSE(is_float(DType::c64));
  EXPECT_EQ(promote(DType::c64, DType::f64), DType::c128);
  EXPECT_EQ(promote(DType::f32, DType::c64), DType::c64);
  EXPECT_EQ(promote(DType::s64, DType::c64), DType::c64);
  EXPECT_EQ(promote(DType::pred, DType::c128), DType::c128);
  EXPECT_EQ(promote(DType::c128, DType::c64), DType::c128);
  EXPECT_EQ(promote(DType::bf16, DType::c64), DType::c64);
  for (DType a : all_dtypes)
    for (DType b : complex_dtypes) EXPECT_EQ(promote(a, b), promote(b, a)) << name(a) << " " << name(b);
  EXPECT_EQ(real_part_type(DType::c64), DType::f32);
  EXPECT_EQ(complex_type(DType::f64), DType::c128);
  EXPECT_EQ(complex_type(DType::s32), DType::c64);
  // A weak literal keeps the complex dtype; a real tensor promotes.
  const Tensor z = c64({{1, 2}});
  EXPECT_EQ((z * 2.5).dtype(), DType::c64);
  EXPECT_EQ((z + ones({1}, DType::f64, ref())).dtype(), DType::c128);
  EXPECT_EQ(abs(z).dtype(), DType::f32);
  EXPECT_EQ(sum(z).dtype(), DType::c64);
}

TEST(Complex, HostDataViewsAndPrinting) {
  const std::vector<std::complex<float>> v{{1.5f, -2.0f}, {0.0f, 3.0f}, {-0.5f, 0.25f}};
  const Tensor z = tensor<std::complex<float>>({v[0], v[1], v[2]}, {3}, ref());
  EXPECT_EQ(z.type(), (TensorType{{3}, DType::c64}));
  EXPECT_EQ(z.to_vector<std::complex<float>>(), v);
  EXPECT_EQ(real(z).to_vector<float>(), (std::vector<float>{1.5f, 0.0f, -0.5f}));
  EXPECT_EQ(imag(z).to_vector<float>(), (std::vector<float>{-2.0f, 3.0f, 0.25f}));
  const Tensor pairs = real_view(z);
  EXPECT_EQ(pairs.type(), (TensorType{{3, 2}, DType::f32}));
  EXPECT_EQ(pairs.storage(), z.storage());  // a view
  EXPECT_EQ(complex_view(pairs).to_vector<std::complex<float>>(), v);
  EXPECT_NE(z.to_string().find("[1.5-2i, 0+3i, -0.5+0.25i]"), std::string::npos) << z.to_string();
}

// The elementwise ops against std::complex<long double>, in c128 and c64, within `ulps` of the result's magnitude.
struct UnaryCase {
  const char* name;
  std::function<Tensor(const Tensor&)> op;
  std::function<CL(CL)> want;
  double ulps;
};

TEST(Complex, UnaryOpsMatchLongDouble) {
  const std::vector<UnaryCase> cases = {
      {"negate", [](auto& z) { return negate(z); }, [](CL z) { return -z; }, 0},
      {"conjugate", [](auto& z) { return conjugate(z); }, [](CL z) { return std::conj(z); }, 0},
      {"square", [](auto& z) { return square(z); }, [](CL z) { return z * z; }, 3},
      {"exp", [](auto& z) { return exp(z); }, [](CL z) { return std::exp(z); }, 4},
      {"log", [](auto& z) { return log(z); }, [](CL z) { return std::log(z); }, 4},
      {"sqrt", [](auto& z) { return sqrt(z); }, [](CL z) { return std::sqrt(z); }, 4},
      {"rsqrt", [](auto& z) { return rsqrt(z); }, [](CL z) { return CL(1) / std::sqrt(z); }, 8},
      {"reciprocal", [](auto& z) { return reciprocal(z); }, [](CL z) { return CL(1) / z; }, 4},
      {"sign", [](auto& z) { return sign(z); }, [](CL z) { return z / std::abs(z); }, 4},
      {"sin", [](auto& z) { return sin(z); }, [](CL z) { return std::sin(z); }, 8},
      {"cos", [](auto& z) { return cos(z); }, [](CL z) { return std::cos(z); }, 8},
  };
  const std::vector<C> data = random_complex(200, 1);
  for (const UnaryCase& c : cases) {
    std::vector<CL> want;
    for (const C& z : data) want.push_back(c.want(CL(z)));
    expect_close(c.op(c128(data)), want, c.ulps, std::string(c.name) + " c128");
    std::vector<CL> want32;  // c64: the exact result of the input as rounded to c64
    for (const C& z : data) want32.push_back(c.want(CL(std::complex<float>(z))));
    expect_close(c.op(c64(data)), want32, c.ulps, std::string(c.name) + " c64");
  }
  // abs and phase: real results.
  const std::vector<double> mags = abs(c128(data)).to_vector<double>();
  const std::vector<double> angles = phase(c128(data)).to_vector<double>();
  for (std::size_t i = 0; i < data.size(); ++i) {
    EXPECT_NEAR(mags[i], static_cast<double>(std::abs(CL(data[i]))), 2 * 0x1p-52 * mags[i]) << i;
    EXPECT_NEAR(angles[i], std::arg(data[i]), 4e-16 * std::abs(angles[i])) << i;
  }
}

TEST(Complex, BinaryOpsMatchLongDouble) {
  const std::vector<C> a = random_complex(200, 2), b = random_complex(200, 3);
  const struct {
    const char* name;
    std::function<Tensor(const Tensor&, const Tensor&)> op;
    std::function<CL(CL, CL)> want;
    double ulps;
  } cases[] = {
      {"add", [](auto& x, auto& y) { return x + y; }, [](CL x, CL y) { return x + y; }, 1},
      {"subtract", [](auto& x, auto& y) { return x - y; }, [](CL x, CL y) { return x - y; }, 1},
      {"multiply", [](auto& x, auto& y) { return x * y; }, [](CL x, CL y) { return x * y; }, 3},
      {"divide", [](auto& x, auto& y) { return x / y; }, [](CL x, CL y) { return x / y; }, 4},
      {"pow", [](auto& x, auto& y) { return pow(x, y); }, [](CL x, CL y) { return std::pow(x, y); }, 64},
  };
  for (const auto& c : cases) {
    std::vector<CL> want;
    for (std::size_t i = 0; i < a.size(); ++i) want.push_back(c.want(CL(a[i]), CL(b[i])));
    expect_close(c.op(c128(a), c128(b)), want, c.ulps, std::string(c.name) + " c128");
  }
  // Broadcasting and a real operand: z[2, 1] * x[3] promotes x and gives [2, 3].
  const Tensor z = reshape(c128({{1, 2}, {-3, 0.5}}), {2, 1});
  const Tensor x = tensor<double>({2, -1, 0.5}, {3}, ref());
  const std::vector<C> got = (z * x).to_vector<C>();
  const std::vector<C> want{{2, 4}, {-1, -2}, {0.5, 1}, {-6, 1}, {3, -0.5}, {-1.5, 0.25}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(equal(c128({{1, 2}, {1, 2}}), c128({{1, 2}, {1, -2}})).to_vector<bool>(), (std::vector<bool>{true, false}));
}

TEST(Complex, EdgeValues) {
  const double big = 1e300, tiny = 1e-300, nan = std::nan("");
  // |z| neither overflows nor underflows in the squares; an infinite part wins over a NaN one.
  const std::vector<double> m =
      abs(c128({{big, big}, {tiny, tiny}, {kInf, nan}, {nan, 1}, {0, -0.0}})).to_vector<double>();
  EXPECT_DOUBLE_EQ(m[0], big * std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(m[1], tiny * std::sqrt(2.0));
  EXPECT_EQ(m[2], kInf);
  EXPECT_TRUE(std::isnan(m[3]));
  EXPECT_EQ(m[4], 0.0);
  EXPECT_FLOAT_EQ(abs(c64({{3e38, 3e38}})).to_vector<float>()[0], 3e38f * std::sqrt(2.0f));
  // Smith's division: no overflow for huge divisors; division by zero gives infinities.
  const std::vector<C> q = (c128({{big, big}, {1, 1}}) / c128({{big, big}, {0, 0}})).to_vector<C>();
  EXPECT_DOUBLE_EQ(q[0].real(), 1.0);
  EXPECT_DOUBLE_EQ(q[0].imag(), 0.0);
  EXPECT_EQ(q[1], C(kInf, kInf));
  // sqrt: the branch cut, zero, and a huge argument.
  const std::vector<C> r = sqrt(c128({{-4, 0}, {0, 0}, {big, big}, {-4, -1e-30}})).to_vector<C>();
  EXPECT_EQ(r[0], C(0, 2));
  EXPECT_EQ(r[1], C(0, 0));
  EXPECT_TRUE(std::isfinite(r[2].real()) && std::isfinite(r[2].imag()));
  EXPECT_NEAR(r[3].imag(), -2.0, 1e-15);
  // exp keeps a zero imaginary part exactly (even where exp(x) overflows); log(0) is -inf.
  const std::vector<C> e = exp(c128({{0, 0}, {1000, 0}})).to_vector<C>();
  EXPECT_EQ(e[0], C(1, 0));
  EXPECT_EQ(e[1], C(kInf, 0));
  EXPECT_EQ(log(c128({{0, 0}})).to_vector<C>()[0].real(), -kInf);
  // 0^0 = 1 and 0^b = 0 for Re b > 0.
  EXPECT_EQ(pow(c128({{0, 0}, {0, 0}}), c128({{0, 0}, {2, 1}})).to_vector<C>(), (std::vector<C>{{1, 0}, {0, 0}}));
  EXPECT_EQ(is_nan(c128({{nan, 0}, {0, nan}, {1, 1}})).to_vector<bool>(), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(is_infinity(c128({{0, -kInf}, {1, 1}})).to_vector<bool>(), (std::vector<bool>{true, false}));
}

TEST(Complex, CastsFollowNx) {
  const Tensor z = c128({{1.75, -2}, {0, 0}, {0, 3}, {-2.5, 0}});
  EXPECT_EQ(as_type(z, DType::f32).to_vector<float>(), (std::vector<float>{1.75f, 0, 0, -2.5f}));  // real part
  EXPECT_EQ(as_type(z, DType::s32).to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 0, 0, -2}));
  EXPECT_EQ(as_type(z, DType::pred).to_vector<bool>(), (std::vector<bool>{true, false, true, true}));
  EXPECT_EQ(as_type(tensor<std::int32_t>({3, -1}, {2}, ref()), DType::c64).to_vector<std::complex<float>>(),
            (std::vector<std::complex<float>>{{3, 0}, {-1, 0}}));
  const Tensor narrowed = as_type(c128({{1.0 / 3, 1e-50}}), DType::c64);
  EXPECT_EQ(narrowed.to_vector<std::complex<float>>()[0], std::complex<float>(1.0f / 3, 0.0f));
  EXPECT_EQ(full({2}, 1.5, DType::c64, ref()).to_vector<std::complex<float>>(),
            (std::vector<std::complex<float>>{{1.5f, 0}, {1.5f, 0}}));
  EXPECT_EQ(iota({3}, 0, DType::c128, ref()).to_vector<C>(), (std::vector<C>{{0, 0}, {1, 0}, {2, 0}}));
  EXPECT_EQ(complex(tensor<float>({1, 2}, {2}, ref()), scalar(-1, DType::f64, ref())).dtype(), DType::c128);
}

TEST(Complex, MovementReductionsAndDotMatchHostLoops) {
  const std::vector<C> v = random_complex(24, 4);
  const Tensor z = reshape(c128(v), {2, 3, 4});
  auto at = [&](int i, int j, int k) { return v[(i * 3 + j) * 4 + k]; };
  // transpose, slice, reverse, pad (the padding value is real), concatenate, take, select
  const std::vector<C> t = transpose(z, Axes{2, 0, 1}).to_vector<C>();
  EXPECT_EQ(t[1 * 6 + 1 * 3 + 2], at(1, 2, 1));
  EXPECT_EQ(slice(z, {1, 0, 1}, {1, 2, 2}).to_vector<C>(),
            (std::vector<C>{at(1, 0, 1), at(1, 0, 2), at(1, 1, 1), at(1, 1, 2)}));
  EXPECT_EQ(reverse(z, Axes{2}).to_vector<C>()[0], at(0, 0, 3));
  const std::vector<C> padded = pad(c128({{1, 1}}), 7.0, {{1, 1, 0}}).to_vector<C>();
  EXPECT_EQ(padded, (std::vector<C>{{7, 0}, {1, 1}, {7, 0}}));
  EXPECT_EQ(concatenate({c128({{1, 2}}), c128({{3, 4}})}, 0).to_vector<C>(), (std::vector<C>{{1, 2}, {3, 4}}));
  EXPECT_EQ(take(c128(v), tensor<std::int64_t>({5, 0}, {2}, ref())).to_vector<C>(), (std::vector<C>{v[5], v[0]}));
  EXPECT_EQ(select(tensor<bool>({true, false}, {2}, ref()), c128({{1, 2}, {3, 4}}), c128({{5, 6}})).to_vector<C>(),
            (std::vector<C>{{1, 2}, {5, 6}}));
  // sum, product, mean, cumulative_sum over an axis
  const std::vector<C> s = sum(z, Axes{1}).to_vector<C>(), p = product(z, Axes{0, 2}).to_vector<C>();
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k) {
      const C want = at(i, 0, k) + at(i, 1, k) + at(i, 2, k);
      EXPECT_NEAR(std::abs(s[i * 4 + k] - want), 0, 1e-14);
    }
  for (int j = 0; j < 3; ++j) {
    CL want = 1;
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 4; ++k) want *= CL(at(i, j, k));
    EXPECT_LE(std::abs(CL(p[j]) - want), 1e-14 * std::abs(want)) << j;
  }
  EXPECT_EQ(product(c128({}), std::nullopt).to_vector<C>(), (std::vector<C>{{1, 0}}));
  EXPECT_EQ(product(c128({{0, 1}, {0, 1}, {0, 1}})).to_vector<C>(), (std::vector<C>{{0, -1}}));
  EXPECT_EQ(mean(c128({{1, 2}, {3, -4}})).to_vector<C>(), (std::vector<C>{{2, -1}}));
  EXPECT_EQ(cumulative_sum(c128({{1, 2}, {3, -4}})).to_vector<C>(), (std::vector<C>{{1, 2}, {4, -2}}));
  // matmul: [2, 3] x [3, 2] against a host loop
  const std::vector<C> av = random_complex(6, 5), bv = random_complex(6, 6);
  const std::vector<C> mm = matmul(reshape(c128(av), {2, 3}), reshape(c128(bv), {3, 2})).to_vector<C>();
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      C want = 0;
      for (int k = 0; k < 3; ++k) want += av[i * 3 + k] * bv[k * 2 + j];
      EXPECT_LE(std::abs(mm[i * 2 + j] - want), 1e-14 * (1 + std::abs(want)));
    }
}

TEST(Complex, GradientsAreThoseOfTheParts) {
  // L(z) = sum |z|^2: dL/dRe = 2 Re z, dL/dIm = 2 Im z, so dL/dz = 2z.
  const Tensor z = c128({{1, 2}, {-3, 0.5}});
  const Tensor g = grad([](const Tensor& w) { return sum(square(abs(w))); })(z);
  EXPECT_EQ(g.dtype(), DType::c128);
  const std::vector<C> gv = g.to_vector<C>();
  EXPECT_NEAR(std::abs(gv[0] - C(2, 4)), 0, 1e-14);
  EXPECT_NEAR(std::abs(gv[1] - C(-6, 1)), 0, 1e-14);
  // Through complex arithmetic from real parameters: L(a, b) = Re(sum((a + ib)^2)) = sum(a^2 - b^2).
  const Tensor a = tensor<double>({0.5, -1}, {2}, ref()), b = tensor<double>({2, 3}, {2}, ref());
  const std::vector<Tensor> grads =
      grad([](const std::vector<Tensor>& p) { return real(sum(square(complex(p[0], p[1])))); })(std::vector{a, b});
  EXPECT_EQ(grads[0].to_vector<double>(), (std::vector<double>{1, -2}));
  EXPECT_EQ(grads[1].to_vector<double>(), (std::vector<double>{-4, -6}));
}

TEST(Complex, JitAndVectorizeSeeOnlyRealOps) {
  const Tensor z = c128(random_complex(6, 7));
  auto f = [](const Tensor& w) { return exp(w) * conjugate(w) + 1.0; };
  const std::vector<C> eager = f(z).to_vector<C>();
  EXPECT_EQ(jit(f)(z).to_vector<C>(), eager);
  const Tensor rows = reshape(z, {3, 2});
  const std::vector<C> batched = vectorize([&](const Tensor& r) { return f(r); })(rows).to_vector<C>();
  EXPECT_EQ(batched, eager);
}

TEST(Complex, OpsWithoutAComplexFormAreRefused) {
  const Tensor z = c64({{1, 2}, {3, 4}});
  expect_error([&] { reduce_max(z); }, {"reduce", "c64[2]", "no complex form"});
  expect_error([&] { floor(z); }, {"floor", "c64[2]", "no complex form"});
  expect_error([&] { less(z, z); }, {"less", "no complex form"});
  expect_error([&] { sort(z); }, {"sort", "no complex form"});
  expect_error([&] { argmax(z); }, {"arg_reduce", "no complex form"});
  expect_error([&] { uniform(key(1), {2}, DType::c64, 0.0, 1.0, ref()); }, {"uniform", "c64"});
  expect_error([&] { complex_view(zeros({3}, DType::f32, ref())); }, {"complex_view", "f32[3]", "last axis is 2"});
  expect_error([&] { complex_view(zeros({2}, DType::s32, ref())); }, {"complex_view", "f32 or f64"});
  expect_error([&] { real_view(zeros({2}, DType::f32, ref())); }, {"real_view", "c64 or c128"});
  expect_error([&] { complex(z, z); }, {"complex", "real tensors"});
  expect_error([&] { sum(z).item(); }, {"item", "complex"});
  expect_error([&] { (void)z.to_vector<float>(); }, {"to_vector", "c64"});
}

}  // namespace
}  // namespace nxv
