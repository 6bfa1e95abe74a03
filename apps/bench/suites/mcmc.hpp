// Suite `mcmc`: Bayesian logistic regression (and nxv-sample's regime model) sampled with our HMC and NUTS, and with
// NumPyro's (bench/peers/numpyro_mcmc.py) on the same generated data, side by side in the same run.
#pragma once
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/suites/suites.hpp"
#include "nxv/dtype.hpp"

namespace nxv::bench {

// One row group: logistic regression with `features` coefficients (and an intercept) on `observations` rows, or
// the regime model (apps/sample/models.hpp: 8 parameters, 200 observations), `chains` chains, `warmup` + `samples`
// iterations each, in `dtype` (f32 or f64, ours and NumPyro's alike).
struct McmcCase {
  std::int64_t features = 8, observations = 200, chains = 1024, warmup = 500, samples = 500;
  std::vector<std::string> samplers{"hmc", "nuts"};  // the arms run, ours and NumPyro's
  std::string model = "logistic";                    // or "regime"
  DType dtype = DType::f32;
  std::string id() const;     // "k8.n200.c1024", "regime.n200.c1024", "k8.n200.c1024.f64"
  std::string label() const;  // "logistic 8 x 200, 1024 chains"
};

// The cases a run measures: issue 15's (8 x 200 at 16, 1024 and 65536 chains, 100 x 10^4 at 1024 chains, each
// 500 + 500), then issue 17's regime model and 8 x 200 in f64, both at 1024 chains; --quick: 8 x 200 at 16 chains, 100
// + 100 (a minute or two on lavapipe); --smoke: 3 x 50 at 4 chains, 20 + 20. Options::mcmc_runs (--mcmc-runs) keeps
// only the listed cases and samplers of the full set, so that its rows can be measured in separate runs; an id not in
// the set is an nxv::Error naming the flag and the ids.
std::vector<McmcCase> mcmc_cases(const Options& o);
// HMC's leapfrog steps per transition, ours and NumPyro's.
constexpr int kMcmcHmcSteps = 32;

// Writes DIR/<id>.csv (the generated data, apps/sample/data.hpp; the regime model's as columns x, y) for every
// case and DIR/manifest.json, which numpyro_mcmc.py reads: {"num_steps": 32, "cases": [{"id", "model", "dtype",
// "csv", "features", "observations", "chains", "warmup", "samples", "samplers"}]}.
void write_mcmc_peer_inputs(const std::filesystem::path& dir, const std::vector<McmcCase>& cases);

// What one sampler run gives, ours or NumPyro's.
struct McmcResult {
  std::string id;                                           // "<case id>.hmc" / "<case id>.nuts"
  double wall_s = 0;                                        // warm-up and sampling
  double sampling_s = 0;                                    // the sampling phase alone
  double grad_evals = 0;                                    // leapfrog steps of the sampling phase, all chains
  double ess_bulk_min = 0;                                  // the smallest bulk ESS over the parameters
  std::vector<double> means, sds;                           // per parameter element: alpha, beta[0], ...
  double setup_s = 0, first_iteration_s = 0, warmup_s = 0;  // ours only: mcmc::Timing's phases
  double warmup_grad_evals = 0;                             // ours only: leapfrog steps of the warm-up, all chains
  // ours only: Vulkan counters over the sampling phase, per iteration (replays: recorded command buffers run again)
  double dispatches_per_iteration = 0, replays_per_iteration = 0, waits_per_iteration = 0;
  bool chain_shaders = false;  // ours only: every transition ran as a chain shader (NXV_CHAIN_SHADERS)
  // ours only, under NXV_PROFILE=1: the GPU time of the sampling phase's dispatches (NaN without the profile)
  double sampling_gpu_s = std::nan("");
  // ours only: the mean leapfrog steps over the chains / the most of any chain, averaged over the sampling
  // iterations (1: every chain's tree equally long; a chain-shader dispatch lasts as long as its longest tree)
  double tree_balance = 1;
};

// NumPyro's results: available when the script ran with jax and numpyro (exit 0); `status` says why not
// ("skipped: no numpyro" for exit 77 or no python3).
struct NumpyroRun {
  bool available = false;
  std::string status, detail;
  std::vector<McmcResult> results;
};
// The script: bench/peers/numpyro_mcmc.py under the working directory, else under the source tree.
std::string numpyro_script();
NumpyroRun run_numpyro_peer(const Options& o, const std::filesystem::path& dir);

}  // namespace nxv::bench
