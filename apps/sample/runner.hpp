// nxv-sample's run: picks the backend, builds the model, samples with a progress bar, prints and writes the
// results (outputs.hpp).
#pragma once
#include <cstdio>
#include <filesystem>
#include <vector>

#include "nxv/mcmc.hpp"
#include "sample/options.hpp"

namespace nxv::sample_app {

// The library's sampler options for the app's options (backend: the one given).
mcmc::SampleOptions sampler_options(const SampleAppOptions& o, Backend& backend);

struct RunResult {
  mcmc::Samples samples;
  std::string summary;                       // the table, as printed and as summary.txt holds it
  std::vector<std::filesystem::path> files;  // what was written under --out
};

// Runs the whole program but for the exit status: the log (device, model, progress, summary) goes to `log`
// unless --quiet. Throws UsageError for the user's mistakes (bad data), nxv::Error for everything else.
RunResult run_sampling(const SampleAppOptions& o, std::FILE* log);

}  // namespace nxv::sample_app
