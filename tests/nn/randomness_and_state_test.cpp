// Randomness and state inside a jitted training step: key tensors give dropout a new mask per step without a
// retrace (and the same mask for the same key), and value_and_grad_with_state returns batch_norm's new running
// statistics next to the loss and gradients.
#include <cmath>

#include "nxv/fallback.hpp"
#include "nxv/vulkan.hpp"
#include "support/nn.hpp"

namespace nxv::nn_test {
namespace {

TEST(KeyTensors, UniformIsInRangeRepeatableAndKeyed) {
  Backend& ref = reference_backend();
  const Tensor k = nn::key_tensor(key(7), ref);
  EXPECT_EQ(k.type(), (TensorType{{2}, DType::s64}));
  const std::vector<double> u = values(nn::random_uniform(k, {200, 500}, DType::f32));
  double sum = 0, lag_product = 0;
  for (std::size_t i = 0; i < u.size(); ++i) {
    ASSERT_GE(u[i], 0.0);
    ASSERT_LT(u[i], 1.0);
    sum += u[i];
    if (i > 0) lag_product += (u[i] - 0.5) * (u[i - 1] - 0.5);
  }
  const double n = static_cast<double>(u.size());
  // 100000 uniforms: the mean's standard deviation is 0.29 / sqrt(n) = 0.0009; neighbours' covariance is 0 with
  // standard deviation 1/12 / sqrt(n) = 0.00026.
  EXPECT_NEAR(sum / n, 0.5, 0.005);
  EXPECT_NEAR(lag_product / n, 0.0, 0.0015) << "neighbouring elements are correlated";
  EXPECT_EQ(values(nn::random_uniform(k, {200, 500}, DType::f32)), u) << "values depend only on the key";
  EXPECT_NE(values(nn::random_uniform(nn::key_tensor(key(8), ref), {200, 500}, DType::f32)), u);
  EXPECT_NE(values(nn::random_uniform(k, {200, 500}, DType::f32, 1)), u) << "another stream";
  EXPECT_THROW(nn::random_uniform(f64({1, 2}), {3}), Error) << "not an s64 key";
  EXPECT_THROW(nn::random_uniform(k, {3}, DType::s32), Error);
}

TEST(KeyTensors, StepKeysDifferPerStepAndSeed) {
  auto words = [](const Tensor& k) { return k.to_vector<std::int64_t>(); };
  Backend& ref = reference_backend();
  EXPECT_EQ(words(nn::step_key(3, 10, ref)), words(nn::step_key(3, 10, ref)));
  EXPECT_NE(words(nn::step_key(3, 10, ref)), words(nn::step_key(3, 11, ref)));
  EXPECT_NE(words(nn::step_key(3, 10, ref)), words(nn::step_key(4, 10, ref)));
  EXPECT_NE(words(nn::step_key(0, 1, ref)), words(nn::step_key(1, 0, ref)));
}

// A dropout model, jitted with the key as an argument, on `backend`.
void check_dropout_under_jit(Backend& backend) {
  const nn::Sequential model({nn::dense(64), nn::dropout(0.5), nn::dropout(0.5)});
  const Params p = model.init(key(0), {1, 16}, DType::f32, backend);
  const Tensor x = uniform(key(1), {8, 16}, DType::f32, 0.5, 1, backend);
  auto forward = jit([&model](const Params& p, const Tensor& x, const Tensor& k) {
    return model.apply(p, x, {.training = true, .key = k});
  });
  const std::vector<float> step0 = forward(p, x, nn::step_key(0, 0, backend)).to_vector<float>();
  const std::vector<float> step1 = forward(p, x, nn::step_key(0, 1, backend)).to_vector<float>();
  EXPECT_EQ(forward.trace_count(), 1) << "a new key is a new input, not a new trace";
  EXPECT_NE(step0, step1) << "two steps draw different masks";
  EXPECT_EQ(forward(p, x, nn::step_key(0, 0, backend)).to_vector<float>(), step0) << "the same key repeats";
  const Tensor eager = model.apply(p, x, {.training = true, .key = nn::step_key(0, 1, backend)});
  EXPECT_EQ(eager.to_vector<float>(), step1) << "jit and eager draw the same mask";
  // Two dropouts of rate 0.5 in a row keep a quarter of the (positive) units, scaled by 4.
  const std::vector<float> dense_out = nn::dense(x, p.at("dense_0.kernel"), p.at("dense_0.bias")).to_vector<float>();
  std::size_t kept = 0;
  for (std::size_t i = 0; i < step0.size(); ++i) {
    if (step0[i] == 0) continue;
    ++kept;
    EXPECT_FLOAT_EQ(step0[i], dense_out[i] * 4) << "element " << i;
  }
  EXPECT_NEAR(static_cast<double>(kept) / static_cast<double>(step0.size()), 0.25, 0.08)
      << "the two layers draw independent masks (equal masks would keep half)";
  EXPECT_EQ(model.apply(p, x).to_vector<float>(), dense_out) << "evaluation mode: no dropout, no key needed";
  EXPECT_THROW(model.apply(p, x, {.training = true}), Error) << "training-mode dropout without a key";
}

TEST(KeyTensors, DropoutUnderJitDrawsANewMaskPerStepKey) { check_dropout_under_jit(reference_backend()); }

TEST(KeyTensorsVulkan, DropoutUnderJitAndBitIdenticalToTheReference) {
  if (!vulkan::available()) GTEST_SKIP() << "no Vulkan device";
  Backend& gpu = vulkan::backend();
  const std::uint64_t fallbacks = fallback::count_total([&] { check_dropout_under_jit(gpu); });
  EXPECT_EQ(fallbacks, 0u) << "the integer hash runs natively";
  const Tensor k = nn::step_key(5, 9, reference_backend());
  EXPECT_EQ(nn::random_uniform(k.to(gpu), {1000}, DType::f32, 3).to_vector<float>(),
            nn::random_uniform(k, {1000}, DType::f32, 3).to_vector<float>());
}

// softmax cross-entropy of dense -> batch_norm -> dense.
struct BatchNormProblem {
  nn::Sequential model{{nn::dense(4), nn::batch_norm(0.9), nn::relu(), nn::dense(3)}};
  nn::Variables v = model.init_variables(key(0), {1, 5}, DType::f64, reference_backend());
  Tensor x = uniform(key(1), {6, 5}, DType::f64, -1, 1, reference_backend());
  Tensor labels = tensor<std::int64_t>({0, 1, 2, 0, 1, 2}, {6}, reference_backend());
};

std::pair<Tensor, Params> loss_and_state(const nn::Sequential& model, const Params& p, const Params& s, const Tensor& x,
                                         const Tensor& labels) {
  auto [logits, new_state] = model.apply(p, s, x, {.training = true});
  return {nn::softmax_cross_entropy(logits, labels), new_state};
}

TEST(ValueAndGradWithState, ReturnsTheLossGradientsAndNewRunningStatistics) {
  const BatchNormProblem b;
  auto fn = [&b](const Params& p, const Params& s, const Tensor& x, const Tensor& y) {
    return loss_and_state(b.model, p, s, x, y);
  };
  const auto [want_loss, want_state] = fn(b.v.params, b.v.state, b.x, b.labels);
  const auto [plain_loss, want_grads] =
      value_and_grad([&](const Params& p) { return fn(p, b.v.state, b.x, b.labels).first; })(b.v.params);

  auto step = jit([&fn](const Params& p, const Params& s, const Tensor& x, const Tensor& y) {
    const nn::LossGradState r = nn::value_and_grad_with_state(fn)(p, s, x, y);
    return std::make_tuple(r.loss, r.grads, r.state);
  });
  const auto [loss, grads, state] = step(b.v.params, b.v.state, b.x, b.labels);
  EXPECT_EQ(loss.item(), want_loss.item()) << "the value is the loss, bit for bit";
  ASSERT_EQ(grads.size(), b.v.params.size());
  for (const auto& [name, g] : want_grads) EXPECT_EQ(values(grads.at(name)), values(g)) << name;
  ASSERT_EQ(state.size(), 2u);
  for (const char* name : {"batch_norm_1.mean", "batch_norm_1.var"}) {
    EXPECT_EQ(values(state.at(name)), values(want_state.at(name))) << name << ": the new running statistic";
    EXPECT_NE(values(state.at(name)), values(b.v.state.at(name))) << name << " was updated";
  }
  // A second step from the new state moves the statistics again, through the same trace.
  const auto [loss2, grads2, state2] = step(b.v.params, state, b.x, b.labels);
  EXPECT_EQ(step.trace_count(), 1);
  EXPECT_EQ(values(state2.at("batch_norm_1.mean")),
            values(fn(b.v.params, state, b.x, b.labels).second.at("batch_norm_1.mean")));
}

TEST(ValueAndGradWithState, RejectsANewStateWithOtherNames) {
  const BatchNormProblem b;
  auto renamed = [&b](const Params& p, const Params& s, const Tensor& x, const Tensor& y) {
    auto [loss, state] = loss_and_state(b.model, p, s, x, y);
    Params other;
    for (const auto& [name, t] : state) other["x." + name] = t;
    return std::make_pair(loss, other);
  };
  EXPECT_THROW(nn::value_and_grad_with_state(renamed)(b.v.params, b.v.state, b.x, b.labels), Error);
}

}  // namespace
}  // namespace nxv::nn_test
