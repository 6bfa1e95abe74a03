// nxv-train's work: training with per-epoch evaluation, metrics, plots and checkpoints, and evaluating a
// checkpoint. The tool (tools/nxv_train.cpp) only parses the command line and calls these.
#pragma once
#include <cstdio>
#include <vector>

#include "nxv/backend.hpp"
#include "train/checkpoint.hpp"
#include "train/options.hpp"

namespace nxv::train {

struct Evaluation {
  double loss = 0, accuracy = 0;
  std::int64_t examples = 0;
};

struct TrainResult {
  std::vector<EpochMetrics> history;  // every epoch, the checkpoint's earlier ones included
  std::vector<double> step_losses;    // each step's loss, when asked for (it reads the loss back every step)
  Checkpoint final_state;
};

// The backend `device` names ("" = Vulkan when usable, else the reference backend, with a note on `log`).
Backend& pick_backend(const std::string& device, std::FILE* log);

// Trains as `options` say, writing progress to `log` and the outputs to options.out.
TrainResult run_training(const TrainOptions& options, std::FILE* log, bool record_step_losses = false);
// The test loss and accuracy of the checkpoint options.evaluate.
Evaluation run_evaluation(const TrainOptions& options, std::FILE* log);

}  // namespace nxv::train
