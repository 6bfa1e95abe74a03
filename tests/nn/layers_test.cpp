// Layers as functions against hand-computed values (f64, reference backend), and the Sequential model API.
#include <unistd.h>

#include <cmath>
#include <filesystem>

#include "support/nn.hpp"

namespace nxv::nn_test {
namespace {

TEST(Layers, Dense) {
  const Tensor x = f64({1, 2}, {1, 2});
  const Tensor kernel = f64({1, 0, 1, 0, 1, 1}, {2, 3});
  expect_near(nn::dense(x, kernel, f64({0.5, 0, -1})), {1.5, 2, 2});
  EXPECT_THROW(nn::dense(x, f64({1, 2, 3}, {3, 1}), f64({0})), Error);
}

TEST(Layers, BatchFlattenKeepsTheBatchAxis) {
  EXPECT_EQ(nn::batch_flatten(zeros({4, 2, 3, 5})).shape(), (Shape{4, 30}));
}

TEST(Layers, LayerNormOverTheLastAxis) {
  const double s = 1 / std::sqrt(2.0 / 3.0 + 1e-5);
  expect_near(nn::layer_norm(f64({1, 2, 3}, {1, 3}), f64({1, 1, 2}), f64({0, 0, 1})), {-s, 0, 2 * s + 1}, 1e-12);
}

TEST(Layers, BatchNormTrainingUsesBatchStatisticsAndUpdatesRunningOnes) {
  // Features [N=2, F=1] = [[1], [3]]: mean 2, biased variance 1.
  const nn::BatchNormOutput r =
      nn::batch_norm_train(f64({1, 3}, {2, 1}), f64({2}), f64({1}), f64({0}), f64({1}), 0.9, 0.0);
  expect_near(r.y, {-1, 3});
  expect_near(r.running_mean, {0.2}, 1e-15);
  expect_near(r.running_var, {1.0}, 1e-15);
}

TEST(Layers, BatchNormInferenceUsesTheGivenStatistics) {
  expect_near(nn::batch_norm_inference(f64({1, 3}, {2, 1}), f64({2}), f64({1}), f64({0.2}), f64({4}), 0.0), {1.8, 3.8},
              1e-15);
}

TEST(Layers, BatchNormOverNchwChannels) {
  // Channel 0 holds 0..3 (mean 1.5, var 1.25), channel 1 holds 10 everywhere (var 0: epsilon keeps it finite).
  const Tensor x = f64({0, 1, 2, 3, 10, 10, 10, 10}, {1, 2, 2, 2});
  const nn::BatchNormOutput r = nn::batch_norm_train(x, f64({1, 1}), f64({0, 0}), f64({0, 0}), f64({1, 1}), 0.0, 1e-5);
  const double s = 1 / std::sqrt(1.25 + 1e-5);
  expect_near(r.y, {-1.5 * s, -0.5 * s, 0.5 * s, 1.5 * s, 0, 0, 0, 0}, 1e-12);
  expect_near(r.running_mean, {1.5, 10});
}

TEST(Layers, DropoutDropsAndRescalesWhenTraining) {
  const Tensor x = ones({1000}, DType::f64, reference_backend());
  const std::vector<double> y = values(nn::dropout(x, 0.5, key(7), true));
  int zeros_seen = 0;
  for (double v : y) {
    ASSERT_TRUE(v == 0.0 || v == 2.0) << v;
    zeros_seen += v == 0.0;
  }
  EXPECT_NEAR(zeros_seen, 500, 60);
  EXPECT_EQ(values(nn::dropout(x, 0.5, key(7), true)), y) << "the mask depends only on the key";
  EXPECT_NE(values(nn::dropout(x, 0.5, key(8), true)), y);
  EXPECT_EQ(values(nn::dropout(x, 0.5, key(7), false)), values(x)) << "identity in evaluation";
  EXPECT_THROW(nn::dropout(x, 1.0, key(7), true), Error);
}

TEST(Layers, EmbeddingTakesRows) {
  const Tensor ids = tensor<std::int64_t>({2, 0}, {1, 2}, reference_backend());
  const Tensor y = nn::embedding(ids, f64({0, 1, 2, 3, 4, 5}, {3, 2}));
  EXPECT_EQ(y.shape(), (Shape{1, 2, 2}));
  expect_near(y, {4, 5, 0, 1});
}

TEST(Layers, Conv2dValidAndSameWithBias) {
  const Tensor x = ones({1, 1, 3, 3}, DType::f64, reference_backend());
  const Tensor k = ones({1, 1, 2, 2}, DType::f64, reference_backend());
  expect_near(nn::conv2d(x, k, f64({1})), {5, 5, 5, 5});
  // Nx's same for a 2x2 window pads (0, 1): the last row and column see the padding.
  expect_near(nn::conv2d(x, k, f64({1}), {.padding = nn::same}), {5, 5, 3, 5, 5, 3, 3, 3, 2});
  expect_near(nn::conv2d(x, k, Tensor(), {.strides = {2, 2}, .padding = Padding{{1, 0}, {1, 0}}}), {1, 2, 2, 4});
}

TEST(Layers, Pooling) {
  const Tensor x = as_type(iota({1, 1, 4, 4}, 3, DType::f64, reference_backend()) +
                               iota({1, 1, 4, 4}, 2, DType::f64, reference_backend()) * 4.0,
                           DType::f64);  // 0..15 row-major
  expect_near(nn::max_pool2d(x, {2, 2}), {5, 7, 13, 15});
  expect_near(nn::avg_pool2d(x, {2, 2}), {2.5, 4.5, 10.5, 12.5});
  expect_near(nn::max_pool2d(x, {3, 3}, {.strides = {1, 1}}), {10, 11, 14, 15});
}

TEST(Initializers, FansAndScales) {
  EXPECT_EQ(nn::init::fans({784, 128}).in, 784);
  EXPECT_EQ(nn::init::fans({6, 1, 5, 5}).in, 25);
  EXPECT_EQ(nn::init::fans({6, 1, 5, 5}).out, 150);
  const double limit = std::sqrt(6.0 / (784 + 128));
  for (double v : values(nn::init::glorot_uniform(key(1), {784, 128}, DType::f64, reference_backend())))
    ASSERT_LE(std::abs(v), limit);
  const std::vector<double> he = values(nn::init::he_normal(key(2), {1000, 10}, DType::f64, reference_backend()));
  double sum_sq = 0;
  for (double v : he) sum_sq += v * v;
  EXPECT_NEAR(std::sqrt(sum_sq / he.size()), std::sqrt(2.0 / 1000), 0.002);
  EXPECT_EQ(values(nn::init::zeros(key(3), {2}, DType::f64, reference_backend())), (std::vector<double>{0, 0}));
}

TEST(Sequential, NamesParametersByKindAndPosition) {
  const nn::Sequential model({nn::dense(4), nn::relu(), nn::dense(2)});
  const Params p = model.init(key(0), {1, 3}, DType::f64, reference_backend());
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p.at("dense_0.kernel").shape(), (Shape{3, 4}));
  EXPECT_EQ(p.at("dense_0.bias").shape(), (Shape{4}));
  EXPECT_EQ(p.at("dense_2.kernel").shape(), (Shape{4, 2}));
  EXPECT_EQ(values(p.at("dense_2.bias")), (std::vector<double>{0, 0}));
  EXPECT_EQ(model.apply(p, zeros({5, 3}, DType::f64, reference_backend())).shape(), (Shape{5, 2}));
  EXPECT_EQ(nn::parameter_count(p), 3 * 4 + 4 + 4 * 2 + 2);
  const std::string summary = model.summary({1, 3});
  EXPECT_NE(summary.find("dense_0"), std::string::npos) << summary;
  EXPECT_NE(summary.find("relu_1"), std::string::npos) << summary;
  EXPECT_NE(summary.find("total 26 parameters"), std::string::npos) << summary;
}

TEST(Sequential, ApplyIsTheComposition) {
  const nn::Sequential model({nn::dense(2), nn::relu(), nn::dense(1)});
  const Params p = model.init(key(1), {1, 2}, DType::f64, reference_backend());
  const Tensor x = f64({1, -2, 0.5, 3}, {2, 2});
  const Tensor by_hand = nn::dense(nn::relu(nn::dense(x, p.at("dense_0.kernel"), p.at("dense_0.bias"))),
                                   p.at("dense_2.kernel"), p.at("dense_2.bias"));
  EXPECT_EQ(values(model.apply(p, x)), values(by_hand));
}

TEST(Sequential, InitDependsOnlyOnTheKey) {
  const nn::Sequential model({nn::dense(3)});
  EXPECT_EQ(values(model.init(key(5), {1, 2}, DType::f64, reference_backend()).at("dense_0.kernel")),
            values(model.init(key(5), {7, 2}, DType::f64, reference_backend()).at("dense_0.kernel")));
  EXPECT_NE(values(model.init(key(5), {1, 2}, DType::f64, reference_backend()).at("dense_0.kernel")),
            values(model.init(key(6), {1, 2}, DType::f64, reference_backend()).at("dense_0.kernel")));
}

TEST(Sequential, LeNetShapes) {
  const nn::Sequential lenet({nn::conv2d(6, {5, 5}, {.padding = nn::same}), nn::relu(), nn::max_pool2d({2, 2}),
                              nn::conv2d(16, {5, 5}), nn::relu(), nn::max_pool2d({2, 2}), nn::flatten(), nn::dense(120),
                              nn::relu(), nn::dense(84), nn::relu(), nn::dense(10)});
  const Params p = lenet.init(key(0), {1, 1, 28, 28}, DType::f32, reference_backend());
  EXPECT_EQ(p.at("conv_0.kernel").shape(), (Shape{6, 1, 5, 5}));
  EXPECT_EQ(p.at("conv_3.kernel").shape(), (Shape{16, 6, 5, 5}));
  EXPECT_EQ(p.at("dense_7.kernel").shape(), (Shape{400, 120}));
  EXPECT_EQ(nn::parameter_count(p), 61706) << "LeNet-5 with 10 classes";
  EXPECT_EQ(lenet.apply(p, zeros({2, 1, 28, 28}, DType::f32, reference_backend())).shape(), (Shape{2, 10}));
}

TEST(Sequential, BatchNormStateIsSeparateAndUpdatedWhenTraining) {
  const nn::Sequential model({nn::dense(2), nn::batch_norm(0.5)});
  const nn::Variables v = model.init_variables(key(0), {1, 3}, DType::f64, reference_backend());
  EXPECT_EQ(v.params.count("batch_norm_1.gamma"), 1u);
  ASSERT_EQ(v.state.count("batch_norm_1.mean"), 1u);
  const Tensor x = f64({1, 2, 3, 4, 5, 6}, {2, 3});
  const auto [y_eval, same_state] = model.apply(v.params, v.state, x);
  EXPECT_EQ(values(same_state.at("batch_norm_1.mean")), (std::vector<double>{0, 0}));
  const auto [y_train, new_state] = model.apply(v.params, v.state, x, {.training = true});
  const Tensor h = nn::dense(x, v.params.at("dense_0.kernel"), v.params.at("dense_0.bias"));
  expect_near(new_state.at("batch_norm_1.mean"), values(mean(h, Axes{0}) * 0.5), 1e-12);
  EXPECT_THROW(model.apply(v.params, x), Error) << "no state given";
}

TEST(Sequential, GradientsFlowThroughTheModel) {
  const nn::Sequential model({nn::dense(3), nn::gelu(), nn::dense(2)});
  const Params p = model.init(key(2), {1, 4}, DType::f64, reference_backend());
  const Tensor x = uniform(key(3), {5, 4}, DType::f64, -1, 1, reference_backend());
  const Tensor labels = tensor<std::int64_t>({0, 1, 1, 0, 1}, {5}, reference_backend());
  auto loss = [&](const Params& q) { return nn::softmax_cross_entropy(model.apply(q, x), labels); };
  const Params g = grad(loss)(p);
  // Central differences on one weight.
  const double h = 1e-6;
  Params plus = p, minus = p;
  const Tensor bump = f64({h, 0, 0, 0, 0, 0}, {3, 2});
  plus["dense_2.kernel"] = p.at("dense_2.kernel") + bump;
  minus["dense_2.kernel"] = p.at("dense_2.kernel") - bump;
  EXPECT_NEAR(values(g.at("dense_2.kernel"))[0], (loss(plus).item() - loss(minus).item()) / (2 * h), 1e-8);
}

TEST(Checkpoints, ParamsRoundTripThroughSafetensors) {
  const nn::Sequential model({nn::dense(3), nn::relu(), nn::dense(2)});
  const Params p = model.init(key(4), {1, 5}, DType::f32, reference_backend());
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("nxv_nn_params_" + std::to_string(::getpid()) + ".safetensors");
  nn::save_params(path, p, {{"model", "tiny"}});
  const nn::LoadedParams loaded = nn::load_params(path, reference_backend());
  std::filesystem::remove(path);
  EXPECT_EQ(loaded.metadata.at("model"), "tiny");
  ASSERT_EQ(loaded.params.size(), p.size());
  const Tensor x = uniform(key(5), {4, 5}, DType::f32, -1, 1, reference_backend());
  EXPECT_EQ(model.apply(loaded.params, x).to_vector<float>(), model.apply(p, x).to_vector<float>());
  EXPECT_THROW(nn::load_params(path, reference_backend()), Error) << "a missing file";
}

}  // namespace
}  // namespace nxv::nn_test
