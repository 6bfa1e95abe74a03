// nxv-train's learning-rate schedules (the rate each step is given, and that it reaches the optimizer), and the
// quality statements that fit in CI on lavapipe: the same seed repeats the loss curve bit for bit on Vulkan, and a
// Vulkan epoch downloads nothing but the numbers it prints (and the checkpoint it writes). Skipped when the data
// set is not installed (scripts/setup installs it).
#include <gtest/gtest.h>

#include <fstream>

#include "data/idx.hpp"
#include "io/safetensors.hpp"
#include "nxv/vulkan.hpp"
#include "support/temp_dir.hpp"
#include "support/train_runs.hpp"
#include "train/models.hpp"
#include "train/trainer.hpp"

namespace nxv::train {
namespace {

using io_test::TempDir;

// The MLP on `subset` training examples (batch 32) and 200 test examples, on the reference backend.
TrainOptions small_run(const TempDir& dir, std::int64_t subset, std::int64_t epochs) {
  TrainOptions o;
  o.model = "mlp";
  o.device = "reference";
  o.schedule = "constant";
  o.epochs = epochs;
  o.subset = subset;
  o.test_subset = 200;
  o.out = dir.path();
  return o;
}

TEST(TrainSchedule, CosineAndStepRatesPerStep) {
  if (!train_test::have_fashion_mnist()) GTEST_SKIP() << "no Fashion-MNIST";
  TempDir cosine_dir, step_dir;
  TrainOptions cosine = small_run(cosine_dir, 96, 2);  // 3 steps per epoch, 6 in all
  cosine.schedule = "cosine";
  cosine.final_lr_fraction = 0.1;
  const TrainResult c = run_training(cosine, train_test::quiet_log());
  const nn::Schedule want = nn::cosine_schedule(1e-3, 6, 0.1);
  ASSERT_EQ(c.step_lrs.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_DOUBLE_EQ(c.step_lrs[i], want(static_cast<std::int64_t>(i))) << i;
  EXPECT_DOUBLE_EQ(c.step_lrs[0], 1e-3);
  EXPECT_LT(c.step_lrs[5], 0.2e-3) << "near the end of the decay";

  TrainOptions step = small_run(step_dir, 64, 3);  // 2 steps per epoch
  step.schedule = "step";
  step.decay_every = 1;
  step.decay_factor = 0.1;
  const TrainResult s = run_training(step, train_test::quiet_log());
  const std::vector<double> rates{1e-3, 1e-3, 1e-4, 1e-4, 1e-5, 1e-5};
  ASSERT_EQ(s.step_lrs.size(), rates.size());
  for (std::size_t i = 0; i < rates.size(); ++i) EXPECT_NEAR(s.step_lrs[i], rates[i], 1e-18) << i;

  TrainResult constant = run_training(small_run(TempDir(), 64, 1), train_test::quiet_log());
  EXPECT_EQ(constant.step_lrs, (std::vector<double>{1e-3, 1e-3}));
}

// A vanishing rate after the first epoch leaves the parameters where the first epoch left them: the scheduled
// rate is the one the optimizer applies.
TEST(TrainSchedule, TheScheduledRateReachesTheOptimizer) {
  if (!train_test::have_fashion_mnist()) GTEST_SKIP() << "no Fashion-MNIST";
  TempDir one_dir, two_dir;
  const TrainResult one = run_training(small_run(one_dir, 64, 1), train_test::quiet_log());
  TrainOptions o = small_run(two_dir, 64, 2);
  o.schedule = "step";
  o.decay_every = 1;
  o.decay_factor = 1e-12;
  const TrainResult two = run_training(o, train_test::quiet_log());
  for (const auto& [name, p] : one.final_state.params) {
    const std::vector<float> a = p.to_vector<float>(), b = two.final_state.params.at(name).to_vector<float>();
    double moved = 0;
    for (std::size_t i = 0; i < a.size(); ++i) moved = std::max(moved, static_cast<double>(std::abs(a[i] - b[i])));
    EXPECT_LT(moved, 1e-7) << name << ": the second epoch's rate is 1e-15";
  }
  // While the first epoch, at the full rate, moved them: Adam moves each weight by about the rate per step.
  const Params init = make_model("mlp").init(key(0), input_shape("mlp", 28, 28), DType::f32, reference_backend());
  const std::vector<float> a = init.at("dense_0.bias").to_vector<float>();
  const std::vector<float> b = one.final_state.params.at("dense_0.bias").to_vector<float>();
  double moved = 0;
  for (std::size_t i = 0; i < a.size(); ++i) moved = std::max(moved, static_cast<double>(std::abs(a[i] - b[i])));
  EXPECT_GT(moved, 1e-4);
}

TEST(TrainSchedule, ResumeContinuesTheCheckpointsSchedule) {
  if (!train_test::have_fashion_mnist()) GTEST_SKIP() << "no Fashion-MNIST";
  TempDir first, second;
  TrainOptions o = small_run(first, 64, 1);
  o.schedule = "step";
  o.decay_every = 1;
  o.decay_factor = 0.1;
  run_training(o, train_test::quiet_log());
  TrainOptions resumed = small_run(second, 64, 1);
  resumed.resume = first / "checkpoint.safetensors";
  const TrainResult r = run_training(resumed, train_test::quiet_log());
  ASSERT_EQ(r.step_lrs.size(), 2u);
  EXPECT_NEAR(r.step_lrs[0], 1e-4, 1e-18) << "steps 2 and 3 of a step schedule decaying every epoch";
  EXPECT_EQ(r.final_state.schedule.kind, "step");
}

TEST(TrainVulkan, SameSeedGivesABitIdenticalLossCurve) {
  if (!train_test::have_fashion_mnist()) GTEST_SKIP() << "no Fashion-MNIST";
  if (!vulkan::available()) GTEST_SKIP() << "no Vulkan device";
  TempDir a_dir, b_dir;
  TrainOptions o = small_run(a_dir, 20 * 32, 1);
  o.device = "vulkan";
  const TrainResult a = run_training(o, train_test::quiet_log(), true);
  o.out = b_dir.path();
  const TrainResult b = run_training(o, train_test::quiet_log(), true);
  ASSERT_EQ(a.step_losses.size(), 20u);
  EXPECT_EQ(a.step_losses, b.step_losses) << "same seed, same device";
  EXPECT_EQ(a.history.back().test_accuracy, b.history.back().test_accuracy);
  EXPECT_NE(a.step_losses.front(), a.step_losses.back()) << "it trained";
}

// Lines of `path` that start with `prefix`.
std::int64_t count_lines(const std::filesystem::path& path, const std::string& prefix) {
  std::ifstream in(path);
  std::int64_t n = 0;
  for (std::string line; std::getline(in, line);) n += line.starts_with(prefix);
  return n;
}

TEST(TrainVulkan, AnEpochDownloadsOnlyWhatItPrintsAndTheCheckpoint) {
  if (!train_test::have_fashion_mnist()) GTEST_SKIP() << "no Fashion-MNIST";
  if (!vulkan::available()) GTEST_SKIP() << "no Vulkan device";
  TempDir dir;
  TrainOptions o = small_run(dir, 12 * 32 + 7, 1);  // 13 batches, the last one ragged
  o.device = "vulkan";
  o.test_subset = 1500;  // two test batches, the last one ragged
  const std::filesystem::path log_path = dir / "log.txt";
  std::FILE* log = std::fopen(log_path.c_str(), "w");  // not a terminal: the bar prints plain lines
  ASSERT_NE(log, nullptr);
  vulkan::flush();
  const std::uint64_t before = vulkan::counters().bytes_downloaded;
  const TrainResult r = run_training(o, log);
  const std::uint64_t downloaded = vulkan::counters().bytes_downloaded - before;
  std::fclose(log);
  ASSERT_EQ(r.history.size(), 1u);

  const std::int64_t bar_lines = count_lines(log_path, "epoch 1/1 step");
  EXPECT_GE(bar_lines, 10) << "a plain line at every tenth of the epoch";
  EXPECT_EQ(count_lines(log_path, "epoch 1/1: train loss"), 1);
  // Each bar line shows the running loss (an f32 scalar); the epoch's train loss reuses the last one; the test
  // loss (f32) and the correct count (s64) are one scalar each.
  std::uint64_t checkpoint_bytes = 0;
  for (const auto& [name, t] : io::load_safetensors(dir / "checkpoint.safetensors", reference_backend()).tensors)
    checkpoint_bytes += static_cast<std::uint64_t>(t.size()) * 4;
  const std::uint64_t printed = static_cast<std::uint64_t>(bar_lines) * 4 + 4 + 8;
  EXPECT_EQ(downloaded, printed + checkpoint_bytes) << bar_lines << " bar lines; printed scalars " << printed
                                                    << " bytes, checkpoint " << checkpoint_bytes << " bytes";
}

}  // namespace
}  // namespace nxv::train
