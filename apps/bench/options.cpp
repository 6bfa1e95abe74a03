// nxv-bench's command line (options.hpp).
#include "bench/options.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <sstream>

#include "bench/suites/mcmc.hpp"
#include "nxv/error.hpp"

namespace nxv::bench {

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

std::int64_t parse_int(const std::string& flag, const std::string& s) {
  return cli::parse_integer(flag.substr(2), s, 0);
}

namespace {

std::vector<std::int64_t> parse_ints(const std::string& flag, const std::string& s) {
  std::vector<std::int64_t> out;
  for (const std::string& item : split_list(s)) out.push_back(parse_int(flag, item));
  if (out.empty()) throw UsageError(flag + " expects a comma-separated list of integers");
  return out;
}

void check_members(const std::string& flag, const std::vector<std::string>& got, const std::set<std::string>& allowed) {
  for (const std::string& g : got)
    if (!allowed.count(g)) throw UsageError(flag + ": unknown value '" + g + "'");
  if (got.empty()) throw UsageError(flag + " expects a comma-separated list");
}

double parse_fraction(const std::string& flag, const std::string& s) {
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used == s.size() && v >= 0 && v < 1) return v;
  } catch (const std::exception&) {
  }
  throw UsageError(flag + " expects a fraction in [0, 1), e.g. 0.10, got '" + s + "'");
}

}  // namespace

std::map<std::string, std::string> read_flags(const std::vector<std::string>& args) {
  static const std::set<std::string> switches{"help", "smoke", "quick", "gemm-only", "any-device"};
  static const std::set<std::string> with_value{
      "suite",     "json",        "markdown",  "append-results",   "repeat",     "reference-repeat", "warmup-ms",
      "models",    "batches",     "dtypes",    "elements",         "gemm",       "dot-kernels",      "device",
      "python",    "peer-script", "work-dir",  "first-step-child", "batch",      "write-baseline",   "compare",
      "tolerance", "remeasure",   "headlines", "mcmc-runs",        "precisions", "linalg-runs"};
  std::map<std::string, std::string> v;
  for (const auto& [name, value] : cli::read_flags(args, switches, with_value))
    v["--" + name] = switches.count(name) ? "1" : value;
  return v;
}

Command from_flags(std::map<std::string, std::string> v) {
  Command c;
  Options& o = c.options;
  c.help = v.erase("--help") > 0;
  c.given = v;
  const bool smoke = v.count("--smoke") > 0, quick = v.count("--quick") > 0;
  o.smoke = smoke;
  o.quick = quick;
  if (smoke) {
    o.repeat = 3;
    o.reference_repeat = 1;
    o.warmup_ms = 20;
    o.batches = {2};
    o.elements = {1 << 16};
    o.gemm = {64};
  } else {
    o.elements = quick ? std::vector<std::int64_t>{1 << 26} : std::vector<std::int64_t>{1 << 26, 1 << 28};
    o.gemm = quick ? std::vector<std::int64_t>{1024, 4096} : std::vector<std::int64_t>{1024, 4096, 8192};
  }
  if (v.count("--suite") && v["--suite"] != "all") {
    c.suites = split_list(v["--suite"]);
    check_members("--suite", c.suites, {"train", "peers", "kernels", "mcmc", "linalg"});
  }
  c.suites_given = v.count("--suite") > 0;
  if (v.count("--write-baseline")) c.write_baseline = v["--write-baseline"];
  if (v.count("--compare")) c.compare = v["--compare"];
  if (v.count("--headlines")) c.headlines = v["--headlines"];
  if (!c.write_baseline.empty() && !c.compare.empty())
    throw UsageError("--write-baseline and --compare are separate runs: measure a baseline, then compare with it");
  if (v.count("--tolerance")) c.compare_config.tolerance = parse_fraction("--tolerance", v["--tolerance"]);
  if (v.count("--remeasure"))
    c.compare_config.remeasures = static_cast<int>(parse_int("--remeasure", v["--remeasure"]));
  c.any_device = v.count("--any-device") > 0;
  if (v.count("--json")) c.json = v["--json"];
  if (v.count("--markdown")) c.markdown = v["--markdown"];
  if (v.count("--append-results")) c.append = v["--append-results"];
  if (v.count("--repeat")) o.repeat = static_cast<int>(std::max<std::int64_t>(1, parse_int("--repeat", v["--repeat"])));
  if (v.count("--reference-repeat"))
    o.reference_repeat =
        static_cast<int>(std::max<std::int64_t>(1, parse_int("--reference-repeat", v["--reference-repeat"])));
  if (v.count("--warmup-ms")) o.warmup_ms = static_cast<double>(parse_int("--warmup-ms", v["--warmup-ms"]));
  if (v.count("--models")) {
    o.models = split_list(v["--models"]);
    check_members("--models", o.models, {"mlp", "lenet", "cnn"});
  }
  if (v.count("--dtypes")) {
    o.dtypes = split_list(v["--dtypes"]);
    check_members("--dtypes", o.dtypes, {"f32", "f64"});
  }
  if (v.count("--batches")) o.batches = parse_ints("--batches", v["--batches"]);
  if (v.count("--elements")) o.elements = parse_ints("--elements", v["--elements"]);
  if (v.count("--gemm")) o.gemm = parse_ints("--gemm", v["--gemm"]);
  o.gemm_only = v.count("--gemm-only") > 0;
  if (v.count("--dot-kernels")) {
    o.dot_kernels = split_list(v["--dot-kernels"]);
    check_members("--dot-kernels", o.dot_kernels, {"tiled", "mid", "big", "tensor"});
  }
  if (v.count("--precisions")) {
    o.precisions = split_list(v["--precisions"]);
    check_members("--precisions", o.precisions, {"exact", "fast"});
  }
  if (v.count("--linalg-runs")) {
    o.linalg_runs = split_list(v["--linalg-runs"]);
    if (o.linalg_runs.empty()) throw UsageError("--linalg-runs expects a comma-separated list of row ids");
  }
  if (v.count("--mcmc-runs")) {
    o.mcmc_runs = split_list(v["--mcmc-runs"]);
    if (o.mcmc_runs.empty()) throw UsageError("--mcmc-runs expects a comma-separated list of case ids");
    try {
      mcmc_cases(o);  // an unknown id is a usage error now, not after the other suites ran
    } catch (const Error& e) {
      throw UsageError(e.what());
    }
  }
  for (std::int64_t b : o.batches)
    if (b < 1) throw UsageError("--batches: batch sizes must be >= 1");
  if (v.count("--device")) setenv("NXV_DEVICE", v["--device"].c_str(), 1);
  if (v.count("--python")) o.python = v["--python"];
  if (v.count("--peer-script")) o.peer_script = v["--peer-script"];
  if (v.count("--work-dir")) o.work_dir = v["--work-dir"];
  if (v.count("--first-step-child")) c.child_model = v["--first-step-child"];
  if (v.count("--batch")) c.child_batch = std::max<std::int64_t>(1, parse_int("--batch", v["--batch"]));
  return c;
}

}  // namespace nxv::bench
