// Dots and convs with their epilogues (docs/fusion-compiler.md): a region over a dot's (conv's)
// result runs inside a generated copy of the tiled dot (unsplit conv) kernel, in one dispatch, fused = eager
// Vulkan = reference bit for bit: every dot dtype, operand orientations (read strided or materialised), batched
// dots, several epilogue outputs, the dot's value also needed elsewhere, NaN/inf, a dense layer's forward and SGD
// update; convs in 1-3 spatial dimensions with strides, padding, dilations and groups, and long convs (split, so
// no contraction) keeping their region.
#include "nxv/conv.hpp"
#include "nxv/grad.hpp"
#include "nxv/indexing.hpp"
#include "nxv/ops.hpp"
#include "support/fusion.hpp"
#include "vulkan/fusion/plan.hpp"
#include "vulkan/kernels/dot.hpp"

namespace nxv::testing {
namespace {

// A dense layer: bias add and a relu (max with 0) on the dot's result.
Tensor dense(const Tensor& x, const Tensor& w, const Tensor& b) {
  const Tensor y = dot(x, w) + b;
  return is_float(y.dtype()) ? max(y, 0.0) : max(y, 0);
}

TEST(FusedDot, BiasAndActivationRunInTheDotsDispatchForEveryDtype) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::f32, DType::f64, DType::f16, DType::bf16, DType::s32, DType::s64, DType::u8}) {
    const MultiFn fn = [](const std::vector<Tensor>& in) { return std::vector<Tensor>{dense(in[0], in[1], in[2])}; };
    // 70 x 90 outputs: two tiles each way, partial at the edges; K = 37 ends inside a slab.
    expect_fused_exact("dense " + std::string(name(t)), fn,
                       {test_data(t, {70, 37}, 1), test_data(t, {37, 90}, 2), test_data(t, {90}, 3)}, 1);
  }
}

TEST(FusedDot, OperandOrientationsAndBatches) {
  NXV_REQUIRE_VULKAN();
  const MultiFn transposed = [](const std::vector<Tensor>& in) {  // a^T b^T: both read along their strides
    return std::vector<Tensor>{dot(transpose(in[0]), transpose(in[1])) * 2.0 - 1.0};
  };
  expect_fused_exact("a^T b^T", transposed, {test_data(DType::f32, {19, 33}, 4), test_data(DType::f32, {21, 19}, 5)},
                     -1);
  const MultiFn batched = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{exp(dot(in[0], {2}, {0}, in[1], {1}, {0})) + in[2]};
  };
  expect_fused_exact("batched", batched,
                     {test_uniform(DType::f32, {3, 17, 9}, 6, -1, 1), test_uniform(DType::f32, {3, 9, 65}, 7, -1, 1),
                      test_data(DType::f32, {65}, 8)},
                     1);
  const MultiFn contract_two = [](const std::vector<Tensor>& in) {  // [4, 5, 6] . [5, 6, 7]: K = 30
    return std::vector<Tensor>{dot(in[0], {1, 2}, {}, in[1], {0, 1}, {}) / 3.0};
  };
  expect_fused_exact("two contracted axes", contract_two,
                     {test_data(DType::f64, {4, 5, 6}, 9), test_data(DType::f64, {5, 6, 7}, 10)}, 1);
}

TEST(FusedDot, SeveralOutputsAndTheDotsValueNeededElsewhere) {
  NXV_REQUIRE_VULKAN();
  const MultiFn fn = [](const std::vector<Tensor>& in) {
    const Tensor y = dot(in[0], in[1]);
    const Tensor shifted = y - in[2];
    // y itself, two values of the epilogue, and a reduction reading y (another stage).
    return std::vector<Tensor>{y, shifted, select(greater(shifted, 0.0), shifted, in[2] * 0.5), sum(y, Axes{0})};
  };
  expect_fused_exact(
      "outputs", fn,
      {test_data(DType::f32, {40, 24}, 11), test_data(DType::f32, {24, 30}, 12), test_data(DType::f32, {40, 1}, 13)},
      -1);
}

TEST(FusedDot, AnEpilogueReadingALaterStageRunsAfterIt) {
  NXV_REQUIRE_VULKAN();
  // The dot is traced first, the sort (an eager stage) after it; the epilogue reads both, so the contraction must
  // run after the sort (it once ran first and read an undefined value).
  const MultiFn fn = [](const std::vector<Tensor>& in) {
    const Tensor y = dot(in[0], in[1]);
    const Tensor s = sort(in[2] * 2.0, 1);
    return std::vector<Tensor>{y * s + 1.0};
  };
  expect_fused_exact("after sort", fn,
                     {test_data(DType::f32, {6, 5}, 40), test_data(DType::f32, {5, 7}, 41),
                      test_uniform(DType::f32, {6, 7}, 42, -1, 1)},
                     -1);
}

TEST(FusedDot, NanAndInfinityPropagateAsEagerly) {
  NXV_REQUIRE_VULKAN();
  // test_data's special values (NaN, inf, -0.0, denormals) in both operands and the bias.
  const MultiFn fn = [](const std::vector<Tensor>& in) { return std::vector<Tensor>{dense(in[0], in[1], in[2])}; };
  for (DType t : {DType::f32, DType::f64, DType::f16, DType::bf16})
    expect_fused_exact(std::string("specials ") + std::string(name(t)), fn,
                       {test_data(t, {8, 130}, 14), test_data(t, {130, 8}, 15), test_data(t, {8}, 16)}, 1);
}

TEST(FusedDot, ADenseLayersSgdStepFusesItsUpdates) {
  NXV_REQUIRE_VULKAN();
  // x [16, 12] -> relu(x w + b) -> sum: the forward's bias and relu join the dot; the weight gradient's dot
  // (contracting the batch) takes w - lr * g as its epilogue.
  const MultiFn step = [](const std::vector<Tensor>& in) {
    auto [loss, grads] = value_and_grad([](const std::vector<Tensor>& p, const Tensor& x) {
      return sum(dense(x, p[0], p[1]));
    })(std::vector<Tensor>{in[0], in[1]}, in[2]);
    return std::vector<Tensor>{loss, in[0] - 0.1 * grads[0], in[1] - 0.1 * grads[1]};
  };
  expect_fused_exact("dense sgd", step,
                     {test_uniform(DType::f32, {12, 20}, 17, -1, 1), test_uniform(DType::f32, {20}, 18, -1, 1),
                      test_uniform(DType::f32, {16, 12}, 19, -1, 1)},
                     -1);
}

// A conv layer: bias add over the channel axis and a relu.
Tensor conv_layer(const Tensor& x, const Tensor& w, const Tensor& b, const ConvOptions& options) {
  const Tensor y = conv(x, w, options);
  Shape bias_shape = Shape::filled(y.rank(), 1);
  bias_shape[1] = b.dim(0);
  return max(y + reshape(b, bias_shape), 0.0);
}

TEST(FusedConv, BiasAndActivationRunInTheConvsDispatch) {
  NXV_REQUIRE_VULKAN();
  struct Case {
    const char* what;
    Shape x, w;
    ConvOptions options;
  };
  const Case cases[] = {
      {"2-D", {4, 3, 12, 11}, {5, 3, 3, 3}, {}},
      {"2-D strided, padded, dilated",
       {2, 4, 13, 9},
       {6, 4, 3, 2},
       {.strides = {2, 1}, .padding = {{1, 2}, {0, 1}}, .input_dilation = {1, 2}, .kernel_dilation = {2, 1}}},
      {"2-D grouped", {3, 6, 8, 8}, {4, 3, 3, 3}, {.feature_group_size = 2}},
      {"1-D", {5, 2, 40}, {3, 2, 5}, {}},
      {"3-D", {2, 2, 5, 6, 4}, {3, 2, 2, 3, 2}, {}},
  };
  for (const Case& c : cases)
    for (DType t : {DType::f32, DType::f64}) {
      const MultiFn fn = [&c](const std::vector<Tensor>& in) {
        return std::vector<Tensor>{conv_layer(in[0], in[1], in[2], c.options)};
      };
      expect_fused_exact(std::string(c.what) + " " + std::string(name(t)), fn,
                         {test_data(t, c.x, 30), test_data(t, c.w, 31), test_data(t, {c.w[0]}, 32)}, 1);
    }
}

TEST(FusedConv, ALongConvIsSplitAndKeepsItsRegion) {
  NXV_REQUIRE_VULKAN();
  // 40 input channels x 3 x 3 = 360 terms: two chunks, so the conv is split (conv + combine) and its region is a
  // stage of its own: 3 dispatches, the same bits.
  const MultiFn fn = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{conv_layer(in[0], in[1], in[2], {})};
  };
  expect_fused_exact("split", fn,
                     {test_uniform(DType::f32, {2, 40, 6, 6}, 33, -1, 1),
                      test_uniform(DType::f32, {3, 40, 3, 3}, 34, -1, 1), test_data(DType::f32, {3}, 35)},
                     3);
}

// Plans: where a region reads a dot's result element for element, the dot becomes a contraction stage; a dot the
// tiled kernel would not run (a forced variant) keeps its eager stage and its region.
TEST(FusionPlan, DotsTakeTheirEpilogues) {
  NXV_REQUIRE_VULKAN();
  const std::vector<Tensor> xs{zeros({8, 6}), zeros({6, 5}), zeros({5})};
  const TracedFunction f =
      trace([](const std::vector<Tensor>& in) { return std::vector<Tensor>{dense(in[0], in[1], in[2])}; }, xs);
  const vulkan::fusion::Plan fused = vulkan::fusion::plan_stages(*f.graph, true, 16);
  const std::string printed = vulkan::fusion::to_string(fused, *f.graph);
  EXPECT_EQ(fused.contraction_stages(), 1) << printed;
  EXPECT_EQ(fused.fused_stages(), 0) << printed;
  EXPECT_EQ(fused.eager_stages(), 0) << printed;
  EXPECT_NE(printed.find("contraction %"), std::string::npos) << printed;
  vulkan::kernels::force_dot_kernel(vulkan::kernels::DotKernel::mid);
  const vulkan::fusion::Plan forced = vulkan::fusion::plan_stages(*f.graph, true, 16);
  vulkan::kernels::force_dot_kernel(std::nullopt);
  EXPECT_EQ(forced.contraction_stages(), 0) << vulkan::fusion::to_string(forced, *f.graph);
  EXPECT_EQ(forced.fused_stages(), 1) << vulkan::fusion::to_string(forced, *f.graph);
  const vulkan::fusion::Plan elementwise_only = vulkan::fusion::plan_stages(*f.graph, true, 16, false);
  EXPECT_EQ(elementwise_only.contraction_stages(), 0);
}

// A dot read transposed by its only reader is computed transposed (operands swapped); one also read elsewhere or
// returned is not.
TEST(FusionPlan, ADotReadOnlyTransposedIsComputedTransposed) {
  NXV_REQUIRE_VULKAN();
  const std::vector<Tensor> xs{zeros({16, 12}), zeros({16, 20}), zeros({12, 20})};
  auto gradient = [](const std::vector<Tensor>& in) { return dot(in[1], {0}, {}, in[0], {0}, {}); };  // [20, 12]
  auto update = [&](const std::vector<Tensor>& in) { return in[2] - 0.1 * transpose(gradient(in)); };
  const TracedFunction only = trace([&](const std::vector<Tensor>& in) { return std::vector<Tensor>{update(in)}; }, xs);
  const vulkan::fusion::Plan p = vulkan::fusion::plan_stages(*only.graph, true, 16);
  EXPECT_EQ(p.contraction_stages(), 1) << vulkan::fusion::to_string(p, *only.graph);
  EXPECT_NE(vulkan::fusion::to_string(p, *only.graph).find("(computed transposed)"), std::string::npos)
      << vulkan::fusion::to_string(p, *only.graph);
  const TracedFunction returned = trace(
      [&](const std::vector<Tensor>& in) {
        const Tensor g = gradient(in);
        return std::vector<Tensor>{in[2] - 0.1 * transpose(g), g};
      },
      xs);
  const vulkan::fusion::Plan q = vulkan::fusion::plan_stages(*returned.graph, true, 16);
  EXPECT_EQ(q.contraction_stages(), 0) << vulkan::fusion::to_string(q, *returned.graph);

  const MultiFn fn = [&](const std::vector<Tensor>& in) { return std::vector<Tensor>{update(in)}; };
  expect_fused_exact(
      "transposed", fn,
      {test_data(DType::f32, {16, 12}, 20), test_data(DType::f32, {16, 20}, 21), test_data(DType::f32, {12, 20}, 22)},
      1);
}

}  // namespace
}  // namespace nxv::testing
