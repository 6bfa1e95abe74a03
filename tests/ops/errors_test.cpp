// Bad input gives an nxv::Error whose message names the op, what it got and what it expected: never a crash.
#include <gtest/gtest.h>

#include <limits>

#include "nxv/conv.hpp"
#include "nxv/indexing.hpp"
#include "nxv/ops.hpp"
#include "support/expect_error.hpp"

namespace nxv {
namespace {

using testing::expect_error;

Tensor f32(const Shape& s) { return zeros(s, DType::f32, reference_backend()); }

TEST(OpErrors, MismatchedShapes) {
  expect_error([] { add(f32({2, 3}), f32({4})); }, {"add", "[2, 3]", "[4]", "broadcast"});
  expect_error([] { dot(f32({2, 3}), f32({4, 5})); }, {"dot", "size 3", "size 4"});
  expect_error([] { concatenate({f32({2, 3}), f32({2, 4})}, 0); }, {"concatenate", "f32[2, 3]", "f32[2, 4]"});
  expect_error([] { reshape(f32({2, 3}), {4, 2}); }, {"reshape", "f32[2, 3]", "[4, 2]"});
  expect_error([] { select(f32({2}), f32({3}), f32({3})); }, {"select", "[2]", "[3]"});
}

TEST(OpErrors, BadAxes) {
  expect_error([] { sum(f32({2, 3}), Axes{2}); }, {"sum", "axis 2", "rank 2"});
  expect_error([] { sum(f32({2, 3}), Axes{0, 0}); }, {"sum", "repeated"});
  expect_error([] { transpose(f32({2, 3}), Axes{0}); }, {"transpose", "expected 2"});
  expect_error([] { argmax(f32({2, 3}), -3); }, {"argmax", "axis -3"});
  expect_error([] { squeeze(f32({2, 3}), Axes{0}); }, {"squeeze", "size 2", "expected 1"});
  expect_error([] { broadcast(f32({3}), {4, 2}); }, {"broadcast", "f32[3]", "[4, 2]"});
}

TEST(OpErrors, WrongDtypes) {
  expect_error([] { bitwise_and(f32({2}), f32({2})); }, {"bitwise_and", "expected integer", "f32[2]"});
  expect_error([] { uniform(key(1), {2}, DType::s32, 0, 1, reference_backend()); }, {"uniform", "f32 or f64", "s32"});
  expect_error([] { normal(key(1), {2}, DType::bf16, 0, 1, reference_backend()); }, {"normal", "f32 or f64", "bf16"});
  expect_error([] { dtype_from_name("f8"); }, {"unknown dtype", "f8"});
  expect_error([] { (void)f32({2}).to_vector<double>(); }, {"to_vector", "f32", "f64"});
}

TEST(OpErrors, RankTooLarge) {
  expect_error([] { Shape s{1, 1, 1, 1, 1, 1, 1, 1, 1}; }, {"maximum rank is 8"});
  expect_error([] { expand_dims(f32({1, 1, 1, 1, 1, 1, 1, 1}), 0); }, {"maximum rank is 8"});
}

TEST(OpErrors, ReadingPastASlice) {
  expect_error([] { slice(f32({5}), {3}, {3}); }, {"slice", "reads past the end", "expected < 5"});
  expect_error([] { slice(f32({5, 5}), {0, 0}, {2, 2}, Axes{1, 0}); }, {"slice", "stride 0"});
  expect_error([] { pad(f32({2}), 0, {{-2, -1, 0}}); }, {"pad", "cuts more"});
  expect_error(
      [] {
        from_data<float>(std::vector<float>{1, 2, 3}, {2, 2}, reference_backend());
      },
      {"from_data", "3 values", "expected 4"});
}

// Shape arithmetic wraps in int64 unless checked: [2^32, 2^32] would "have 0 elements" and kernels then read
// and write through null. None of these allocates: each is refused before a backend sees it.
constexpr std::int64_t k2to31 = std::int64_t{1} << 31, k2to32 = std::int64_t{1} << 32, k2to62 = std::int64_t{1} << 62;
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

TEST(OpErrors, ElementCountsPastInt64) {
  expect_error([] { zeros({k2to32, k2to32}, DType::f32, reference_backend()); }, {"full", "overflows int64"});
  expect_error([] { iota({2 * k2to32, k2to31}, 0, DType::s64, reference_backend()); }, {"iota", "overflows"});
  expect_error([] { eye(k2to32, -1, DType::f32, reference_backend()); }, {"eye", "overflows"});
  expect_error([] { zeros({0, k2to32, k2to32}, DType::f32, reference_backend()); }, {"full", "[0, 4294967296"});
  expect_error([] { zeros({k2to62}, DType::f64, reference_backend()); }, {"full", "byte size", "overflows"});
  expect_error([] { broadcast(f32({1}), {k2to32, k2to32}); }, {"broadcast", "overflows"});
  expect_error([] { reshape(f32({0}), {-1, k2to32, k2to32}); }, {"reshape", "overflows"});
  expect_error([] { reshape(f32({0}), {k2to32, k2to32, 0}); }, {"reshape", "overflows"});
  expect_error(
      [] {
        from_data<float>(std::vector<float>{}, {k2to32, k2to32}, reference_backend());
      },
      {"from_data", "overflows"});
}

TEST(OpErrors, ResultShapesPastInt64) {
  const Tensor wide = f32({0, k2to62});  // no elements, but three of them concatenated do not fit int64
  expect_error([&] { concatenate({wide, wide, wide}, 1); }, {"concatenate", "concatenation axis 1", "overflows"});
  expect_error([] { dot(f32({k2to32, 0}), f32({0, k2to32})); }, {"dot", "overflows"});
  expect_error([] { conv(f32({k2to32, 0, 1}), f32({k2to32, 0, 1})); }, {"conv", "overflows"});
  expect_error([] { add(f32({k2to32, 1, 0}), f32({1, k2to32, 0})); }, {"add", "overflows"});
  const Tensor no_indices = zeros({k2to32, 0, 1}, DType::s32, reference_backend());
  expect_error([&] { take(f32({0, k2to32}), no_indices, 0); }, {"take", "overflows"});
  expect_error([&] { gather(f32({0, k2to32}), no_indices); }, {"gather", "overflows"});
}

TEST(OpErrors, SliceAndPadArithmeticPastInt64) {
  // The last index 1 + 2^62 * 4 wraps to 1, which is in range.
  expect_error([] { slice(f32({5}), {1}, {k2to62 + 1}, Axes{4}); }, {"slice", "last index on axis 0", "overflows"});
  expect_error([] { pad(f32({2}), 0, {{0, kMax, 0}}); }, {"pad", "padded size of axis 0", "overflows"});
  expect_error([] { pad(f32({3}), 0, {{0, 0, k2to62}}); }, {"pad", "interior padding of axis 0", "overflows"});
  expect_error([] { pad(f32({1}), 0, {{0, 0, kMax}}); }, {"pad", "step", "overflows"});
  expect_error([] { pad(f32({2}), 0, {{kMax, -kMax, 0}}); }, {"pad", "overflows"});
}

TEST(OpErrors, ConvAndWindowPaddingPastInt64) {
  const Tensor x = f32({1, 1, 3}), w = f32({1, 1, 1});
  expect_error([&] { conv(x, w, {.padding = {{kMax, 0}}}); }, {"conv", "low padding of axis 0", "overflows"});
  expect_error([&] { conv(x, w, {.padding = {{0, kMax}}}); }, {"conv", "high padding of axis 0", "overflows"});
  // Low and high cancel, but the kernel's coordinates would still run from -low to 3 + high.
  expect_error([&] { conv(x, w, {.padding = {{-kMax, kMax}}}); }, {"conv", "high padding", "overflows"});
  expect_error(
      [&] {
        conv(x, w, {.padding = {{std::numeric_limits<std::int64_t>::min(), 0}}});
      },
      {"conv", "cannot be negated"});
  expect_error([&] { conv(x, f32({1, 1, 3}), {.kernel_dilation = {kMax}}); }, {"conv", "dilated size", "overflows"});
  expect_error([&] { conv(f32({0, 1, k2to62}), w, {.input_dilation = {4}}); }, {"conv", "dilated size", "overflows"});
  expect_error([] { window_sum(f32({3}), {1}, {.padding = {{0, kMax}}}); }, {"window_sum", "overflows"});
  expect_error([] { window_max(f32({3}), {1}, {.padding = {{kMax, -kMax}}}); }, {"window_max", "overflows"});
  expect_error([] { window_sum(f32({3}), {3}, {.window_dilations = {kMax}}); },
               {"window_sum", "dilated window of axis 0", "overflows"});
}

TEST(OpErrors, UndefinedTensorsAndBackends) {
  expect_error([] { exp(Tensor()); }, {"undefined"});
  expect_error([] { (void)Tensor().shape(); }, {"undefined"});
}

}  // namespace
}  // namespace nxv
