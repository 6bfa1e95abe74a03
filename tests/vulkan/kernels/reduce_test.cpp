// reduce.comp's schedule against the reference order (src/reference/reduce.cpp), bit for bit: full chunks (the
// VEC4 variant's batches of loads, all in range), partial last chunks (batches partly or wholly past the end),
// several chunks and the passes over the partials (VEC4 when the partials' row length is a multiple of 4, scalar
// otherwise), rows of them, empty rows -- for every reduction and dtype a variant serves. The float data are
// chosen so that another order of the additions changes the result (checked below), and special values (NaN,
// +-inf, +-0) sit in every chunk, not only at the front. Rows of at most 32 elements take the SHORT path (one
// invocation per output, the tree in registers): every length up to and past it, contiguous and strided.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "support/kernels.hpp"

namespace nxv::vulkan::test {
namespace {

using nxv::testing::test_data;

constexpr std::int64_t kChunk = 16384;  // reduce.comp's CHUNK
constexpr std::int64_t kShortRow = 32;  // reduce.comp's SHORT_ROW

// Floats of magnitudes 2^-4 .. 2^4 and both signs, with each value's negation elsewhere in the same row (in
// random places): the exact sum of a row is 0, so what a float sum returns is its own rounding errors, and any
// other order of the additions changes it in all but a few bits.
template <class T>
Tensor cancelling_floats(const Shape& shape, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mantissa(-1, 1);
  std::uniform_int_distribution<int> exponent(-4, 4);
  const std::int64_t row = shape.back(), n = num_elements(shape);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (std::int64_t start = 0; start < n; start += row) {
    const auto first = v.begin() + start, last = first + row;
    for (auto it = first; it + 1 < last; it += 2) {
      it[0] = static_cast<T>(std::ldexp(mantissa(rng), exponent(rng)));
      it[1] = -it[0];
    }
    if (row % 2) last[-1] = T(1);
    std::shuffle(first, last, rng);
  }
  return from_data<T>(std::span<const T>(v), shape, reference_backend());
}

// Floats in [0.99, 1.01): long products stay finite, and every product rounds.
template <class T>
Tensor near_one(const Shape& shape, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.99, 1.01);
  std::vector<T> v(static_cast<std::size_t>(num_elements(shape)));
  for (T& x : v) x = static_cast<T>(u(rng));
  return from_data<T>(std::span<const T>(v), shape, reference_backend());
}

Tensor data_for(ReduceFn fn, DType t, const Shape& shape, std::uint64_t seed) {
  if (t == DType::f32 && fn == ReduceFn::sum) return cancelling_floats<float>(shape, seed);
  if (t == DType::f64 && fn == ReduceFn::sum) return cancelling_floats<double>(shape, seed);
  if (t == DType::f32 && fn == ReduceFn::product) return near_one<float>(shape, seed);
  if (t == DType::f64 && fn == ReduceFn::product) return near_one<double>(shape, seed);
  return test_data(t, shape, seed);  // NaN, +-inf, +-0, extremes at the front; integers wrap in sum/product
}

struct Case {
  Shape shape;
  Axes axes;
};

// VEC4 (contiguous run, length and kept strides multiples of 4) around the chunk and vector boundaries.
const Case kVec4Cases[] = {
    {{kChunk}, {0}},             // one full chunk, one pass
    {{kChunk - 4}, {0}},         // one partial chunk
    {{kChunk + 4}, {0}},         // a full chunk and one vector; a scalar pass over 2 partials
    {{4 * kChunk}, {0}},         // 4 full chunks; a VEC4 pass over 4 partials
    {{4 * kChunk + 1020}, {0}},  // 5 chunks, the last partial
    {{8 * kChunk - 4}, {0}},     // 7 full chunks and a partial one; a VEC4 pass over 8 partials
    {{4, kChunk}, {1}},          // rows of one full chunk each (per-row base offsets)
    {{3, 2 * kChunk + 8}, {1}},  // rows of 2 full chunks and a partial one
    {{5, 4 * kChunk}, {1}},      // rows of 4 full chunks; a VEC4 pass over [5, 4] partials
    {{2, 3, 2 * kChunk}, {2}},   // two kept axes, merged into one group
    {{3, 0}, {1}},               // empty rows: the identity, nothing loaded
};
// Neighbours that take the scalar path (not a multiple of 4, or the reduced run is strided).
const Case kScalarCases[] = {
    {{kChunk + 1}, {0}},    {{2 * kChunk + 3}, {0}},      {{3, kChunk - 1}, {1}},
    {{kChunk + 4, 3}, {0}}, {{2, kChunk + 2, 2}, {0, 1}},
};

void expect_reduce(ReduceFn fn, DType t, const Case& c, std::uint64_t seed) {
  const bool logical = fn == ReduceFn::all || fn == ReduceFn::any;
  const Tensor x = data_for(fn, t, c.shape, seed);
  expect_kernel_parity(make_call(OpCode::reduce, reduce_attrs(fn, c.axes)), {x},
                       {reduced_shape(c.shape, c.axes), logical ? DType::pred : t},
                       std::string(fn_name(fn)) + " of " + to_string(x.type()) + " over " + to_string(c.axes));
}

TEST(VulkanKernelsReduce, FullAndPartialChunksEveryNumericDtype) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::u8, DType::s32, DType::s64, DType::f32, DType::f64})
    for (ReduceFn fn : {ReduceFn::sum, ReduceFn::product, ReduceFn::max, ReduceFn::min}) {
      std::uint64_t seed = 100;
      for (const Case& c : kVec4Cases) expect_reduce(fn, t, c, ++seed);
      for (const Case& c : kScalarCases) expect_reduce(fn, t, c, ++seed);
    }
}

// all/any (the BOOL variants: scalar loads, the same tree) over several chunks, in every input dtype.
TEST(VulkanKernelsReduce, LogicalReductionsAcrossChunks) {
  NXV_REQUIRE_VULKAN();
  const Case cases[] = {{{4 * kChunk}, {0}}, {{3, kChunk + 5}, {1}}, {{kChunk + 4, 2}, {0}}};
  for (DType t : real_dtypes)
    for (ReduceFn fn : {ReduceFn::all, ReduceFn::any}) {
      std::uint64_t seed = 200;
      for (const Case& c : cases) expect_reduce(fn, t, c, ++seed);
    }
  // One zero (all) or one nonzero (any) in the middle of the third chunk decides the result.
  for (ReduceFn fn : {ReduceFn::all, ReduceFn::any}) {
    std::vector<float> v(4 * kChunk, fn == ReduceFn::all ? 1.0f : 0.0f);
    v[2 * kChunk + 777] = fn == ReduceFn::all ? 0.0f : 1.0f;
    const Tensor x = from_data<float>(std::span<const float>(v), {4 * kChunk}, reference_backend());
    expect_kernel_parity(make_call(OpCode::reduce, reduce_attrs(fn, {0})), {x}, {{}, DType::pred},
                         std::string(fn_name(fn)) + " decided by one element of the third chunk");
  }
}

// The data really are order-sensitive: summing the same f32 rows left to right, or in the reference order with
// every lane's last two additions exchanged, or with two lanes trading all their elements, changes most rows'
// sums; so the parity tests above catch a schedule that changes the order.
TEST(VulkanKernelsReduce, SumDataDistinguishOrders) {
  const std::int64_t rows = 32, n = 2 * kChunk;
  const Tensor x = cancelling_floats<float>({rows, n}, 7);
  const std::vector<float> v = x.to_vector<float>();
  const auto row_sums = [&](const std::vector<float>& values) {
    return sum(from_data<float>(std::span<const float>(values), {rows, n}, reference_backend()), Axes{1})
        .to_vector<float>();
  };
  const std::vector<float> reference = row_sums(v);
  std::vector<float> sequential(rows, 0.0f), within_lane = v, across_lanes = v;
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* row = v.data() + r * n;
    for (std::int64_t i = 0; i < n; ++i) sequential[r] += row[i];
    for (std::int64_t c = r * n; c < (r + 1) * n; c += kChunk)  // every lane: its last two elements swapped
      for (std::int64_t l = 0; l < 256; ++l) std::swap(within_lane[c + l + 62 * 256], within_lane[c + l + 63 * 256]);
    for (std::int64_t j = 0; j < n; j += 256) std::swap(across_lanes[r * n + j + 1], across_lanes[r * n + j + 2]);
  }
  const auto rows_changed = [&](const std::vector<float>& sums) {
    std::int64_t changed = 0;
    for (std::int64_t r = 0; r < rows; ++r) changed += sums[r] != reference[r];
    return changed;
  };
  EXPECT_GT(rows_changed(sequential), rows / 2);
  EXPECT_GT(rows_changed(row_sums(within_lane)), rows / 2);
  EXPECT_GT(rows_changed(row_sums(across_lanes)), rows / 2);
}

// Every row length around the SHORT path's limit, contiguous ([rows, n] over axis 1), strided ([n, 3] over axis 0)
// and with two reduced axis groups ([2, n, 3] over 0 and 2 -- n * 6 elements per row), for every function and a
// dtype of each kind; test_data puts NaN, +-inf, +-0 and the extremes at the front, so the short rows hold them.
TEST(VulkanKernelsReduce, ShortRowsEveryLengthFunctionAndDtype) {
  NXV_REQUIRE_VULKAN();
  std::uint64_t seed = 300;
  for (std::int64_t n = 0; n <= kShortRow + 1; ++n) {
    const Case cases[] = {{{5, n}, {1}}, {{n, 3}, {0}}, {{2, n, 3}, {0, 2}}};
    for (const Case& c : cases) {
      for (DType t : {DType::u8, DType::s32, DType::s64, DType::f32, DType::f64})
        for (ReduceFn fn : {ReduceFn::sum, ReduceFn::product, ReduceFn::max, ReduceFn::min})
          expect_reduce(fn, t, c, ++seed);
      for (DType t : {DType::pred, DType::f32})
        for (ReduceFn fn : {ReduceFn::all, ReduceFn::any}) expect_reduce(fn, t, c, ++seed);
    }
  }
  // -0 alone: the lanes start from the identity +0, so every sum of them is +0 and every product -0.
  const std::vector<float> negative_zeros(7, -0.0f);
  const Tensor z = from_data<float>(std::span<const float>(negative_zeros), {7}, reference_backend());
  for (ReduceFn fn : {ReduceFn::sum, ReduceFn::product, ReduceFn::max, ReduceFn::min})
    expect_kernel_parity(make_call(OpCode::reduce, reduce_attrs(fn, {0})), {z}, {{}, DType::f32},
                         std::string(fn_name(fn)) + " of seven -0");
}

// The tree's order matters for short rows too: left-to-right sums of the same rows differ from the reference's.
TEST(VulkanKernelsReduce, ShortRowDataDistinguishOrders) {
  const std::int64_t rows = 64;
  for (std::int64_t n : {9, 17, 31, 32}) {
    const Tensor x = cancelling_floats<float>({rows, n}, 11);
    const std::vector<float> v = x.to_vector<float>(), reference = sum(x, Axes{1}).to_vector<float>();
    std::int64_t changed = 0;
    for (std::int64_t r = 0; r < rows; ++r) {
      float s = 0.0f;
      for (std::int64_t i = 0; i < n; ++i) s += v[r * n + i];
      changed += s != reference[r];
    }
    EXPECT_GT(changed, rows / 4) << "rows of " << n;
  }
}

// Special values in every chunk and in lanes held by different invocations: the sign of zero results (+0 + -0,
// max/min of +-0 depend on the operand order), NaN anywhere, infinities of both signs in different chunks.
template <class T>
void expect_special_values(DType t, std::int64_t n) {
  constexpr T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  std::mt19937_64 rng(static_cast<std::uint64_t>(n));
  std::vector<T> zeros(static_cast<std::size_t>(n));
  for (T& z : zeros) z = rng() % 2 ? T(0) : -T(0);
  std::vector<T> nan_late(zeros), infinities(zeros), one_inf(zeros), negative_zeros(static_cast<std::size_t>(n), -T(0));
  nan_late[static_cast<std::size_t>(n - 37)] = nan;
  infinities[static_cast<std::size_t>(kChunk + 5)] = inf;
  infinities[static_cast<std::size_t>(n - 2)] = -inf;
  one_inf[static_cast<std::size_t>(n / 2 + 1)] = -inf;
  const std::pair<const char*, const std::vector<T>*> data[] = {{"+-0", &zeros},
                                                                {"-0 only", &negative_zeros},
                                                                {"a late NaN", &nan_late},
                                                                {"+inf and -inf", &infinities},
                                                                {"one -inf", &one_inf}};
  for (const auto& [what, values] : data) {
    const Tensor x = from_data<T>(std::span<const T>(*values), {n}, reference_backend());
    for (ReduceFn fn : {ReduceFn::sum, ReduceFn::product, ReduceFn::max, ReduceFn::min})
      expect_kernel_parity(make_call(OpCode::reduce, reduce_attrs(fn, {0})), {x}, {{}, t},
                           std::string(fn_name(fn)) + " of " + to_string(x.type()) + " holding " + what);
  }
}

TEST(VulkanKernelsReduce, SpecialValuesInEveryChunk) {
  NXV_REQUIRE_VULKAN();
  for (std::int64_t n : {3 * kChunk, 3 * kChunk + 8, 3 * kChunk + 1}) {
    expect_special_values<float>(DType::f32, n);
    expect_special_values<double>(DType::f64, n);
  }
}

}  // namespace
}  // namespace nxv::vulkan::test
