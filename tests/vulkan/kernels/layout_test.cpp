// Layout plumbing of the Vulkan backend, bit for bit against the reference backend at the OpCall level:
// the movement ops at rank 8 with every element size (transpose, broadcast, slice with steps, pad with negative
// and interior padding, concatenate along each axis, reverse of axis subsets) and dot in every 2-D orientation,
// with batch axes anywhere, non-collapsible axis groups, ragged tile edges and K = 0.
#include <gtest/gtest.h>

#include "support/kernels.hpp"
#include "vulkan/kernels/kernels.hpp"

namespace nxv::vulkan::test {
namespace {

using nxv::testing::test_data;

const DType kOneOfEachSize[] = {DType::u8, DType::f32, DType::s64};  // element sizes 1, 4 and 8
const Shape kRank8 = {2, 3, 1, 4, 2, 3, 2, 5};

TEST(VulkanKernels, TransposeRank8) {
  NXV_REQUIRE_VULKAN();
  const Axes perms[] = {
      {7, 6, 5, 4, 3, 2, 1, 0}, {1, 0, 3, 2, 5, 4, 7, 6}, {0, 1, 2, 3, 4, 5, 7, 6}, {3, 7, 0, 5, 1, 6, 2, 4}};
  for (DType t : kOneOfEachSize)
    for (const Axes& perm : perms) {
      const Tensor x = test_data(t, kRank8, 1);
      TransposeAttrs a{.permutation = perm};
      Shape out;
      for (std::int64_t p : perm) out.push_back(kRank8[static_cast<int>(p)]);
      expect_kernel_parity(make_call(OpCode::transpose, a), {x}, {out, t}, "transpose " + to_string(perm));
    }
}

TEST(VulkanKernels, BroadcastIntoNewAndSizeOneAxes) {
  NXV_REQUIRE_VULKAN();
  struct Case {
    Shape in;
    Axes axes;
    Shape out;
  };
  const Case cases[] = {{{}, {}, {4, 5}},
                        {{5}, {1}, {4, 5}},
                        {{4}, {0}, {4, 5}},
                        {{3, 1}, {0, 2}, {3, 2, 6}},
                        {{2, 1, 3}, {1, 3, 5}, {2, 2, 2, 2, 2, 3, 2, 2}}};
  for (DType t : kOneOfEachSize)
    for (const Case& c : cases) {
      BroadcastAttrs a{.axes = c.axes};
      expect_kernel_parity(make_call(OpCode::broadcast, a), {test_data(t, c.in, 2)}, {c.out, t},
                           "broadcast " + to_string(c.in) + " to " + to_string(c.out));
    }
}

TEST(VulkanKernels, SliceWithStartsAndStepsRank8) {
  NXV_REQUIRE_VULKAN();
  const Shape in = {5, 4, 3, 6, 2, 5, 3, 7};
  struct Case {
    Shape starts, strides, lengths;
  };
  const Case cases[] = {
      {{0, 0, 0, 0, 0, 0, 0, 0}, {1, 1, 1, 1, 1, 1, 1, 1}, in},
      {{1, 1, 0, 2, 1, 0, 1, 3}, {1, 1, 1, 1, 1, 1, 1, 1}, {3, 2, 3, 4, 1, 5, 2, 4}},
      {{0, 1, 2, 0, 0, 1, 0, 1}, {2, 2, 1, 3, 1, 2, 2, 3}, {3, 2, 1, 2, 2, 2, 2, 2}},
      {{4, 0, 0, 5, 1, 4, 2, 6}, {1, 3, 2, 1, 1, 1, 1, 1}, {1, 2, 2, 1, 1, 1, 1, 1}},
  };
  for (DType t : kOneOfEachSize)
    for (const Case& c : cases) {
      SliceAttrs a{.starts = c.starts, .strides = c.strides};
      expect_kernel_parity(make_call(OpCode::slice, a), {test_data(t, in, 3)}, {c.lengths, t},
                           "slice starts " + to_string(c.starts) + " strides " + to_string(c.strides));
    }
}

TEST(VulkanKernels, PadEveryVariantRank8) {
  NXV_REQUIRE_VULKAN();
  const Shape in = {3, 2, 4, 1, 2, 3, 2, 5};
  // Per axis (low, high, interior): none, grow, cut, interior, cut with interior, cut everything.
  const std::int64_t configs[][3] = {{0, 0, 0}, {2, 1, 0}, {-1, -1, 0}, {1, 2, 2}, {-2, 1, 1}, {-3, 0, 0}};
  const int patterns[][8] = {{0, 0, 0, 0, 0, 0, 0, 0}, {1, 2, 3, 4, 1, 2, 3, 4}, {4, 3, 1, 0, 2, 4, 1, 3},
                             {3, 3, 3, 3, 0, 0, 0, 0}, {2, 4, 0, 1, 4, 2, 3, 0}, {0, 0, 5, 0, 0, 0, 0, 0}};
  for (DType t : kOneOfEachSize)
    for (const auto& pattern : patterns) {
      PadAttrs a{.value = -7.5};
      Shape out;
      for (int d = 0; d < 8; ++d) {
        const auto& c = configs[pattern[d]];
        a.low.push_back(c[0]);
        a.high.push_back(c[1]);
        a.interior.push_back(c[2]);
        out.push_back(std::max<std::int64_t>(0, c[0] + c[1] + in[d] + std::max<std::int64_t>(0, in[d] - 1) * c[2]));
      }
      expect_kernel_parity(
          make_call(OpCode::pad, a), {test_data(t, in, 4)}, {out, t},
          "pad low " + to_string(a.low) + " high " + to_string(a.high) + " interior " + to_string(a.interior));
    }
}

TEST(VulkanKernels, ConcatenateAlongEachAxis) {
  NXV_REQUIRE_VULKAN();
  for (DType t : kOneOfEachSize)
    for (int axis = 0; axis < 3; ++axis) {
      Shape s1 = {3, 4, 5}, s2 = s1, s3 = s1;
      s2[axis] = 1;
      s3[axis] = 0;
      Shape out = s1;
      out[axis] = s1[axis] * 2 + 1;
      AxisAttrs a{.axis = axis};
      expect_kernel_parity(make_call(OpCode::concatenate, a),
                           {test_data(t, s1, 5), test_data(t, s2, 6), test_data(t, s3, 7), test_data(t, s1, 8)},
                           {out, t}, "concatenate along " + std::to_string(axis));
    }
}

TEST(VulkanKernels, ReverseAxisSubsetsRank8) {
  NXV_REQUIRE_VULKAN();
  const Axes subsets[] = {{}, {0}, {7}, {1, 3, 5}, {0, 1, 2, 3, 4, 5, 6, 7}};
  for (DType t : kOneOfEachSize)
    for (const Axes& axes : subsets) {
      ReverseAttrs a{.axes = axes};
      expect_kernel_parity(make_call(OpCode::reverse, a), {test_data(t, kRank8, 9)}, {kRank8, t},
                           "reverse " + to_string(axes));
    }
}

struct DotCase {
  Shape a, b;
  Axes contract_a, batch_a, contract_b, batch_b;
  Shape out;
  const char* what;
};

const DotCase kDotCases[] = {
    {{70, 33}, {33, 65}, {1}, {}, {0}, {}, {70, 65}, "[1]/[0]"},
    {{70, 33}, {65, 33}, {1}, {}, {1}, {}, {70, 65}, "[1]/[1]"},
    {{33, 70}, {33, 65}, {0}, {}, {0}, {}, {70, 65}, "[0]/[0]"},
    {{33, 70}, {65, 33}, {0}, {}, {1}, {}, {70, 65}, "[0]/[1]"},
    {{1, 200}, {200, 1}, {1}, {}, {0}, {}, {1, 1}, "1x200 by 200x1"},
    {{130}, {130, 3}, {0}, {}, {0}, {}, {3}, "vector by matrix"},
    {{5, 0}, {0, 4}, {1}, {}, {0}, {}, {5, 4}, "K = 0"},
    {{3, 17, 9}, {3, 9, 20}, {2}, {0}, {1}, {0}, {3, 17, 20}, "batch first"},
    {{17, 4, 9}, {9, 20, 4}, {2}, {1}, {0}, {2}, {4, 17, 20}, "batch axes in the middle and last"},
    {{4, 3, 5, 6}, {6, 5, 7}, {2, 3}, {}, {1, 0}, {}, {4, 3, 7}, "two contracting axes, b's reversed"},
    {{5, 2, 6, 3}, {2, 7}, {1}, {}, {0}, {}, {5, 6, 3, 7}, "free axes around the contracting one"},
    {{2, 3, 4, 5}, {3, 2, 5, 6}, {3}, {1, 0}, {2}, {0, 1}, {3, 2, 4, 6}, "two batch axes, swapped"},
};

TEST(VulkanKernels, DotOrientationsBatchesAndEdges) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::u8, DType::s32, DType::s64, DType::f32, DType::f64})
    for (const DotCase& c : kDotCases) {
      const DotAttrs a{
          .contract_a = c.contract_a, .batch_a = c.batch_a, .contract_b = c.contract_b, .batch_b = c.batch_b};
      const Tensor x = nxv::testing::test_uniform(t, c.a, 11, -4, 4), y = nxv::testing::test_uniform(t, c.b, 12, -4, 4);
      expect_kernel_parity(make_call(OpCode::dot, a), {x, y}, {c.out, t},
                           std::string("dot ") + c.what + " " + std::string(name(t)), false);
    }
}

TEST(VulkanKernels, DotSpecialValuesAndLongK) {
  NXV_REQUIRE_VULKAN();
  // NaN, ±inf, ±0 and denormals in the operands, and a K long enough to span many slabs of 16.
  for (DType t : {DType::f32, DType::f64}) {
    const DotAttrs a{.contract_a = {1}, .contract_b = {0}};
    expect_kernel_parity(make_call(OpCode::dot, a), {test_data(t, {40, 1000}, 13), test_data(t, {1000, 30}, 14)},
                         {{40, 30}, t}, "dot with special values " + std::string(name(t)), false);
  }
}

}  // namespace
}  // namespace nxv::vulkan::test
