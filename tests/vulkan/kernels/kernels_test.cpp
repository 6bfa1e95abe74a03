// Kernel plumbing of the Vulkan backend, checked bit for bit against the reference backend at the OpCall level:
// elementwise ops over every dtype and broadcast layout (contiguous, single element, strided, rank 8), all
// cast pairs, reductions across chunk boundaries, arg_reduce, and the creation ops. Movement and dot are in
// layout_test.cpp. (The op × dtype × edge-value parity over the public API is tests/parity/.)
#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "ops/elementwise_class.hpp"
#include "support/kernels.hpp"

namespace nxv::vulkan::test {
namespace {

using nxv::testing::test_data;

using Class = ElementwiseClass;
Class unary_class(int fn) { return class_of(static_cast<UnaryFn>(fn)); }
Class binary_class(int fn) { return class_of(static_cast<BinaryFn>(fn)); }
// The functions' ids run from 0 without gaps (shared/elementwise.def): count its rows.
#define NXV_UNARY(id, name, cls, expression) +1
#define NXV_BINARY(id, name, cls, expression)
constexpr int kUnaryFns = 0
#include "shared/elementwise.def"
    ;
#define NXV_UNARY(id, name, cls, expression)
#define NXV_BINARY(id, name, cls, expression) +1
constexpr int kBinaryFns = 0
#include "shared/elementwise.def"
    ;

bool applies(Class cls, DType t) {
  return cls == Class::TEST || cls == Class::NUM || (cls == Class::FLOAT) == is_float(t);
}

TEST(VulkanKernels, UnaryEveryFunctionAndDtype) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes)
    for (int fn = 0; fn < kUnaryFns; ++fn) {
      const Class cls = unary_class(fn);
      if (!applies(cls, t) || (t == DType::pred && cls == Class::FLOAT)) continue;
      Tensor x = test_data(t, {3, 347}, 11 + fn);
      // Known gap (see tests/parity/elementwise_parity_test.cpp): f64 sin/cos of huge arguments.
      const bool trig = fn == static_cast<int>(UnaryFn::sin) || fn == static_cast<int>(UnaryFn::cos);
      if (t == DType::f64 && trig) x = select(greater(abs(x), 1e6), zeros(x.shape(), DType::f64, x.backend()), x);
      const OpCode code = cls == Class::TEST ? OpCode::unary_test : OpCode::unary;
      expect_kernel_parity(make_call(code, unary_attrs(fn)), {x}, {x.shape(), cls == Class::TEST ? DType::pred : t},
                           "unary " + std::string(fn_name(static_cast<UnaryFn>(fn))) + ":" + std::string(name(t)));
    }
}

TEST(VulkanKernels, UnaryBeyond65535Workgroups) {
  NXV_REQUIRE_VULKAN();
  // 65536 * 256 + 3 elements need a second row of workgroups on devices with maxComputeWorkGroupCount[0] = 65535.
  const Tensor x = test_data(DType::u8, {65536 * 256 + 3}, 5);
  expect_kernel_parity(make_call(OpCode::unary, UnaryAttrs{UnaryFn::negate}), {x}, {x.shape(), DType::u8},
                       "negate:u8 over a 2-D grid");
}

// Pairs of input shapes and the output shape they broadcast to, covering every access kind.
struct BroadcastCase {
  Shape a, b, out;
};
const BroadcastCase kBroadcastCases[] = {
    {{4, 300}, {4, 300}, {4, 300}},                                                  // contiguous / contiguous
    {{}, {1000}, {1000}},                                                            // rank-0 operand
    {{7, 1}, {1}, {7, 1}},                                                           // size-1 axes only
    {{2, 3, 4}, {3, 1}, {2, 3, 4}},                                                  // strided, trailing size 1
    {{5, 1, 7}, {1, 6, 1}, {5, 6, 7}},                                               // both strided
    {{40, 1}, {1, 50}, {40, 50}},                                                    // outer product
    {{2, 1, 2, 1, 2, 1, 2, 1}, {1, 2, 1, 2, 1, 2, 1, 2}, {2, 2, 2, 2, 2, 2, 2, 2}},  // rank 8, alternating
    {{3, 0, 2}, {1, 2}, {3, 0, 2}},                                                  // empty
};

TEST(VulkanKernels, BinaryBroadcastLayoutsEveryDtype) {
  NXV_REQUIRE_VULKAN();
  const int fns[] = {static_cast<int>(BinaryFn::add), static_cast<int>(BinaryFn::subtract),
                     static_cast<int>(BinaryFn::max), static_cast<int>(BinaryFn::less)};
  for (DType t : real_dtypes)
    for (const BroadcastCase& c : kBroadcastCases)
      for (int fn : fns) {
        const Tensor a = test_data(t, c.a, 1), b = test_data(t, c.b, 2);
        const bool test = binary_class(fn) == Class::TEST;
        expect_kernel_parity(make_call(test ? OpCode::binary_test : OpCode::binary, binary_attrs(fn)), {a, b},
                             {c.out, test ? DType::pred : t},
                             std::string(fn_name(static_cast<BinaryFn>(fn))) + " on " + shape_text({a, b}));
      }
}

TEST(VulkanKernels, BinaryEveryFunctionAndDtype) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes)
    for (int fn = 0; fn < kBinaryFns; ++fn) {
      const Class cls = binary_class(fn);
      if (!applies(cls, t) || (t == DType::pred && cls == Class::FLOAT)) continue;
      const Tensor a = test_data(t, {5, 211}, 3 + fn), b = test_data(t, {211}, 40 + fn);
      const bool test = cls == Class::TEST;
      expect_kernel_parity(make_call(test ? OpCode::binary_test : OpCode::binary, binary_attrs(fn)), {a, b},
                           {a.shape(), test ? DType::pred : t},
                           std::string(fn_name(static_cast<BinaryFn>(fn))) + ":" + std::string(name(t)));
    }
}

TEST(VulkanKernels, SelectAndClipBroadcastLayouts) {
  NXV_REQUIRE_VULKAN();
  struct Case {
    Shape p, x, y, out;
  };
  const Case cases[] = {
      {{600}, {600}, {600}, {600}},
      {{}, {3, 200}, {200}, {3, 200}},
      {{3, 1}, {1, 4}, {}, {3, 4}},
      // Rank 8 with alternating broadcast axes: more than select.comp's 7 push-constant axes, so materialised.
      {{2, 1, 2, 1, 2, 1, 2, 1}, {1, 2, 1, 2, 1, 2, 1, 2}, {2, 2, 1, 1, 2, 2, 1, 1}, {2, 2, 2, 2, 2, 2, 2, 2}},
  };
  for (DType t : real_dtypes)
    for (const Case& c : cases) {
      const Tensor p = test_data(DType::pred, c.p, 7), x = test_data(t, c.x, 8), y = test_data(t, c.y, 9);
      expect_kernel_parity(make_call(OpCode::select), {p, x, y}, {c.out, t}, "select on " + shape_text({p, x, y}));
      const Tensor lo = test_data(t, c.p, 10);
      expect_kernel_parity(make_call(OpCode::clip), {x, lo, y}, {c.out, t}, "clip on " + shape_text({x, lo, y}));
    }
}

TEST(VulkanKernels, CastEveryPair) {
  NXV_REQUIRE_VULKAN();
  for (DType from : real_dtypes) {
    // Special values (NaN, ±inf, extremes) exercise saturation; the wide range exercises out-of-range values.
    const Tensor x = test_data(from, {1000}, 21);
    for (DType to : real_dtypes)
      expect_kernel_parity(make_call(OpCode::cast), {x}, {x.shape(), to},
                           "cast " + std::string(name(from)) + "->" + std::string(name(to)));
  }
  for (DType from : {DType::f32, DType::f64}) {
    const Tensor wide = nxv::testing::test_uniform(from, {2000}, 22, -1e20, 1e20);
    for (DType to : {DType::u8, DType::s32, DType::s64})
      expect_kernel_parity(make_call(OpCode::cast), {wide}, {wide.shape(), to},
                           "cast of large values " + std::string(name(from)) + "->" + std::string(name(to)));
  }
}

TEST(VulkanKernels, ReduceAxisLayoutsAndChunks) {
  NXV_REQUIRE_VULKAN();
  struct Case {
    Shape shape;
    Axes axes;
  };
  const Case cases[] = {
      {{1000}, {0}},
      {{7, 300}, {1}},
      {{300, 7}, {0}},
      {{4, 5, 6}, {0, 2}},
      {{2, 3, 2, 3, 2, 3, 2, 3}, {1, 3, 5, 7}},  // 4 kept and 4 reduced axis groups
      {{2, 3, 2, 3, 2, 3, 2, 3}, {0, 2, 4, 6}},
      {{3, 0}, {1}},      // empty reductions give the identity
      {{2, 20000}, {1}},  // two chunks of 16384
      {{40000, 2}, {0}},  // three chunks, strided
      {{5, 3}, {}},       // nothing reduced
  };
  const ReduceFn fns[] = {ReduceFn::sum, ReduceFn::product, ReduceFn::max, ReduceFn::min, ReduceFn::all, ReduceFn::any};
  for (DType t : real_dtypes)
    for (const Case& c : cases)
      for (ReduceFn fn : fns) {
        const bool logical = fn == ReduceFn::all || fn == ReduceFn::any;
        if (!logical && t == DType::pred) continue;
        const Tensor x = test_data(t, c.shape, 31);
        expect_kernel_parity(make_call(OpCode::reduce, reduce_attrs(fn, c.axes)), {x},
                             {reduced_shape(c.shape, c.axes), logical ? DType::pred : t},
                             std::string(fn_name(fn)) + " of " + to_string(x.type()) + " over " + to_string(c.axes));
      }
}

TEST(VulkanKernels, SumOrderOfALongF32Reduction) {
  NXV_REQUIRE_VULKAN();
  // 300000 values of mixed magnitude: any other summation order would change the low bits.
  const Tensor x = nxv::testing::test_uniform(DType::f32, {300000}, 33, -1e6, 1e6);
  expect_kernel_parity(make_call(OpCode::reduce, reduce_attrs(ReduceFn::sum, {0})), {x}, {{}, DType::f32},
                       "sum of f32[300000]");
}

TEST(VulkanKernels, ArgReduceAxesNaNsAndTies) {
  NXV_REQUIRE_VULKAN();
  struct Case {
    Shape shape;
    Axes axes;  // empty: the flattened tensor
  };
  const Case cases[] = {{{1000}, {}},     {{6, 7, 8}, {}},  {{6, 7, 8}, {0}},
                        {{6, 7, 8}, {1}}, {{6, 7, 8}, {2}}, {{3, 70000}, {1}}};
  for (DType t : real_dtypes)
    for (const Case& c : cases)
      for (int fn : {0, 1}) {
        // Few distinct values so that ties are common; the special values add NaNs for floats.
        const Tensor x =
            t == DType::pred ? test_data(t, c.shape, 41) : nxv::testing::test_uniform(t, c.shape, 41, 0, 4);
        const Tensor with_nan = is_float(t) ? test_data(t, c.shape, 42) : x;
        Shape out = c.axes.empty() ? Shape{} : reduced_shape(c.shape, c.axes);
        const ArgReduceAttrs attrs{.fn = static_cast<ArgReduceFn>(fn),
                                   .axis = c.axes.empty() ? std::nullopt : std::optional(c.axes[0])};
        for (const Tensor& input : {x, with_nan})
          expect_kernel_parity(make_call(OpCode::arg_reduce, attrs), {input}, {out, DType::s64},
                               std::string(fn == 0 ? "argmax" : "argmin") + " of " + to_string(input.type()) +
                                   " over " + to_string(c.axes));
      }
}

TEST(VulkanKernels, IotaEyeFull) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes) {
    for (int axis = 0; axis < 3; ++axis) {
      expect_kernel_parity(make_call(OpCode::iota, AxisAttrs{.axis = axis}), {}, {{3, 130, 2}, t},
                           "iota axis " + std::to_string(axis));
    }
    expect_kernel_parity(make_call(OpCode::iota, AxisAttrs{}), {}, {{}, t}, "iota rank 0");
    expect_kernel_parity(make_call(OpCode::iota, AxisAttrs{}), {}, {{300}, t}, "iota past 255");
    expect_kernel_parity(make_call(OpCode::eye), {}, {{5, 7}, t}, "eye 5x7");
    for (double v : {0.0, -0.0, 1.5, -2.7, 300.0, 1e30, -1e30, std::nan(""), 3e9})
      expect_kernel_parity(make_call(OpCode::full, FullAttrs{.value = v}), {}, {{2, 3}, t},
                           "full " + std::to_string(v));
  }
}

TEST(VulkanKernels, RandomUniformAndNormal) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::f32, DType::f64})
    for (OpCode code : {OpCode::random_uniform, OpCode::random_normal}) {
      const Key key{0x12345678u, 0x9abcdef0u};
      const OpAttrs a = code == OpCode::random_uniform ? OpAttrs(UniformAttrs{.key = key, .low = -3.0, .high = 5.0})
                                                       : OpAttrs(NormalAttrs{.key = key, .mean = 1.5, .stddev = 0.25});
      expect_kernel_parity(make_call(code, a), {}, {{1000, 67}, t},
                           std::string(op_name(code)) + ":" + std::string(name(t)));
    }
}

}  // namespace
}  // namespace nxv::vulkan::test
