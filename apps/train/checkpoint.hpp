// nxv-train's checkpoints and metrics files. A checkpoint is one safetensors file: the model's parameters under
// their own names ("conv_0.kernel", so PyTorch / Hugging Face tools see plain weights), the optimizer state under
// "optimizer.<name>", a model's non-trained state under "state.<name>", and metadata (model, dtype, optimizer,
// epoch, step, seed, lr, batch, the schedule, the metrics so far).
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "nxv/defn.hpp"

namespace nxv::train {

struct EpochMetrics {
  std::int64_t epoch = 0;
  double train_loss = 0, test_loss = 0, test_accuracy = 0;
  double seconds = 0;  // training time of the epoch (the test evaluation excluded)
  double samples_per_second = 0;
};

// The learning-rate schedule of a run (TrainOptions' --schedule and its parameters).
struct ScheduleSettings {
  std::string kind = "constant";  // constant | step | cosine
  std::int64_t decay_every = 3;   // step: epochs per decay
  double decay_factor = 0.5;      // step
  double final_lr_fraction = 0;   // cosine
};

struct Checkpoint {
  std::string model, optimizer;
  DType dtype = DType::f32;
  std::int64_t epoch = 0, step = 0, batch = 0;
  std::uint64_t seed = 0;
  double lr = 0;
  ScheduleSettings schedule;
  Params params, optimizer_state;
  Params model_state;  // not trained: batch_norm's running statistics (stored as "state.<name>")
  std::vector<EpochMetrics> history;
};

void save_checkpoint(const std::filesystem::path& path, const Checkpoint& c);
// Throws nxv::Error naming the file when it is not an nxv-train checkpoint.
Checkpoint load_checkpoint(const std::filesystem::path& path, Backend& backend);

// The metrics as a JSON array of {"epoch", "train_loss", "test_loss", "test_accuracy", "seconds",
// "samples_per_second"} objects, and back.
std::string metrics_json(const std::vector<EpochMetrics>& history);
std::vector<EpochMetrics> parse_metrics_json(const std::string& text);
// metrics.csv, metrics.json and curves.png in `dir`.
void write_metrics(const std::filesystem::path& dir, const std::vector<EpochMetrics>& history,
                   const std::string& title);

}  // namespace nxv::train
