// Parity of conv (Vulkan = reference, bit for bit, zero fallbacks) in f32 and f64: 1-, 2- and 3-D; strides,
// explicit/same/negative padding, input and kernel dilation, grouped, depthwise and batch-grouped convs, and the
// permutations the gradients use; channel counts that exercise every tile height (RM = 1, 2, 4, 8) and partial
// contraction slabs.
#include "nxv/conv.hpp"
#include "support/parity.hpp"

namespace nxv::testing {
namespace {

struct ConvCase {
  const char* name;
  Shape x, w;
  ConvOptions options;
};

ConvOptions with(auto&& set) {
  ConvOptions o;
  set(o);
  return o;
}

const Axes kSwap4{1, 0, 2, 3};

const ConvCase k_cases[] = {
    {"1d-strided", {2, 3, 17}, {4, 3, 5}, with([](ConvOptions& o) {
       o.strides = {2};
       o.padding = {{2, 1}};
     })},
    {"lenet-conv1", {4, 1, 28, 28}, {6, 1, 5, 5}, with([](ConvOptions& o) {
       o.padding = {{2, 2}, {2, 2}};
     })},
    {"lenet-conv2", {2, 6, 14, 14}, {16, 6, 5, 5}, {}},
    {"stride2-same", {3, 2, 9, 9}, {8, 2, 3, 3}, with([](ConvOptions& o) {
       o.strides = {2, 2};
       o.padding = {{1, 1}, {1, 1}};
     })},
    {"input-dilation", {2, 3, 5, 6}, {4, 3, 3, 2}, with([](ConvOptions& o) {
       o.input_dilation = {2, 3};
       o.padding = {{1, 2}, {0, 1}};
     })},
    {"kernel-dilation", {2, 3, 11, 10}, {5, 3, 3, 3}, with([](ConvOptions& o) {
       o.kernel_dilation = {2, 3};
     })},
    {"negative-padding", {1, 2, 9, 9}, {3, 2, 3, 3}, with([](ConvOptions& o) {
       o.padding = {{-1, 2}, {1, -2}};
     })},
    {"grouped", {2, 6, 8, 8}, {9, 2, 3, 3}, with([](ConvOptions& o) { o.feature_group_size = 3; })},
    {"depthwise", {2, 4, 8, 8}, {8, 1, 3, 3}, with([](ConvOptions& o) {
       o.feature_group_size = 4;
       o.padding = {{1, 1}, {1, 1}};
     })},
    {"batch-groups", {6, 3, 7, 7}, {6, 3, 3, 3}, with([](ConvOptions& o) { o.batch_group_size = 3; })},
    {"3d", {2, 2, 5, 6, 7}, {3, 2, 2, 3, 2}, with([](ConvOptions& o) {
       o.strides = {1, 2, 1};
       o.padding = {{1, 0}, {0, 1}, {1, 1}};
     })},
    {"nhwc-hwio", {2, 9, 9, 3}, {3, 3, 3, 4}, with([](ConvOptions& o) {
       o.input_permutation = Axes{0, 3, 1, 2};
       o.kernel_permutation = Axes{3, 2, 0, 1};
       o.output_permutation = Axes{0, 3, 1, 2};
     })},
    // The kernel gradient's layout: batch and feature axes swapped on all three operands.
    {"swapped-axes", {3, 2, 6, 6}, {3, 4, 4, 4}, with([](ConvOptions& o) {
       o.input_permutation = o.kernel_permutation = o.output_permutation = kSwap4;
     })},
    // The input gradient's layout: the kernel's O and I swapped, input dilation = the forward stride.
    {"transposed-kernel", {2, 5, 4, 4}, {5, 3, 3, 3}, with([](ConvOptions& o) {
       o.kernel_permutation = kSwap4;
       o.input_dilation = {2, 2};
       o.padding = {{2, 2}, {2, 2}};
     })},
    {"rows-12", {2, 3, 6, 6}, {12, 3, 3, 3}, {}},
    {"rows-20", {2, 3, 6, 6}, {20, 3, 3, 3}, {}},
    {"rows-70", {2, 3, 10, 10}, {70, 3, 3, 3}, {}},
    {"partial-slabs", {2, 7, 9, 9}, {5, 7, 4, 4}, {}},
};

TEST(ConvParity, EveryOptionInF32AndF64) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::f32, DType::f64}) {
    for (const ConvCase& c : k_cases) {
      SCOPED_TRACE(std::string(c.name) + " " + std::string(name(t)));
      expect_parity("conv:" + std::string(name(t)), [&](auto& in) { return conv(in[0], in[1], c.options); },
                    {test_uniform(t, c.x, 301, -2, 2), test_uniform(t, c.w, 302, -1, 1)});
    }
  }
}

TEST(ConvParity, SpecialValuesAndMixedDtypes) {
  NXV_REQUIRE_VULKAN();
  ConvOptions o;
  o.padding = {{1, 1}, {1, 1}};
  for (DType t : {DType::f32, DType::f64})
    expect_parity("conv:" + std::string(name(t)), [&](auto& in) { return conv(in[0], in[1], o); },
                  {test_data(t, {2, 2, 6, 6}, 303), test_data(t, {3, 2, 3, 3}, 304)});
  // An s32 input with an f32 kernel: cast on the device, computed in f32.
  expect_parity(
      "conv:f32", [&](auto& in) { return conv(in[0], in[1], o); },
      {test_uniform(DType::s32, {2, 2, 5, 5}, 305, -5, 5), test_uniform(DType::f32, {3, 2, 3, 3}, 306, -1, 1)});
}

}  // namespace
}  // namespace nxv::testing
