// nxv-train's jitted step on a model with dropout and batch_norm: one trace serves every step, each step's key
// draws its own dropout mask, and the running statistics come back updated.
#include <gtest/gtest.h>

#include "train/trainer.hpp"

namespace nxv::train {
namespace {

TEST(TrainStep, DropoutAndBatchNormUnderOneTrace) {
  Backend& ref = reference_backend();
  const nn::Sequential model({nn::dense(16), nn::batch_norm(0.9), nn::relu(), nn::dropout(0.5), nn::dense(3)});
  const nn::Optimizer adam = nn::adam();
  const nn::Variables v = model.init_variables(key(0), {1, 5}, DType::f32, ref);
  const Params opt = adam.init(v.params);
  const Tensor x = uniform(key(1), {8, 5}, DType::f32, -1, 1, ref);
  const Tensor labels = tensor<std::int64_t>({0, 1, 2, 0, 1, 2, 0, 1}, {8}, ref);
  const Tensor lr = scalar(1e-3, DType::f32, ref);
  const StepFn step = make_train_step(model, adam);

  const std::uint64_t traces = trace_count();
  const auto [loss0, p0, o0, s0] = step(v.params, opt, v.state, x, labels, lr, nn::step_key(0, 0, ref));
  const auto [loss1, p1, o1, s1] = step(v.params, opt, v.state, x, labels, lr, nn::step_key(0, 1, ref));
  const auto [again, p2, o2, s2] = step(v.params, opt, v.state, x, labels, lr, nn::step_key(0, 0, ref));
  EXPECT_EQ(trace_count() - traces, 1u) << "the key is an input: no retrace per step";
  EXPECT_NE(loss0.item(), loss1.item()) << "another step key, another dropout mask";
  EXPECT_EQ(loss0.item(), again.item()) << "the same key, the same mask";

  // The running mean moved from zeros towards the batch mean of the dense layer's output, by 1 - momentum.
  const Tensor h = nn::dense(x, v.params.at("dense_0.kernel"), v.params.at("dense_0.bias"));
  const std::vector<float> want = (mean(h, Axes{0}) * 0.1).to_vector<float>();
  const std::vector<float> got = s0.at("batch_norm_1.mean").to_vector<float>();
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_FLOAT_EQ(got[i], want[i]) << i;
  EXPECT_NE(p0.at("dense_0.kernel").to_vector<float>(), v.params.at("dense_0.kernel").to_vector<float>());
}

}  // namespace
}  // namespace nxv::train
