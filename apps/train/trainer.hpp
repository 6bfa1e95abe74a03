// nxv-train's work: training with per-epoch evaluation, metrics, plots and checkpoints, and evaluating a
// checkpoint. The tool (apps/train/main.cpp) only parses the command line and calls these.
#pragma once
#include <cstdio>
#include <functional>
#include <tuple>
#include <vector>

#include "nxv/backend.hpp"
#include "nxv/error.hpp"
#include "nxv/nn.hpp"
#include "train/checkpoint.hpp"
#include "train/options.hpp"

namespace nxv::train {

struct Evaluation {
  double loss = 0, accuracy = 0;
  std::int64_t examples = 0;
};

// A run stopped because its loss is no longer finite (nxv-train exits with status 3). Nothing of the epoch it
// stopped in was saved: --out keeps the last good epoch's checkpoint and metrics.
struct DivergedError : Error {
  using Error::Error;
};

struct TrainResult {
  std::vector<EpochMetrics> history;  // every epoch, the checkpoint's earlier ones included
  std::vector<double> step_losses;    // each step's loss, when asked for (it reads the loss back every step)
  std::vector<double> step_lrs;       // the learning rate each step of this run was given
  Checkpoint final_state;
};

// One jitted training step: (loss, parameters, optimizer state, model state) after a step on (x, labels) with
// learning rate `lr` (a scalar) and dropout key `key` (nn::step_key). Both are inputs, not constants of the trace,
// so a new rate or key per step reuses the one trace.
using StepFn = std::function<std::tuple<Tensor, Params, Params, Params>(
    const Params& params, const Params& optimizer_state, const Params& model_state, const Tensor& x,
    const Tensor& labels, const Tensor& lr, const Tensor& key)>;
// `compute`: the dtype of the step's arithmetic; bf16 and f16 keep f32 master weights (train/mixed_precision.hpp).
StepFn make_train_step(const nn::Sequential& model, const nn::Optimizer& optimizer, DType compute = DType::f32);

// The step a learning-rate schedule is evaluated at: step `step_in_epoch` (0-based) of epoch `epoch` (1-based),
// counted in this run's steps per epoch. Not the checkpoint's step counter: a run resumed with another --batch or
// --subset counted its earlier steps in another size, and with far more of them the cosine's end had long passed
// (rate 0). Without a change it is the same number.
std::int64_t schedule_position(std::int64_t epoch, std::int64_t step_in_epoch, std::int64_t steps_per_epoch);

// The backend `device` names ("" = Vulkan when usable, else the reference backend, with a note on `log`).
Backend& pick_backend(const std::string& device, std::FILE* log);

// Trains as `options` say, writing progress to `log` and the outputs to options.out. Checks its inputs and --out
// before any work; throws DivergedError when the loss stops being finite.
TrainResult run_training(const TrainOptions& options, std::FILE* log, bool record_step_losses = false);
// The test loss and accuracy of the checkpoint options.evaluate.
Evaluation run_evaluation(const TrainOptions& options, std::FILE* log);

}  // namespace nxv::train
