// nxv-sample's command line: the options, their defaults, and a parser that reports mistakes as UsageError
// (the program prints the message and exits with status 2).
#pragma once
#include <cstdint>
#include <filesystem>
#include <set>
#include <span>
#include <string>

#include "common/command_line.hpp"
#include "nxv/dtype.hpp"

namespace nxv::sample_app {

// A mistake of the user's (a flag, a value, a data file): exit status 2.
using UsageError = cli::UsageError;

struct SampleAppOptions {
  std::string model = "eight_schools";  // eight_schools | logistic | hierarchical | regime
  std::filesystem::path data;           // logistic: a CSV file (empty: generated data)
  std::int64_t chains = 4;
  std::int64_t warmup = 1000;
  std::int64_t samples = 1000;
  std::uint64_t seed = 0;
  DType dtype = DType::f64;
  std::string device;            // vulkan | reference; empty: Vulkan when available
  std::string sampler = "nuts";  // hmc | nuts
  int num_steps = 32;            // HMC
  int max_tree_depth = 10;       // NUTS
  double target_accept = 0.8;
  std::filesystem::path out = "out/sample";
  std::int64_t features = 8;        // generated logistic data: features (coefficients besides the intercept)
  std::int64_t observations = 200;  // generated logistic data: rows
  bool quiet = false;
  bool help = false;
  std::set<std::string> given;  // the options the command line named ("model", "chains", ...)
};

extern const char* const kUsage;

// Parses the arguments after the program name. Throws UsageError naming the option and what was wrong.
SampleAppOptions parse_args(std::span<const std::string> args);

}  // namespace nxv::sample_app
