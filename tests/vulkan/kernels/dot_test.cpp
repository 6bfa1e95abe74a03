// The dot kernel's variants (src/vulkan/kernels/dot.hpp): each one forced in turn must give the reference
// backend's bits for partial tiles in M, N and K (including a partial last K slab), every 2-D orientation, with and
// without whole-vector loads (K and the free sizes multiples of 4 or not), batches, K = 0 and 1, size-1 axes, and
// NaN/inf/-0/denormals; and the size rule and NXV_DOT_KERNEL's names.
#include <gtest/gtest.h>

#include <optional>

#include "support/dot_kernels.hpp"
#include "support/kernels.hpp"

namespace nxv::vulkan::test {
namespace {

using kernels::DotKernel;

struct Case {
  Shape a, b;
  Axes contract_a, batch_a, contract_b, batch_b;
  Shape out;
  const char* what;
};

DotAttrs attrs_of(const Case& c) {
  return {.contract_a = c.contract_a, .batch_a = c.batch_a, .contract_b = c.contract_b, .batch_b = c.batch_b};
}

// Tiles are 64 or 128 along M and N and slabs 16 along K; vectors are 4 (f32) or 2 (f64) elements.
const Case kCases[] = {
    // Partial tiles in M and N, a partial last slab in K (37 = 2 x 16 + 5), K odd: scalar loads along K.
    {{131, 37}, {37, 133}, {1}, {}, {0}, {}, {131, 133}, "[1]/[0] 131x37x133"},
    {{131, 37}, {133, 37}, {1}, {}, {1}, {}, {131, 133}, "[1]/[1] 131x37x133"},
    {{37, 131}, {37, 133}, {0}, {}, {0}, {}, {131, 133}, "[0]/[0] 131x37x133"},
    {{37, 131}, {133, 37}, {0}, {}, {1}, {}, {131, 133}, "[0]/[1] 131x37x133"},
    // Every size a multiple of 4: whole-vector loads in every orientation, partial tiles, a partial slab of 4.
    {{132, 36}, {36, 260}, {1}, {}, {0}, {}, {132, 260}, "[1]/[0] 132x36x260"},
    {{132, 36}, {260, 36}, {1}, {}, {1}, {}, {132, 260}, "[1]/[1] 132x36x260"},
    {{36, 132}, {36, 260}, {0}, {}, {0}, {}, {132, 260}, "[0]/[0] 132x36x260"},
    {{36, 132}, {260, 36}, {0}, {}, {1}, {}, {132, 260}, "[0]/[1] 132x36x260"},
    // Full tiles and full slabs only.
    {{128, 64}, {64, 128}, {1}, {}, {0}, {}, {128, 128}, "128x64x128"},
    // Even sizes that are not multiples of 4: whole f64 vectors, scalar f32 ones, edges inside a vector.
    {{130, 34}, {34, 66}, {1}, {}, {0}, {}, {130, 66}, "[1]/[0] 130x34x66"},
    {{34, 130}, {66, 34}, {0}, {}, {1}, {}, {130, 66}, "[0]/[1] 130x34x66"},
    // Batches (with per-batch offsets that are and are not multiples of the vector width).
    {{3, 67, 35}, {3, 35, 70}, {2}, {0}, {1}, {0}, {3, 67, 70}, "batch first, 3x67x35x70"},
    {{2, 64, 32}, {2, 32, 68}, {2}, {0}, {1}, {0}, {2, 64, 68}, "batch first, 2x64x32x68"},
    {{35, 5, 67}, {70, 5, 35}, {0}, {1}, {2}, {1}, {5, 67, 70}, "batch in the middle, a along M, b along K"},
    // Edges: K = 0 and 1, size-1 M or N, vectors, a long K.
    {{70, 0}, {0, 130}, {1}, {}, {0}, {}, {70, 130}, "K = 0"},
    {{70, 1}, {1, 130}, {1}, {}, {0}, {}, {70, 130}, "K = 1"},
    {{1, 200}, {200, 131}, {1}, {}, {0}, {}, {1, 131}, "M = 1"},
    {{131, 200}, {200, 1}, {1}, {}, {0}, {}, {131, 1}, "N = 1"},
    {{200}, {200, 9}, {0}, {}, {0}, {}, {9}, "vector by matrix"},
    {{9, 520}, {520, 12}, {1}, {}, {0}, {}, {9, 12}, "K = 520 (32 slabs + 8)"},
};

void expect_every_case(DType t, const std::string& variant) {
  for (const Case& c : kCases) {
    const Tensor x = nxv::testing::test_uniform(t, c.a, 21, -4, 4), y = nxv::testing::test_uniform(t, c.b, 22, -4, 4);
    expect_kernel_parity(make_call(OpCode::dot, attrs_of(c)), {x, y}, {c.out, t},
                         "dot " + variant + " " + c.what + " " + std::string(name(t)));
  }
}

void expect_special_values(DType t, const std::string& variant) {
  // NaN, ±inf, ±0 and denormals in both operands, in two orientations.
  for (const Case& c : {kCases[0], kCases[7]})
    expect_kernel_parity(make_call(OpCode::dot, attrs_of(c)),
                         {nxv::testing::test_data(t, c.a, 23), nxv::testing::test_data(t, c.b, 24)}, {c.out, t},
                         "dot " + variant + " special values " + c.what + " " + std::string(name(t)));
}

class DotVariant : public ::testing::TestWithParam<DotKernel> {};
}  // namespace
}  // namespace nxv::vulkan::test
// gtest finds PrintTo by argument-dependent lookup: in the parameter's own namespace.
namespace nxv::vulkan::kernels {
void PrintTo(DotKernel k, std::ostream* os) { *os << dot_kernel_name(k); }
}  // namespace nxv::vulkan::kernels
namespace nxv::vulkan::test {
namespace {

TEST_P(DotVariant, MatchesTheReferenceOnEveryEdge) {
  NXV_REQUIRE_VULKAN();
  const ForcedDotKernel forced(GetParam());
  ASSERT_EQ(kernels::forced_dot_kernel(), GetParam());
  for (DType t : {DType::f32, DType::f64, DType::f16, DType::bf16}) {
    expect_every_case(t, kernels::dot_kernel_name(GetParam()));
    expect_special_values(t, kernels::dot_kernel_name(GetParam()));
  }
}

TEST_P(DotVariant, IntegersStillMatchWhenAFloatVariantIsForced) {
  NXV_REQUIRE_VULKAN();
  const ForcedDotKernel forced(GetParam());
  for (DType t : {DType::s32, DType::s64, DType::u8})
    for (const Case& c : {kCases[0], kCases[7], kCases[11]}) {
      const Tensor x = nxv::testing::test_uniform(t, c.a, 25, 0, 20), y = nxv::testing::test_uniform(t, c.b, 26, 0, 20);
      expect_kernel_parity(
          make_call(OpCode::dot, attrs_of(c)), {x, y}, {c.out, t},
          "dot " + std::string(kernels::dot_kernel_name(GetParam())) + " " + c.what + " " + std::string(name(t)));
    }
}

INSTANTIATE_TEST_SUITE_P(VulkanKernels, DotVariant, ::testing::Values(DotKernel::tiled, DotKernel::mid, DotKernel::big),
                         [](const auto& info) { return std::string(kernels::dot_kernel_name(info.param)); });

TEST(VulkanKernels, DotSizeRuleInExactPicksMidForLargeFloatProblemsOnly) {
  // Every variant is bit-identical to the reference in exact (DotVariant above), so the rule goes by speed as in
  // fast (dot_fast_test.cpp): mid from 512^3 for the float dtypes; integers and small problems tiled.
  for (DType t : {DType::u8, DType::s32, DType::s64, DType::f32, DType::f64})
    for (std::int64_t n : {8, 784, 4096}) {
      const DotKernel expected = is_float(t) && n >= 512 ? DotKernel::mid : DotKernel::tiled;
      EXPECT_EQ(kernels::choose_dot_kernel(Precision::exact, t, 1, n, n, n), expected) << name(t) << " " << n;
    }
}

TEST(VulkanKernels, DotKernelNamesRoundTrip) {
  for (DotKernel k : {DotKernel::tiled, DotKernel::mid, DotKernel::big})
    EXPECT_EQ(kernels::parse_dot_kernel(kernels::dot_kernel_name(k)), k);
  EXPECT_EQ(kernels::parse_dot_kernel("auto"), std::nullopt);
  EXPECT_EQ(kernels::parse_dot_kernel("Big"), std::nullopt);
  EXPECT_EQ(kernels::parse_dot_kernel(""), std::nullopt);
}

}  // namespace
}  // namespace nxv::vulkan::test
