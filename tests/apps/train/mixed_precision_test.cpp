// nxv-train's 16-bit training (apps/train/mixed_precision.hpp): bf16 and f16 reach f32's accuracy bar on the same
// 300 steps, keep f32 master weights, f16's loss scale skips an overflowed step and halves, grows after 2000 good
// steps; on Vulkan a 16-bit step stays on the device and follows the reference backend.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "data/idx.hpp"
#include "io/safetensors.hpp"
#include "nxv/fallback.hpp"
#include "nxv/nn.hpp"
#include "nxv/vulkan.hpp"
#include "support/temp_dir.hpp"
#include "support/train_runs.hpp"
#include "train/mixed_precision.hpp"
#include "train/models.hpp"
#include "train/trainer.hpp"

namespace nxv::train {
namespace {

using io_test::TempDir;

TrainOptions mlp_options(const TempDir& dir, DType dtype, std::int64_t steps) {
  TrainOptions o;
  o.model = "mlp";
  o.device = "reference";
  o.schedule = "constant";
  o.epochs = 1;
  o.subset = steps * 32;
  o.test_subset = 1000;
  o.dtype = dtype;
  o.out = dir.path();
  return o;
}

double mean_of(const std::vector<double>& v, std::size_t begin, std::size_t end) {
  return std::accumulate(v.begin() + static_cast<std::ptrdiff_t>(begin), v.begin() + static_cast<std::ptrdiff_t>(end),
                         0.0) /
         static_cast<double>(end - begin);
}

TEST(Train16Bit, MlpReachesTheF32AccuracyBarInBf16AndF16) {
  if (!train_test::have_fashion_mnist()) GTEST_SKIP() << "no Fashion-MNIST in " << data::default_data_dir();
  for (const DType t : {DType::bf16, DType::f16}) {
    SCOPED_TRACE(name(t));
    TempDir dir;
    const TrainResult r = run_training(mlp_options(dir, t, 300), train_test::quiet_log(), true);
    ASSERT_EQ(r.step_losses.size(), 300u);
    const double first = mean_of(r.step_losses, 0, 20), last = mean_of(r.step_losses, 250, 300);
    EXPECT_LT(last, first - 0.4) << "first 20 steps " << first << ", last 50 " << last;
    // Train.MlpLearnsFashionMnistIn300Steps's bars for f32 (which measured 0.829).
    EXPECT_LT(last, 0.7);
    EXPECT_GE(r.history.back().test_accuracy, 0.78);
    // The checkpoint keeps the f32 master weights (and f16's loss scale, still at its start: no overflow here).
    const io::SafetensorsFile f = io::load_safetensors(dir / "checkpoint.safetensors", reference_backend());
    EXPECT_EQ(f.metadata.at("dtype"), name(t));
    EXPECT_EQ(f.tensors.at("dense_0.kernel").dtype(), DType::f32);
    EXPECT_EQ(f.tensors.count(std::string("optimizer.") + kLossScale), t == DType::f16 ? 1u : 0u);
  }
}

TEST(Train16Bit, F16ResumeContinuesExactlyWithItsLossScale) {
  if (!train_test::have_fashion_mnist()) GTEST_SKIP() << "no Fashion-MNIST";
  TempDir straight, first, second;
  const auto options = [](const TempDir& dir) {
    TrainOptions o = mlp_options(dir, DType::f16, 8);
    o.test_subset = 100;
    return o;
  };
  TrainOptions two = options(straight);
  two.epochs = 2;
  const TrainResult a = run_training(two, train_test::quiet_log(), true);
  run_training(options(first), train_test::quiet_log(), true);
  TrainOptions resumed = options(second);
  resumed.resume = first / "checkpoint.safetensors";
  const TrainResult b = run_training(resumed, train_test::quiet_log(), true);
  ASSERT_EQ(a.step_losses.size(), 16u);
  ASSERT_EQ(b.step_losses.size(), 8u);
  EXPECT_EQ(std::vector<double>(a.step_losses.begin() + 8, a.step_losses.end()), b.step_losses);
  EXPECT_EQ(b.final_state.optimizer_state.at(kLossScale).item(), kInitialLossScale);
  EXPECT_EQ(b.final_state.optimizer_state.at(kLossScaleGoodSteps).item(), 16) << "counted across the resume";
}

struct StepRun {
  Params params, state;
  double loss;
};

// One f16 SGD step of the MLP from the same weights with the loss scale at `scale` after `good_steps` good steps.
StepRun f16_step(double scale, std::int64_t good_steps, const Params& params, Backend& backend) {
  const nn::Sequential model = make_model("mlp");
  const nn::Optimizer opt = nn::sgd();
  Params state = opt.init(params);
  add_loss_scale(state, DType::f16, backend);
  state[kLossScale] = scalar(scale, DType::f32, backend);
  state[kLossScaleGoodSteps] = scalar(static_cast<double>(good_steps), DType::s64, backend);
  const Tensor x = as_type(uniform(key(1), {32, 784}, DType::f32, -1, 1, backend), DType::f16);
  const Tensor y = as_type(uniform(key(2), {32}, DType::f32, 0, 10, backend), DType::s64);
  auto [loss, p, s, model_state] = make_train_step(model, opt, DType::f16)(
      params, state, {}, x, y, scalar(0.1, DType::f32, backend), nn::step_key(0, 0, backend));
  return {p, s, loss.item()};
}

TEST(Train16Bit, F16LossScaleSkipsAnOverflowedStepAndGrowsAfterGoodOnes) {
  Backend& ref = reference_backend();
  const Params params = make_model("mlp").init_variables(key(0), {1, 784}, DType::f32, ref).params;
  // 2^60 x a gradient overflows f16: the step is skipped (weights unchanged) and the scale halves.
  const StepRun over = f16_step(std::ldexp(1.0, 60), 7, params, ref);
  EXPECT_EQ(over.state.at(kLossScale).item(), std::ldexp(1.0, 59));
  EXPECT_EQ(over.state.at(kLossScaleGoodSteps).item(), 0);
  for (const auto& [n, t] : params) EXPECT_EQ(all(equal(over.params.at(n), t)).item(), 1) << n;
  // 1024 after 1999 good steps: this good step doubles it and restarts the count; the weights move.
  const StepRun good = f16_step(1024, kLossScaleGrowthInterval - 1, params, ref);
  EXPECT_EQ(good.state.at(kLossScale).item(), 2048);
  EXPECT_EQ(good.state.at(kLossScaleGoodSteps).item(), 0);
  EXPECT_EQ(all(equal(good.params.at("dense_0.kernel"), params.at("dense_0.kernel"))).item(), 0);
  // An ordinary good step counts; the reported loss is the unscaled one (about ln 10 for random labels).
  const StepRun counted = f16_step(4096, 5, params, ref);
  EXPECT_EQ(counted.state.at(kLossScale).item(), 4096);
  EXPECT_EQ(counted.state.at(kLossScaleGoodSteps).item(), 6);
  EXPECT_NEAR(counted.loss, std::log(10.0), 1.5);
  EXPECT_EQ(counted.loss, good.loss) << "the scale (a power of 2, 4096 against 1024) does not change the loss";
}

TEST(Train16BitVulkan, StepsStayOnTheDeviceAndFollowTheReference) {
  if (!train_test::have_fashion_mnist()) GTEST_SKIP() << "no Fashion-MNIST";
  if (!vulkan::available()) GTEST_SKIP() << "no Vulkan device";
  for (const DType t : {DType::bf16, DType::f16}) {
    SCOPED_TRACE(name(t));
    TempDir ref_dir, vk_dir;
    const TrainResult ref = run_training(mlp_options(ref_dir, t, 20), train_test::quiet_log(), true);
    TrainOptions o = mlp_options(vk_dir, t, 20);
    o.device = "vulkan";
    TrainResult vk;
    const std::uint64_t fallbacks = fallback::count_total([&] { vk = run_training(o, train_test::quiet_log(), true); });
    EXPECT_EQ(fallbacks, 0u);
    ASSERT_EQ(vk.step_losses.size(), 20u);
    // The same arithmetic on both backends but for the order of fast dots' sums; a 16-bit rounding that one such
    // difference flips (2^-8 of a value in bf16) can move a loss by about that much, a broken step by far more.
    for (std::size_t i = 0; i < 20; ++i)
      EXPECT_NEAR(vk.step_losses[i], ref.step_losses[i], 1e-2 * std::abs(ref.step_losses[i])) << "step " << i;
  }
}

}  // namespace
}  // namespace nxv::train
