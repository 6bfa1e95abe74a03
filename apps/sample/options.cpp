#include "sample/options.hpp"

#include <cmath>

namespace nxv::sample_app {

const char* const kUsage =
    "usage: nxv-sample [options]        draw from a built-in Bayesian model's posterior with HMC or NUTS\n"
    "options:\n"
    "  --model NAME              eight_schools | logistic | hierarchical | regime (default eight_schools)\n"
    "  --data FILE.csv           logistic: a header line, then rows of features with the 0/1 label last\n"
    "                            (default: generated data, see --features and --observations)\n"
    "  --features K              generated logistic data: K features (default 8)\n"
    "  --observations N          generated logistic data: N rows (default 200)\n"
    "  --chains N                chains, all run at once (default 4)\n"
    "  --warmup N                warm-up iterations per chain, adapting step size and mass matrix (default 1000)\n"
    "  --samples N               draws per chain after warm-up (default 1000)\n"
    "  --seed N                  (default 0); a run is reproducible bit for bit\n"
    "  --dtype f32|f64           (default f64)\n"
    "  --device vulkan|reference where to compute (default: Vulkan if a device is usable, else reference)\n"
    "  --sampler hmc|nuts        (default nuts)\n"
    "  --num-steps N             hmc: leapfrog steps per transition (default 32)\n"
    "  --max-tree-depth N        nuts: the largest tree depth, 1 to 30 (default 10)\n"
    "  --target-accept X         the acceptance statistic warm-up aims at, 0 < X < 1 (default 0.8)\n"
    "  --out DIR                 draws.csv, draws.safetensors, summary.txt, trace_*.png, rank_*.png\n"
    "                            (default out/sample)\n"
    "  --quiet                   no progress bar and no summary on stdout (the files are still written)\n"
    "  --help                    this text\n"
    "exit status: 0 done, 1 an error while sampling, 2 a command-line or data-file mistake\n";

namespace {

using cli::one_of;
using cli::parse_integer;
using cli::usage_error;

double parse_open_fraction(const std::string& option, const std::string& text) {
  const double v = cli::parse_number(option, text);
  if (!(v > 0 && v < 1)) usage_error("--" + option + " must be strictly between 0 and 1, got " + text);
  return v;
}

// 10^7 chains or iterations is far past what fits a GPU's memory; larger numbers are typos.
constexpr std::int64_t kMaxCount = 10'000'000;

const cli::Setters<SampleAppOptions>& setters() {
  static const cli::Setters<SampleAppOptions> table{
      {"model",
       [](SampleAppOptions& o, const std::string& v) {
         o.model = one_of("model", v, {"eight_schools", "logistic", "hierarchical", "regime"});
       }},
      {"data",
       [](SampleAppOptions& o, const std::string& v) {
         if (v.empty()) usage_error("--data needs a file name");
         o.data = v;
       }},
      {"features",
       [](SampleAppOptions& o, const std::string& v) { o.features = parse_integer("features", v, 1, 100'000); }},
      {"observations", [](SampleAppOptions& o,
                          const std::string& v) { o.observations = parse_integer("observations", v, 1, kMaxCount); }},
      {"chains",
       [](SampleAppOptions& o, const std::string& v) { o.chains = parse_integer("chains", v, 1, kMaxCount); }},
      {"warmup",
       [](SampleAppOptions& o, const std::string& v) { o.warmup = parse_integer("warmup", v, 0, kMaxCount); }},
      {"samples",
       [](SampleAppOptions& o, const std::string& v) { o.samples = parse_integer("samples", v, 1, kMaxCount); }},
      {"seed", [](SampleAppOptions& o,
                  const std::string& v) { o.seed = static_cast<std::uint64_t>(parse_integer("seed", v, 0)); }},
      {"dtype",
       [](SampleAppOptions& o, const std::string& v) {
         o.dtype = one_of("dtype", v, {"f32", "f64"}) == "f32" ? DType::f32 : DType::f64;
       }},
      {"device",
       [](SampleAppOptions& o, const std::string& v) {
         o.device = one_of("device", v, {"vulkan", "reference"});
       }},
      {"sampler",
       [](SampleAppOptions& o, const std::string& v) {
         o.sampler = one_of("sampler", v, {"hmc", "nuts"});
       }},
      {"num-steps",
       [](SampleAppOptions& o, const std::string& v) {
         o.num_steps = static_cast<int>(parse_integer("num-steps", v, 1, 100'000));
       }},
      {"max-tree-depth",
       [](SampleAppOptions& o, const std::string& v) {
         o.max_tree_depth = static_cast<int>(parse_integer("max-tree-depth", v, 1, 30));
       }},
      {"target-accept",
       [](SampleAppOptions& o, const std::string& v) { o.target_accept = parse_open_fraction("target-accept", v); }},
      {"out",
       [](SampleAppOptions& o, const std::string& v) {
         if (v.empty()) usage_error("--out needs a directory name");
         o.out = v;
       }},
  };
  return table;
}

}  // namespace

SampleAppOptions parse_args(std::span<const std::string> args) {
  SampleAppOptions o;
  cli::parse_flags(args, setters(), {{"help", &SampleAppOptions::help}, {"quiet", &SampleAppOptions::quiet}}, o);
  // Options that the chosen model or sampler would silently ignore are mistakes.
  for (const char* option : {"data", "features", "observations"})
    if (o.given.count(option) && o.model != "logistic")
      usage_error("--" + std::string(option) + " applies to --model logistic (the model is " + o.model + ")");
  if (o.given.count("data") && (o.given.count("features") || o.given.count("observations")))
    usage_error("--features and --observations describe generated data; --data reads it from a file");
  if (o.given.count("num-steps") && o.sampler != "hmc")
    usage_error("--num-steps applies to --sampler hmc (the sampler is " + o.sampler + ")");
  if (o.given.count("max-tree-depth") && o.sampler != "nuts")
    usage_error("--max-tree-depth applies to --sampler nuts (the sampler is " + o.sampler + ")");
  return o;
}

}  // namespace nxv::sample_app
