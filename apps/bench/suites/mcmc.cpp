// Suite `mcmc` (issue 15's Performance section): per case, our HMC (32 steps) and NUTS on Vulkan in f32, then
// NumPyro's in a child process on the same data (written by us to CSV files). Rows: gradient evaluations per
// second of the sampling phase and the smallest bulk ESS per second of the whole run's wall time, ours against
// NumPyro's; target: NUTS ESS/s >= NumPyro's. Checks: the posterior means agree within 5 Monte Carlo standard
// errors. One run per arm: a run is long, and its ESS, not repeats, is what varies.
#include "bench/suites/mcmc.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "bench/child.hpp"
#include "io/json.hpp"
#include "nxv/mcmc.hpp"
#include "nxv/ops.hpp"
#include "nxv/vulkan.hpp"
#include "sample/data.hpp"
#include "sample/models.hpp"

namespace nxv::bench {

namespace {

namespace fs = std::filesystem;
using io::json::quote;

double number(const io::json::Value* v) {
  return v != nullptr && v->kind == io::json::Value::Kind::number ? std::stod(v->text) : std::nan("");
}

std::vector<double> numbers(const io::json::Value* v) {
  std::vector<double> out;
  if (v != nullptr && v->kind == io::json::Value::Kind::array)
    for (const io::json::Value& x : v->items) out.push_back(number(&x));
  return out;
}

McmcResult run_ours(const McmcCase& c, const std::string& sampler, Backend& backend) {
  const sample_app::BuiltinModel m =
      c.model == "regime" ? sample_app::regime_model(sample_app::generate_regime_data(), c.dtype, backend)
                          : sample_app::logistic_regression(
                                sample_app::generate_logistic_data(c.features, c.observations), c.dtype, backend);
  mcmc::SampleOptions s;
  s.sampler = sampler == "hmc" ? mcmc::Sampler::hmc : mcmc::Sampler::nuts;
  s.chains = c.chains;
  s.warmup = c.warmup;
  s.samples = c.samples;
  s.dtype = c.dtype;
  s.backend = &backend;
  s.num_steps = kMcmcHmcSteps;
  // One callback at the end of warm-up (and a few after): it starts the sampling phase's clock.
  s.progress_every = std::max<std::int64_t>(1, c.warmup);
  const Clock::time_point start = Clock::now();
  Clock::time_point sampling_start = start;
  vulkan::Counters at_sampling_start = vulkan::counters();
  s.on_progress = [&](const mcmc::Progress& p) {
    if (p.warmup && p.iteration == c.warmup) {
      sampling_start = Clock::now();
      at_sampling_start = vulkan::counters();
      vulkan::reset_kernel_profile();  // NXV_PROFILE: the sampling phase's GPU time alone
    }
  };
  const mcmc::Samples r = mcmc::sample(m.model, s);
  const vulkan::Counters at_end = vulkan::counters();
  McmcResult out;
  out.id = c.id() + "." + sampler;
  out.grad_evals = sum(as_type(r.num_steps, DType::f64)).item();  // reads back: the run is over
  const std::vector<vulkan::KernelProfile> profile = vulkan::kernel_profile();
  if (!profile.empty()) {
    double ms = 0;
    for (const vulkan::KernelProfile& k : profile) ms += k.gpu_ms;
    out.sampling_gpu_s = ms / 1e3;
  }
  const Tensor steps = as_type(r.num_steps, DType::f64);  // [samples, chains]
  out.tree_balance =
      sum(mean(steps, Axes{1}) / max(reduce_max(steps, Axes{1}), ones({}, DType::f64, steps.backend()))).item() /
      static_cast<double>(std::max<std::int64_t>(1, steps.dim(0)));
  out.wall_s = seconds_since(start);
  out.sampling_s = std::chrono::duration<double>(Clock::now() - sampling_start).count();
  out.setup_s = r.timing.setup;
  out.first_iteration_s = r.timing.first_iteration;
  out.warmup_s = r.timing.warmup;
  out.warmup_grad_evals = static_cast<double>(r.warmup_gradient_evaluations);
  out.chain_shaders = r.chain_shaders;
  const auto per_iteration = [&](std::uint64_t end, std::uint64_t begin) {
    return static_cast<double>(end - begin) / static_cast<double>(c.samples);
  };
  out.dispatches_per_iteration = per_iteration(at_end.dispatches, at_sampling_start.dispatches);
  out.replays_per_iteration = per_iteration(at_end.replays, at_sampling_start.replays);
  out.waits_per_iteration = per_iteration(at_end.fence_waits, at_sampling_start.fence_waits);
  out.ess_bulk_min = INFINITY;
  for (const std::string& name : r.names) {
    const Tensor& d = r.draws.at(name);
    const Tensor flat = reshape(d, {d.dim(0), d.dim(1), -1});
    for (double e : as_type(mcmc::ess_bulk(flat), DType::f64).to_vector<double>())
      out.ess_bulk_min = std::min(out.ess_bulk_min, e);
    const std::vector<double> means = as_type(mcmc::draws_mean(flat), DType::f64).to_vector<double>();
    const std::vector<double> sds = as_type(mcmc::draws_sd(flat), DType::f64).to_vector<double>();
    out.means.insert(out.means.end(), means.begin(), means.end());
    out.sds.insert(out.sds.end(), sds.begin(), sds.end());
  }
  return out;
}

Measurement one_run(const std::string& arm, double work, double seconds) {
  Measurement m{arm, summarize({seconds}), 0, 0, 0};
  m.value = m.p10 = m.p90 = work / seconds;
  return m;
}

// The largest |mean_ours - mean_theirs| over the parameters, in Monte Carlo standard errors of the difference
// (sd * sqrt(1 / ESS_ours + 1 / ESS_theirs), with each run's smallest bulk ESS: conservative).
Check means_agree(const std::string& what, const McmcResult& ours, const McmcResult& theirs) {
  double worst = ours.means.size() == theirs.means.size() ? 0 : INFINITY;
  for (std::size_t j = 0; j < ours.means.size() && j < theirs.means.size(); ++j) {
    const double se = ours.sds[j] * std::sqrt(1 / ours.ess_bulk_min + 1 / theirs.ess_bulk_min);
    const double z = std::abs(ours.means[j] - theirs.means[j]) / se;
    worst = std::isnan(z) ? INFINITY : std::max(worst, z);
  }
  return {what, worst, 0, worst, 5.0};
}

}  // namespace

std::string McmcCase::id() const {
  const std::string shape = model == "regime" ? "regime" : "k" + std::to_string(features);
  return shape + ".n" + std::to_string(observations) + ".c" + std::to_string(chains) +
         (dtype == DType::f32 ? "" : "." + std::string(name(dtype)));
}

std::string McmcCase::label() const {
  const std::string shape =
      model == "regime" ? "regime " : "logistic " + std::to_string(features) + " x " + std::to_string(observations);
  return shape + (model == "regime" ? std::to_string(observations) + " observations" : "") + ", " +
         std::to_string(chains) + " chains" + (dtype == DType::f32 ? "" : ", " + std::string(name(dtype)));
}

std::vector<McmcCase> mcmc_cases(const Options& o) {
  if (o.smoke) return {{3, 50, 4, 20, 20}};
  if (o.quick) return {{8, 200, 16, 100, 100}};
  McmcCase regime{8, 200, 1024, 500, 500};
  regime.model = "regime";
  McmcCase in_f64{8, 200, 1024, 500, 500};
  in_f64.dtype = DType::f64;
  const std::vector<McmcCase> all{{8, 200, 1024, 500, 500},
                                  {100, 10000, 1024, 500, 500},
                                  {8, 200, 16, 500, 500},
                                  {8, 200, 65536, 500, 500},
                                  regime,
                                  in_f64};
  if (o.mcmc_runs.empty()) return all;
  std::vector<McmcCase> kept;
  for (const std::string& run : o.mcmc_runs) {
    const auto dot = run.rfind('.');
    const std::string tail = dot == std::string::npos ? "" : run.substr(dot + 1);
    const bool one_sampler = tail == "hmc" || tail == "nuts";
    const std::string id = one_sampler ? run.substr(0, dot) : run;
    const auto has_id = [&](const McmcCase& c) { return c.id() == id; };
    const auto found = std::find_if(all.begin(), all.end(), has_id);
    if (found == all.end()) {
      std::string known;
      for (const McmcCase& c : all) known += (known.empty() ? "" : ", ") + c.id();
      detail::fail("--mcmc-runs: no case '", id, "'; the cases are ", known,
                   ", each optionally followed by .hmc or .nuts");
    }
    auto existing = std::find_if(kept.begin(), kept.end(), has_id);
    if (existing == kept.end()) {
      kept.push_back(*found);
      existing = kept.end() - 1;
      existing->samplers.clear();
    }
    for (const std::string& s : one_sampler ? std::vector<std::string>{tail} : found->samplers)
      if (std::find(existing->samplers.begin(), existing->samplers.end(), s) == existing->samplers.end())
        existing->samplers.push_back(s);
  }
  return kept;
}

void write_mcmc_peer_inputs(const fs::path& dir, const std::vector<McmcCase>& cases) {
  fs::create_directories(dir);
  std::ostringstream m;
  m << "{\"num_steps\": " << kMcmcHmcSteps << ", \"cases\": [";
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const McmcCase& c = cases[i];
    const fs::path csv = dir / (c.id() + ".csv");
    if (c.model == "regime") {
      const sample_app::RegimeData d = sample_app::generate_regime_data();
      std::ofstream out(csv);
      out << "x,y\n";
      char row[64];
      for (std::size_t j = 0; j < d.x.size(); ++j) {
        std::snprintf(row, sizeof row, "%.17g,%.17g\n", d.x[j], d.y[j]);
        out << row;
      }
    } else {
      sample_app::write_logistic_csv(csv, sample_app::generate_logistic_data(c.features, c.observations));
    }
    m << (i ? ", " : "") << "{\"id\": " << quote(c.id()) << ", \"model\": " << quote(c.model)
      << ", \"dtype\": " << quote(std::string(name(c.dtype))) << ", \"csv\": " << quote(csv.string())
      << ", \"features\": " << (c.model == "regime" ? 1 : c.features) << ", \"observations\": " << c.observations
      << ", \"chains\": " << c.chains << ", \"warmup\": " << c.warmup << ", \"samples\": " << c.samples
      << ", \"samplers\": [";
    for (std::size_t s = 0; s < c.samplers.size(); ++s) m << (s ? ", " : "") << quote(c.samplers[s]);
    m << "]}";
  }
  m << "]}\n";
  std::ofstream(dir / "manifest.json") << m.str();
}

std::string numpyro_script() {
  const fs::path here = "bench/peers/numpyro_mcmc.py";
  if (fs::exists(here)) return here.string();
  return std::string(NXV_SOURCE_DIR) + "/bench/peers/numpyro_mcmc.py";
}

NumpyroRun run_numpyro_peer(const Options& o, const fs::path& dir) {
  const fs::path json_file = dir / "numpyro.json";
  const ChildResult child = run_child({o.python, numpyro_script(), "--in", dir.string(), "--json", json_file.string()});
  NumpyroRun run;
  std::string output = child.output;
  while (!output.empty() && (output.back() == '\n' || output.back() == ' ')) output.pop_back();
  run.detail = output;
  if (child.exit_code == 77 || child.exit_code == 127) {
    run.status = "skipped: no numpyro";
    if (child.exit_code == 127) run.detail = "no python3: " + output;
    return run;
  }
  if (child.exit_code != 0) {
    run.status = "failed: numpyro_mcmc.py exited with " + std::to_string(child.exit_code);
    return run;
  }
  std::ifstream in(json_file);
  std::stringstream text;
  text << in.rdbuf();
  try {
    const io::json::Value root = io::json::parse(text.str());
    const io::json::Value* numpyro = root.find("numpyro");
    const io::json::Value* device = root.find("device");
    run.detail = "numpyro " + (numpyro ? numpyro->text : std::string("?")) + " on " + (device ? device->text : "?");
    const io::json::Value* results = root.find("results");
    NXV_CHECK(results != nullptr && results->kind == io::json::Value::Kind::array, "nxv-bench", json_file.string(),
              " has no \"results\" array");
    for (const io::json::Value& r : results->items) {
      const io::json::Value* id = r.find("id");
      NXV_CHECK(id != nullptr, "nxv-bench", json_file.string(), ": a result lacks \"id\"");
      run.results.push_back({id->text, number(r.find("wall_s")), number(r.find("sampling_s")),
                             number(r.find("grad_evals")), number(r.find("ess_bulk_min")), numbers(r.find("means")),
                             numbers(r.find("sds"))});
    }
    run.available = true;
  } catch (const Error& e) {
    run.status = std::string("failed: reading numpyro_mcmc.py's output: ") + e.what();
  }
  return run;
}

SuiteReport run_mcmc_suite(const Options& o) {
  SuiteReport report{"mcmc", "ok", {}, {}, {}, {}};
  const fs::path dir = fs::path(o.work_dir) / "mcmc";
  const std::vector<McmcCase> cases = mcmc_cases(o);
  write_mcmc_peer_inputs(dir, cases);
  Backend& gpu = vulkan::backend();
  sum(ones({4}, DType::f32, gpu)).item();  // the device's start-up is not a sampler's time
  std::vector<McmcResult> ours;
  for (const McmcCase& c : cases)
    for (const std::string& sampler : c.samplers) {
      std::fprintf(stderr, "[mcmc] %s: our %s\n", c.label().c_str(), sampler.c_str());
      ours.push_back(run_ours(c, sampler, gpu));
      const McmcResult& r = ours.back();  // on stderr at once: a run cut short still leaves its numbers
      std::fprintf(stderr,
                   "[mcmc] %s: wall %.3g s (set-up %.3g, first iteration %.3g, warm-up %.3g with %.6g grad evals), "
                   "sampling %.3g s, %.6g grad evals, min bulk ESS %.6g; per sampling iteration: %.1f dispatches, "
                   "%.1f replays, %.1f fence waits; tree balance %.3g; %s\n",
                   r.id.c_str(), r.wall_s, r.setup_s, r.first_iteration_s, r.warmup_s, r.warmup_grad_evals,
                   r.sampling_s, r.grad_evals, r.ess_bulk_min, r.dispatches_per_iteration, r.replays_per_iteration,
                   r.waits_per_iteration, r.tree_balance,
                   r.chain_shaders ? "chain shaders" : "vectorized (NXV_CHAIN_SHADERS=0 or not generated)");
      if (!std::isnan(r.sampling_gpu_s)) {
        const double steps_per_chain = r.grad_evals / static_cast<double>(c.chains);
        std::fprintf(stderr,
                     "[mcmc] %s: NXV_PROFILE: sampling phase %.3g s of GPU time; per leapfrog step %.3g us "
                     "(every chain at once), %.3g ns per chain\n",
                     r.id.c_str(), r.sampling_gpu_s, 1e6 * r.sampling_gpu_s / steps_per_chain,
                     1e9 * r.sampling_gpu_s / r.grad_evals);
      }
    }
  vulkan::release_cached_memory();  // leave the device memory to JAX
  const NumpyroRun peer = run_numpyro_peer(o, dir);
  if (!peer.available) {
    report.status = peer.status;
    report.notes.push_back(peer.detail);
  } else {
    report.notes.push_back("NumPyro: " + peer.detail);
  }
  std::vector<std::vector<std::string>> table{
      {"run", "path", "wall s", "sampling s", "grad evals", "min bulk ESS", "NumPyro wall s", "NumPyro min bulk ESS"}};
  std::size_t k = 0;
  for (const McmcCase& c : cases)
    for (const std::string& sampler : c.samplers) {
      const McmcResult& r = ours[k++];
      const McmcResult* theirs = nullptr;
      for (const McmcResult& p : peer.results)
        if (p.id == r.id) theirs = &p;
      const std::string what = c.label() + ", " + sampler + (sampler == "hmc" ? " (32 steps)" : "");
      Row grads{"mcmc." + r.id + ".grad_evals",
                what + ": gradient evaluations per second of the sampling phase",
                "grad evals/s",
                one_run("nx_vulkan", r.grad_evals, r.sampling_s),
                std::nullopt,
                "ours / NumPyro's",
                std::nullopt,
                ""};
      Row ess{"mcmc." + r.id + ".ess",
              what + ": smallest bulk ESS per second of wall time",
              "ESS/s",
              one_run("nx_vulkan", r.ess_bulk_min, r.wall_s),
              std::nullopt,
              "ours / NumPyro's",
              std::nullopt,
              ""};
      if (theirs != nullptr) {
        // Issue 17's targets for the chain shaders (issue 15's, for the vectorized path, was NUTS ESS/s >= 1x).
        if (sampler == "hmc") grads.target = Target{">=", 10.0};
        if (sampler == "nuts") ess.target = Target{">=", r.chain_shaders ? 5.0 : 1.0};
        grads.b = one_run("NumPyro", theirs->grad_evals, theirs->sampling_s);
        ess.b = one_run("NumPyro", theirs->ess_bulk_min, theirs->wall_s);
        report.checks.push_back(
            means_agree(what + ": posterior means, ours vs NumPyro's (max |diff| in MC s.e.)", r, *theirs));
      } else if (peer.available) {
        report.status = "failed: numpyro_mcmc.py gave no result for " + r.id;
      }
      report.rows.push_back(std::move(grads));
      report.rows.push_back(std::move(ess));
      table.push_back({r.id, r.chain_shaders ? "chain shaders" : "vectorized", format_number(r.wall_s),
                       format_number(r.sampling_s), format_number(r.grad_evals), format_number(r.ess_bulk_min),
                       theirs ? format_number(theirs->wall_s) : "-",
                       theirs ? format_number(theirs->ess_bulk_min) : "-"});
    }
  report.tables.emplace_back("mcmc runs", std::move(table));
  report.notes.push_back(
      "The case's dtype on both sides (f32 unless the id ends in .f64); logistic: priors alpha, beta ~ Normal(0, 1), "
      "Bernoulli-logit likelihood; regime: apps/sample/models.hpp; "
      "NumPyro's NUTS with chain_method=\"vectorized\", its HMC with num_steps 32; one run per arm.");
  return report;
}

}  // namespace nxv::bench
