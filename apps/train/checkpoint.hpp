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

// Writes `c` to `path`, replacing what is there only with a checkpoint that load_checkpoint reads back: settings
// out of range (the ones load_checkpoint refuses) are an error before anything is written, and the new file is
// read back before the rename that replaces the old one.
void save_checkpoint(const std::filesystem::path& path, const Checkpoint& c);
// Throws nxv::Error naming the file, and the metadata field where one is wrong, when it is not a regular file, not
// an nxv-train checkpoint, or a setting is malformed or out of range ("lr" nan, "batch" "12abc").
Checkpoint load_checkpoint(const std::filesystem::path& path, Backend& backend);

// The metrics as a JSON array of {"epoch", "train_loss", "test_loss", "test_accuracy", "seconds",
// "samples_per_second"} objects, and back. Numbers are written exactly (the shortest text that reads back as the
// same double); JSON has no NaN or infinity, so a value that is not finite is written as null and read back as
// NaN. `source` names the text in errors (a file, a checkpoint's metadata field).
std::string metrics_json(const std::vector<EpochMetrics>& history);
std::vector<EpochMetrics> parse_metrics_json(const std::string& text, const std::string& source);
// metrics.csv, metrics.json and curves.png in `dir`, each replaced whole (written beside it and renamed); a
// failed write is an error naming the file.
void write_metrics(const std::filesystem::path& dir, const std::vector<EpochMetrics>& history,
                   const std::string& title);

}  // namespace nxv::train
