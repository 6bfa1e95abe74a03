// nxv-train's inputs and outputs, checked before any work (data that cannot be trained on, an --out that cannot
// be written), a run that diverges (it stops, and the last good checkpoint stays), and the schedule of a run
// resumed with another batch size. Small IDX data sets of random images written by the tests: no installed data
// set needed.
#include <gtest/gtest.h>

#include <cmath>

#include "io/json.hpp"
#include "support/idx_files.hpp"
#include "support/temp_dir.hpp"
#include "support/train_runs.hpp"
#include "train/trainer.hpp"

namespace nxv::train {
namespace {

using io_test::expect_error;
using io_test::TempDir;
using io_test::write_idx_split;

// The MLP on the reference backend, on the data in `data`, writing to `out`.
TrainOptions run_on(const std::filesystem::path& data, const std::filesystem::path& out, std::int64_t epochs = 1) {
  TrainOptions o;
  o.model = "mlp";
  o.device = "reference";
  o.data = data;
  o.out = out;
  o.epochs = epochs;
  return o;
}

// Runs `o` with its log in a file; the error it throws must mention every one of `parts`, and the log must show
// that no training step was taken.
void expect_error_before_training(const TrainOptions& o, std::initializer_list<std::string> parts) {
  TempDir logs;
  std::FILE* log = std::fopen((logs / "log").c_str(), "w");
  ASSERT_NE(log, nullptr);
  expect_error([&] { run_training(o, log); }, parts);
  std::fclose(log);
  const std::string text = io_test::read_bytes(logs / "log");
  EXPECT_EQ(text.find(" step "), std::string::npos) << "it trained before finding the error:\n" << text;
}

// Found only after a whole training epoch, by the evaluation's shape error.
TEST(TrainInputs, TestImagesOfAnotherSizeAreAnErrorBeforeTraining) {
  TempDir data, out;
  write_idx_split(data.path(), "train", 64, 4, 4);
  write_idx_split(data.path(), "t10k", 16, 5, 5);
  expect_error_before_training(
      run_on(data.path(), out.path()),
      {"training images are 4x4", "train-images-idx3-ubyte", "test images 5x5", "t10k-images-idx3-ubyte", "one size"});
}

// An empty training set used to report "cosine_schedule: got total_steps = 0"; an empty test set trained, then
// wrote a test loss of NaN.
TEST(TrainInputs, AnEmptyTrainingOrTestSetIsAnErrorNamingItsFile) {
  TempDir data, out;
  write_idx_split(data.path(), "train", 0, 4, 4);
  write_idx_split(data.path(), "t10k", 16, 4, 4);
  expect_error_before_training(run_on(data.path(), out.path()), {"train-images-idx3-ubyte", "holds no images"});
  write_idx_split(data.path(), "train", 64, 4, 4);
  write_idx_split(data.path(), "t10k", 0, 4, 4);
  expect_error_before_training(run_on(data.path(), out.path()), {"t10k-images-idx3-ubyte", "holds no images"});
  TrainOptions e;
  e.evaluate = out / "checkpoint.safetensors";
  e.device = "reference";
  e.data = data.path();
  expect_error([&] { run_evaluation(e, train_test::quiet_log()); }, {"t10k-images-idx3-ubyte", "no images"});
}

// It used to fail only when the first epoch's metrics were written.
TEST(TrainInputs, OutMustBeAWritableDirectoryBeforeTraining) {
  TempDir data, out;
  write_idx_split(data.path(), "train", 64, 4, 4);
  write_idx_split(data.path(), "t10k", 16, 4, 4);
  io_test::write_bytes(out / "file", "");
  expect_error_before_training(run_on(data.path(), out / "file"), {"--out", (out / "file").string()});
  expect_error_before_training(run_on(data.path(), out / "file" / "sub"), {"--out", "cannot create the directory"});
}

// A diverged run used to exit 0 after writing "nan" into the metrics and over the checkpoint it resumed from,
// which then could not be loaded.
TEST(TrainDivergence, StopsAndKeepsTheLastGoodCheckpoint) {
  TempDir data, out;
  write_idx_split(data.path(), "train", 64, 4, 4);
  write_idx_split(data.path(), "t10k", 16, 4, 4);
  TrainOptions o = run_on(data.path(), out.path());
  o.batch = 8;
  o.schedule = "constant";
  run_training(o, train_test::quiet_log());
  const std::string checkpoint = io_test::read_bytes(out / "checkpoint.safetensors");
  const std::string metrics = io_test::read_bytes(out / "metrics.json");

  TrainOptions resumed = run_on(data.path(), out.path(), 2);  // the README's pattern: --out is the checkpoint's
  resumed.resume = out / "checkpoint.safetensors";
  resumed.lr = 1e30;
  resumed.given = {"lr"};
  try {
    run_training(resumed, train_test::quiet_log());
    ADD_FAILURE() << "a run at learning rate 1e30 did not diverge";
  } catch (const DivergedError& e) {
    const std::string m = e.what();
    for (const std::string& part :
         std::vector<std::string>{"training diverged in epoch 2/3", "learning rate 1e+30",
                                  "the checkpoint it resumed from, " + resumed.resume.string() + ", is as it was"})
      EXPECT_NE(m.find(part), std::string::npos) << "\"" << part << "\" missing from: " << m;
  }
  EXPECT_EQ(io_test::read_bytes(out / "checkpoint.safetensors"), checkpoint);
  EXPECT_EQ(io_test::read_bytes(out / "metrics.json"), metrics);
  EXPECT_EQ(load_checkpoint(out / "checkpoint.safetensors", reference_backend()).epoch, 1);

  TempDir fresh;
  TrainOptions diverging = run_on(data.path(), fresh.path());
  diverging.lr = 1e30;
  diverging.batch = 8;
  expect_error([&] { run_training(diverging, train_test::quiet_log()); },
               {"diverged in epoch 1/1", "no checkpoint was written"});
  EXPECT_FALSE(std::filesystem::exists(fresh / "checkpoint.safetensors"));
}

TEST(TrainSchedule, ThePositionCountsInTheRunsOwnStepsPerEpoch) {
  EXPECT_EQ(schedule_position(1, 0, 10), 0);
  EXPECT_EQ(schedule_position(3, 4, 10), 24);
}

// The schedule used to be evaluated at the checkpoint's step counter, counted in the old batch size: resumed with a
// larger batch, the cosine's end had passed and the run trained at rate 0.
TEST(TrainSchedule, ResumingWithAnotherBatchSizeOrSubsetContinuesTheSchedule) {
  TempDir data, first;
  write_idx_split(data.path(), "train", 96, 4, 4);
  write_idx_split(data.path(), "t10k", 16, 4, 4);
  TrainOptions o = run_on(data.path(), first.path());
  o.schedule = "cosine";
  o.final_lr_fraction = 0.1;
  run_training(o, train_test::quiet_log());  // 3 steps of 32

  struct Case {
    const char* what;
    std::int64_t batch, subset, steps_per_epoch;
  };
  for (const Case c : {Case{"batch 48", 48, 0, 2}, Case{"batch 96", 96, 0, 1}, Case{"subset 64", 32, 64, 2}}) {
    SCOPED_TRACE(c.what);
    TempDir second;
    TrainOptions resumed = run_on(data.path(), second.path());
    resumed.resume = first / "checkpoint.safetensors";
    resumed.batch = c.batch;
    resumed.subset = c.subset;
    resumed.given = {"batch"};
    const TrainResult r = run_training(resumed, train_test::quiet_log());
    // Epoch 2 of 2, in the new size: the cosine over 2 * steps_per_epoch steps, from step steps_per_epoch on.
    const nn::Schedule want = nn::cosine_schedule(1e-3, 2 * c.steps_per_epoch, 0.1);
    ASSERT_EQ(r.step_lrs.size(), static_cast<std::size_t>(c.steps_per_epoch));
    for (std::int64_t i = 0; i < c.steps_per_epoch; ++i)
      EXPECT_DOUBLE_EQ(r.step_lrs[static_cast<std::size_t>(i)], want(c.steps_per_epoch + i)) << "step " << i;
    EXPECT_GT(r.step_lrs.back(), 0.1e-3) << "not at the end of the decay";
  }
}

}  // namespace
}  // namespace nxv::train
