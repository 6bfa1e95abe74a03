// conv's chunked summation on the Vulkan backend (include/nxv/conv.hpp: chunks of kConvChunkTerms terms, summed
// serially, then added in order): bit for bit against the reference with the contraction unsplit (each invocation
// folds its chunks in registers) and split (a workgroup per chunk, then conv_combine.comp), at contraction lengths
// around the chunk boundaries, with padding, dilation, groups and the kernel gradient's layout, with few outputs
// (loads of several terms issued together) and many. The split path is checked to run (two dispatches) and the
// unsplit one to stay one dispatch.
#include <gtest/gtest.h>

#include "nxv/conv.hpp"
#include "support/conv_split.hpp"
#include "support/kernels.hpp"
#include "vulkan/kernels/kernels.hpp"

namespace nxv::vulkan::test {
namespace {

using kernels::ConvSplit;
using nxv::testing::test_uniform;

ConvAttrs conv_attrs(int spatial, std::int64_t pad = 0) {
  const Shape ones = Shape::filled(spatial, 1), pads = Shape::filled(spatial, pad);
  return {.strides = ones, .pad_low = pads, .pad_high = pads, .input_dilation = ones, .kernel_dilation = ones};
}

struct ChunkCase {
  const char* name;
  Shape x, w, out;
  ConvAttrs attrs;
};

std::vector<ChunkCase> chunk_cases() {
  std::vector<ChunkCase> cases;
  // 1-D, one output per (batch, channel) pair: K = I * width, at and around one and two chunks.
  for (std::int64_t k : {255, 256, 257, 511, 512, 513, 1000}) {
    const std::int64_t channels = k % 5 == 0 ? 5 : 1;
    cases.push_back({"1d", {2, channels, k / channels}, {3, channels, k / channels}, {2, 3, 1}, conv_attrs(1)});
  }
  // 2-D with padding: taps on the padding take part in every chunk they fall in.
  cases.push_back({"2d-padded", {2, 12, 9, 9}, {4, 12, 5, 5}, {2, 4, 9, 9}, conv_attrs(2, 2)});
  // LeNet's first kernel gradient, at batch 8: 150 outputs, 8 * 28 * 28 = 6272 terms.
  cases.push_back({"kernel-gradient", {1, 8, 28, 28}, {6, 8, 28, 28}, {1, 6, 5, 5}, conv_attrs(2, 2)});
  // Feature groups: each group's channels form their own sequence of chunks.
  ConvAttrs grouped = conv_attrs(2);
  grouped.feature_groups = 2;
  cases.push_back({"grouped", {2, 40, 4, 4}, {6, 20, 4, 4}, {2, 6, 1, 1}, grouped});
  return cases;
}

TEST(VulkanConvChunks, EveryPolicyMatchesTheReferenceBitForBit) {
  NXV_REQUIRE_VULKAN();
  for (ConvSplit policy : {ConvSplit::never, ConvSplit::always, ConvSplit::automatic}) {
    const SplitPolicy scope(policy);
    for (DType t : {DType::f32, DType::f64})
      for (const ChunkCase& c : chunk_cases()) {
        const std::string what = std::string(c.name) + " " + to_string(c.x) + " * " + to_string(c.w) + " " +
                                 std::string(name(t)) + " policy " + std::to_string(static_cast<int>(policy));
        expect_kernel_parity(make_call(OpCode::conv, c.attrs),
                             {test_uniform(t, c.x, 41, -2, 2), test_uniform(t, c.w, 42, -1, 1)}, {c.out, t}, what);
      }
  }
}

TEST(VulkanConvChunks, ManyOutputsLoadOneTermAtATime) {
  NXV_REQUIRE_VULKAN();
  // 131072 output columns: enough invocations that conv.cpp neither narrows its blocks nor batches loads (KB = 1),
  // with one chunk of terms and with two.
  for (ConvSplit policy : {ConvSplit::never, ConvSplit::automatic}) {
    const SplitPolicy scope(policy);
    for (std::int64_t channels : {1, 30}) {
      const Shape x{2, channels, 258, 258}, w{1, channels, 3, 3};
      expect_kernel_parity(make_call(OpCode::conv, conv_attrs(2)),
                           {test_uniform(DType::f32, x, 49, -2, 2), test_uniform(DType::f32, w, 50, -1, 1)},
                           {{2, 1, 256, 256}, DType::f32},
                           "many outputs, " + std::to_string(channels * 9) + " terms, policy " +
                               std::to_string(static_cast<int>(policy)));
    }
  }
}

TEST(VulkanConvChunks, SpecialValuesReachEveryChunk) {
  NXV_REQUIRE_VULKAN();
  // inf in the last chunk, NaN in the first, -0.0 products in between: each must survive the chunk sums.
  for (ConvSplit policy : {ConvSplit::never, ConvSplit::always}) {
    const SplitPolicy scope(policy);
    for (DType t : {DType::f32, DType::f64}) {
      const Tensor x = nxv::testing::test_data(t, {3, 1, 700}, 43);
      const Tensor w = test_uniform(t, {2, 1, 700}, 44, -1, 1);
      expect_kernel_parity(make_call(OpCode::conv, conv_attrs(1)), {x, w}, {{3, 2, 1}, t},
                           "special values, 700 terms, " + std::string(name(t)));
    }
  }
}

std::uint64_t dispatches_of(const Tensor& x, const Tensor& w, const TensorType& out) {
  Tensor y;
  vulkan::flush();
  const std::uint64_t before = vulkan::counters().dispatches;
  y = execute_on(vulkan::backend(), make_call(OpCode::conv, conv_attrs(1)), {x, w}, out);
  vulkan::flush();
  return vulkan::counters().dispatches - before;
}

TEST(VulkanConvChunks, LongContractionsWithFewOutputsAreSplit) {
  NXV_REQUIRE_VULKAN();
  const Tensor x = test_uniform(DType::f32, {1, 4, 300}, 45, -1, 1).to(vulkan::backend());
  const Tensor w = test_uniform(DType::f32, {2, 4, 300}, 46, -1, 1).to(vulkan::backend());
  const Tensor one_chunk = test_uniform(DType::f32, {2, 4, 60}, 47, -1, 1).to(vulkan::backend());
  const Tensor x_short = test_uniform(DType::f32, {1, 4, 60}, 48, -1, 1).to(vulkan::backend());
  // 1200 terms for 2 outputs: split by default (the chunks' sums, then their combination).
  EXPECT_EQ(dispatches_of(x, w, {{1, 2, 1}, DType::f32}), 2u);
  {
    const SplitPolicy never(ConvSplit::never);
    EXPECT_EQ(dispatches_of(x, w, {{1, 2, 1}, DType::f32}), 1u);
  }
  // One chunk has nothing to split, whatever the policy.
  const SplitPolicy always(ConvSplit::always);
  EXPECT_EQ(dispatches_of(x_short, one_chunk, {{1, 2, 1}, DType::f32}), 1u);
}

}  // namespace
}  // namespace nxv::vulkan::test
