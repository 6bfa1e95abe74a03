// nxv-train's command line: the options, their defaults, and a parser that reports mistakes as UsageError
// (the program prints the message and exits with status 2).
#pragma once
#include <cstdint>
#include <filesystem>
#include <set>
#include <span>
#include <string>

#include "common/command_line.hpp"
#include "nxv/dtype.hpp"

namespace nxv::train {

using UsageError = cli::UsageError;

struct TrainOptions {
  std::string model = "lenet";  // lenet | mlp | cnn
  std::filesystem::path data;   // empty: data::default_data_dir()
  std::int64_t epochs = 10;     // epochs to train (more epochs after --resume)
  std::int64_t batch = 32;
  double lr = 1e-3;
  std::string optimizer = "adam";   // sgd | adam | adamw
  std::string schedule = "cosine";  // constant | step | cosine: the learning rate per step (nn::*_schedule);
                                    // cosine by default: it reached the quality bars (README, Training)
  std::int64_t decay_every = 3;     // step: multiply the rate by decay_factor every decay_every epochs
  double decay_factor = 0.5;
  double final_lr_fraction = 0.0;  // cosine: the fraction of lr reached at the last step
  std::string device;              // vulkan | reference; empty: Vulkan when available
  DType dtype = DType::f32;
  std::uint64_t seed = 0;
  std::filesystem::path out = "out";
  std::filesystem::path resume;    // a checkpoint to continue from
  std::filesystem::path evaluate;  // a checkpoint to evaluate (no training)
  std::int64_t subset = 0;         // training examples to use (0 = all)
  std::int64_t test_subset = 0;    // test examples to use (0 = all)
  bool help = false;
  std::set<std::string> given;  // the options the command line named ("model", "lr", ...)
};

extern const char* const kUsage;

// Parses the arguments after the program name. Throws UsageError naming the option and what was wrong.
TrainOptions parse_args(std::span<const std::string> args);

}  // namespace nxv::train
