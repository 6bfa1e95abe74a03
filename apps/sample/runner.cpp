#include "sample/runner.hpp"

#include <memory>

#include "common/progress.hpp"
#include "core/settings.hpp"
#include "nxv/vulkan.hpp"
#include "sample/models.hpp"
#include "sample/outputs.hpp"

namespace nxv::sample_app {

namespace {

// Vulkan when asked for (--device vulkan, or NXV_DEVICE names one: a name that matches nothing is an error, never a
// silent run on the CPU) or when a device is usable; else the reference backend.
Backend& pick_backend(const std::string& device, std::FILE* log) {
  if (device == "reference") return reference_backend();
  if (device == "vulkan" || settings::is_set(settings::Id::DEVICE) || vulkan::available()) {
    Backend& b = vulkan::backend();
    if (log) std::fprintf(log, "device: vulkan, %s\n", vulkan::list_devices()[vulkan::pick_device()].name.c_str());
    return b;
  }
  if (log) std::fprintf(log, "note: no usable Vulkan device, sampling on the reference (CPU) backend\n");
  return reference_backend();
}

// One bar for warm-up, then one for sampling, fed by SampleOptions::on_progress: iterations/s (of every chain
// together, one iteration = one transition of all chains) and the divergences so far.
class SamplingProgress {
 public:
  SamplingProgress(const SampleAppOptions& o, std::FILE* log) : o_(o), log_(log) {}
  void operator()(const mcmc::Progress& p) {
    if (log_ == nullptr) return;
    const bool warm = p.warmup && o_.warmup > 0;
    if (warm && !warmup_) warmup_ = make_bar(o_.warmup, "warm-up ");
    if (!warm && !sampling_) {
      if (warmup_) warmup_->finish();
      sampling_ = make_bar(o_.samples, "sampling");
    }
    io::ProgressBar& bar = warm ? *warmup_ : *sampling_;
    const std::int64_t step = warm ? p.iteration : p.iteration - o_.warmup;
    bar.update(step, {{"divergences", static_cast<double>(p.divergences), true}}, step);
  }
  void finish() {
    if (warmup_) warmup_->finish();
    if (sampling_) sampling_->finish();
  }

 private:
  std::unique_ptr<io::ProgressBar> make_bar(std::int64_t total, const char* label) {
    auto bar = std::make_unique<io::ProgressBar>(total, label, log_);
    bar->set_rate_unit("iterations/s");
    return bar;
  }
  SampleAppOptions o_;
  std::FILE* log_;
  std::unique_ptr<io::ProgressBar> warmup_, sampling_;
};

}  // namespace

mcmc::SampleOptions sampler_options(const SampleAppOptions& o, Backend& backend) {
  mcmc::SampleOptions s;
  s.sampler = o.sampler == "hmc" ? mcmc::Sampler::hmc : mcmc::Sampler::nuts;
  s.chains = o.chains;
  s.warmup = o.warmup;
  s.samples = o.samples;
  s.seed = o.seed;
  s.dtype = o.dtype;
  s.backend = &backend;
  s.num_steps = o.num_steps;
  s.max_tree_depth = o.max_tree_depth;
  s.target_accept = o.target_accept;
  s.progress_every = 1;  // the bar redraws at most every 100 ms, whatever the rate of updates
  return s;
}

RunResult run_sampling(const SampleAppOptions& o, std::FILE* log) {
  std::FILE* out = o.quiet ? nullptr : log;
  Backend& backend = pick_backend(o.device, out);
  const BuiltinModel built = make_model(o, backend);
  if (out)
    std::fprintf(out, "model: %s\nsampler: %s, %lld chains, %lld warm-up + %lld draws each, %s, seed %llu\n",
                 built.about.c_str(), o.sampler.c_str(), static_cast<long long>(o.chains),
                 static_cast<long long>(o.warmup), static_cast<long long>(o.samples),
                 std::string(name(o.dtype)).c_str(), static_cast<unsigned long long>(o.seed));
  mcmc::SampleOptions s = sampler_options(o, backend);
  auto progress = std::make_shared<SamplingProgress>(o, out);
  s.on_progress = [progress](const mcmc::Progress& p) { (*progress)(p); };
  RunResult r;
  r.samples = mcmc::sample(built.model, s);
  progress->finish();
  r.summary = r.samples.summary().to_string();
  if (r.samples.warmup_divergences > 0)
    r.summary += "(and " + std::to_string(r.samples.warmup_divergences) + " during warm-up)\n";
  if (out) {
    const mcmc::Timing& t = r.samples.timing;
    std::fprintf(out,
                 "\n%s\ntime: %.2f s set-up, %.2f s first iteration (tracing and compiling), %.2f s warm-up, "
                 "%.2f s sampling\n",
                 r.summary.c_str(), t.setup, t.first_iteration, t.warmup, t.sampling);
  }
  const std::map<std::string, std::string> metadata{{"model", built.name},
                                                    {"sampler", o.sampler},
                                                    {"chains", std::to_string(o.chains)},
                                                    {"warmup", std::to_string(o.warmup)},
                                                    {"samples", std::to_string(o.samples)},
                                                    {"seed", std::to_string(o.seed)},
                                                    {"dtype", std::string(name(o.dtype))}};
  r.files = write_outputs(o.out, r.samples, r.summary, metadata);
  if (out) std::fprintf(out, "wrote %zu files to %s\n", r.files.size(), o.out.string().c_str());
  return r;
}

}  // namespace nxv::sample_app
