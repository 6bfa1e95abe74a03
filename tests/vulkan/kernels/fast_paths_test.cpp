// The vectorised fast paths of the memory-bound kernels, bit for bit against the reference backend at sizes that
// hit the vector body, the tail and both (0, 1, 3, 4, 5, 1023, 4097 elements): copy.comp's CONTIGUOUS path
// (slices whose start is or is not 16-byte aligned, concatenation parts), unary.comp and binary.comp's four
// elements per invocation (contiguous and single-element operands; strided ones keep the per-element path), and
// reduce.comp's VEC4 variant (contiguous reduced runs whose length is a multiple of 4, across chunk boundaries).
#include <gtest/gtest.h>

#include "support/kernels.hpp"

namespace nxv::vulkan::test {
namespace {

using nxv::testing::test_data;

const std::int64_t kSizes[] = {0, 1, 3, 4, 5, 1023, 4097};

TEST(VulkanKernelsFastPaths, ContiguousSlicesAlignedAndNot) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes)
    for (std::int64_t n : kSizes)
      // start 0 (aligned for every element size), 2 (aligned for 8-byte elements only), 4, 16, and odd starts.
      for (std::int64_t start : {0, 1, 2, 3, 4, 16, 17}) {
        const std::int64_t in = n + start + 2;
        const SliceAttrs a{.starts = {start}, .strides = {1}};
        expect_kernel_parity(make_call(OpCode::slice, a), {test_data(t, {in}, 3 + n)}, {{n}, t},
                             "slice of " + std::string(name(t)) + "[" + std::to_string(in) + "] from " +
                                 std::to_string(start) + " length " + std::to_string(n));
      }
}

TEST(VulkanKernelsFastPaths, ContiguousRowSlicesAndConcatenation) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::u8, DType::f32, DType::s64})
    for (std::int64_t rows : {1, 3, 4}) {
      // Rows [1, 1 + rows) of a [6, cols] tensor: one contiguous run starting at cols elements.
      for (std::int64_t cols : {1, 4, 5, 16, 1023}) {
        const SliceAttrs a{.starts = {1, 0}, .strides = {1, 1}};
        expect_kernel_parity(make_call(OpCode::slice, a), {test_data(t, {6, cols}, 9)}, {{rows, cols}, t},
                             "row slice of " + std::string(name(t)) + "[6, " + std::to_string(cols) + "]");
      }
      // Concatenation along axis 0: each part is a contiguous run at an offset of the output.
      expect_kernel_parity(make_call(OpCode::concatenate, AxisAttrs{.axis = 0}),
                           {test_data(t, {rows, 1023}, 5), test_data(t, {1, 1023}, 6), test_data(t, {2, 1023}, 7)},
                           {{rows + 3, 1023}, t}, "concatenate of " + std::string(name(t)) + " rows");
    }
}

TEST(VulkanKernelsFastPaths, UnaryEveryDtypeAndTailLength) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes)
    for (std::int64_t n : kSizes) {
      const Tensor x = test_data(t, {n}, 21 + n);
      if (t != DType::pred)
        expect_kernel_parity(make_call(OpCode::unary, UnaryAttrs{UnaryFn::negate}), {x}, {x.shape(), t},
                             "negate of " + to_string(x.type()));
      if (is_float(t)) {
        expect_kernel_parity(make_call(OpCode::unary, UnaryAttrs{UnaryFn::exp}), {x}, {x.shape(), t},
                             "exp of " + to_string(x.type()));
        expect_kernel_parity(make_call(OpCode::unary_test, UnaryAttrs{UnaryFn::is_nan}), {x}, {x.shape(), DType::pred},
                             "is_nan of " + to_string(x.type()));
      }
    }
}

TEST(VulkanKernelsFastPaths, BinaryContiguousAndSingleElementOperands) {
  NXV_REQUIRE_VULKAN();
  const int fns[] = {static_cast<int>(BinaryFn::add), static_cast<int>(BinaryFn::multiply),
                     static_cast<int>(BinaryFn::less)};
  for (DType t : real_dtypes)
    for (std::int64_t n : kSizes)
      for (int fn : fns) {
        const bool test = fn == static_cast<int>(BinaryFn::less);
        if (!test && t == DType::pred) continue;
        const Tensor a = test_data(t, {n}, 1 + n), b = test_data(t, {n}, 2 + n);
        const Tensor s = test_data(t, {}, 3 + n), s1 = test_data(t, {1}, 4 + n);
        const OpCall call = make_call(test ? OpCode::binary_test : OpCode::binary, binary_attrs(fn));
        const TensorType out{{n}, test ? DType::pred : t};
        const std::string what = std::string(fn_name(static_cast<BinaryFn>(fn))) + " of " + std::string(name(t)) + "[" +
                                 std::to_string(n) + "]";
        expect_kernel_parity(call, {a, b}, out, what + " with a contiguous operand");
        expect_kernel_parity(call, {a, s}, out, what + " with a rank-0 operand");
        expect_kernel_parity(call, {s1, a}, out, what + " with a broadcast [1] operand first");
      }
}

TEST(VulkanKernelsFastPaths, ReduceContiguousRunsAcrossChunks) {
  NXV_REQUIRE_VULKAN();
  struct Case {
    Shape shape;
    Axes axes;
  };
  // Lengths that are multiples of 4 (the VEC4 variant) around the 16384-element chunk, rows of them, and
  // neighbours that are not (the scalar path), including partial passes with 4, 5 and 8 chunks.
  const Case cases[] = {
      {{4}, {0}},          {{8}, {0}},     {{1020}, {0}},    {{16384}, {0}},   {{16388}, {0}},
      {{65536}, {0}},      {{81920}, {0}}, {{131072}, {0}},  {{3, 1028}, {1}}, {{5, 16392}, {1}},
      {{2, 3, 4}, {1, 2}}, {{1023}, {0}},  {{3, 1026}, {1}}, {{3, 4, 5}, {2}}, {{0, 8}, {1}},
  };
  const ReduceFn fns[] = {ReduceFn::sum, ReduceFn::product, ReduceFn::max, ReduceFn::min};
  for (DType t : real_dtypes) {
    if (t == DType::pred) continue;
    for (const Case& c : cases)
      for (ReduceFn fn : fns) {
        Shape out;
        for (int d = 0; d < c.shape.size(); ++d)
          if (!c.axes.contains(d)) out.push_back(c.shape[d]);
        // Sums of mixed magnitudes: any other order of the f32/f64 additions changes low bits.
        const Tensor x = fn == ReduceFn::sum && is_float(t) ? nxv::testing::test_uniform(t, c.shape, 41, -1e6, 1e6)
                                                            : test_data(t, c.shape, 43);
        expect_kernel_parity(make_call(OpCode::reduce, reduce_attrs(fn, c.axes)), {x}, {out, t},
                             std::string(fn_name(fn)) + " of " + to_string(x.type()) + " over " + to_string(c.axes));
      }
  }
}

}  // namespace
}  // namespace nxv::vulkan::test
