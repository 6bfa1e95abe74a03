// nxv-bench: the benchmark suites (apps/bench/suites/): training steps on Vulkan against the reference
// backend and against NXV_BATCH_MAX=0, the same steps in PyTorch, and kernel-level costs. Tables go to stdout (and
// --markdown), every raw sample to --json, an entry with date, commit and device to --append-results, the rows'
// values to a baseline (--write-baseline), or measured again against one (--compare); progress to stderr. Exit
// status: 0 when every check passed, 1 when a check or a suite failed or a row regressed, 2 for a bad command line
// or a baseline of another device.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bench/baseline.hpp"
#include "bench/compare.hpp"
#include "bench/headlines.hpp"
#include "bench/options.hpp"
#include "bench/report.hpp"
#include "bench/suites/suites.hpp"
#include "core/settings.hpp"
#include "nxv/error.hpp"
#include "nxv/vulkan.hpp"

#include "git_commit.hpp"  // NXV_GIT_COMMIT, written at build time (cmake/git_commit.cmake)

namespace {

namespace fs = std::filesystem;
using namespace nxv::bench;

constexpr const char* kHelp = R"(usage: nxv-bench [options]

Benchmarks nx_vulkan on the picked Vulkan device. Each suite runs its arms alternately (A B A B ...) after a
warm-up and reports medians (p10-p90) and ratios; results are checked against the reference backend first.
A value follows its flag as the next argument or after '=' (--suite=mcmc); each flag at most once.

  --suite LIST            train, peers, kernels, mcmc, linalg, or all (default all: train, peers, kernels); comma-separated
                            train:   value_and_grad + SGD + loss read back of mlp, lenet, cnn at batch 32 and 256,
                                     f32 and f64: Vulkan vs NXV_BATCH_MAX=0 vs the reference backend
                            peers:   the same steps (f32) in PyTorch, eager and torch.compile(mode="reduce-overhead"),
                                     via bench/peers/torch_step.py; "skipped: no torch" without python3 or torch
                            kernels: dispatch/submit/record costs, f32 add and sum vs copy (GB/s), f32/f64/bf16/f16 GEMM
                                     (TFLOP/s), a conv layer, cold vs warm start; with torch, the same in PyTorch
                            mcmc:    Bayesian logistic regression, our HMC (32 steps) and NUTS vs NumPyro's
                                     (bench/peers/numpyro_mcmc.py): gradient evaluations/s, bulk ESS/s;
                                     "skipped: no numpyro" without jax and numpyro (not in all: minutes per case)
                            linalg:  cholesky, solve, lu, qr, eigh, svd on 10^5 matrices of 8, 16, 32 and one of 512
                                     (matrices/s), f32, vs torch.linalg in the same run; fft of one 2^24-point and
                                     1024 x 4096 c64 rows (transforms/s) vs torch.fft (not in all)
  --json FILE             every raw sample, as JSON
  --markdown FILE         the tables, as Markdown (they are also printed on stdout)
  --append-results FILE   append date, commit, device, driver, the command and the tables (bench/RESULTS.md)
  --repeat N              timed samples per arm (default 20; --smoke 3)
  --reference-repeat N    samples of the reference backend's arm (default 3; --smoke 1)
  --warmup-ms N           GPU work before each timed section (default 300; --smoke 20)
  --smoke                 tiny sizes and few repeats: seconds on lavapipe (CI)
  --quick                 kernels: 2^26 elements only, GEMM up to 4096; mcmc: 8 x 200 at 16 chains, 100 + 100
  --models LIST           train/peers models (default mlp,lenet,cnn)
  --batches LIST          train/peers batch sizes (default 32,256; --smoke 2)
  --dtypes LIST           train dtypes (default f32,f64)
  --elements LIST         kernels: elementwise sizes (default 67108864,268435456)
  --gemm LIST             kernels: square GEMM sizes (default 1024,4096,8192)
  --gemm-only             kernels: only the GEMM rows (no other kernels, no PyTorch)
  --dot-kernels LIST      kernels: one GEMM arm per listed dot variant (tiled, mid, big, tensor), alternated in one run
  --precisions LIST       kernels: GEMM arms per dot precision (default exact,fast; include/nxv/precision.hpp)
  --linalg-runs LIST      linalg: only these rows (ids <fn>.<n>.b<batch>, e.g. cholesky.4096.b1; the full set adds
                            cholesky and lu 4096² to the batched rows and the 512² ones)
  --mcmc-runs LIST        mcmc: only these of the full set's runs (k8.n200.c1024, k100.n10000.c1024, k8.n200.c16,
                            k8.n200.c65536, regime.n200.c1024, k8.n200.c1024.f64; a case id alone runs HMC and
                            NUTS, ID.hmc or ID.nuts one of them)
  --device D              the Vulkan device: an index or a name substring (sets NXV_DEVICE)
  --python P              the Python interpreter for the peers (default python3)
  --peer-script FILE      default bench/peers/torch_step.py (here, else in the source tree)
  --work-dir DIR          where exports and cache dirs go (default a temporary directory, removed afterwards)
  --help                  this text

Baselines (bench/baseline.json; the README's Performance section says when to compare):
  --write-baseline FILE   write the suites run into FILE (the suites already in it are kept, a suite run replaces
                            its own), with the device, driver, commit, date, command and measurement options
  --compare FILE          run the suites of FILE (or those of --suite) with the options they were measured with
                            (options given here override them) and compare every row: a time more than the
                            tolerance above its baseline, or a rate more than it below, is measured again and
                            flagged REGRESSED (exit status 1) if it stays worse; missing rows are listed
  --tolerance X           the fraction a row may be worse before it counts (default 0.10)
  --remeasure N           re-measures of a row that looks regressed before it is flagged (default 2)
  --any-device            compare with (or write into) a baseline measured on another device
  --headlines FILE        print the README's Performance table from baseline FILE (no measuring)

Environment: NXV_GIT_COMMIT overrides the commit recorded (default: the one nxv-bench was built from, "-dirty" with
uncommitted changes).
)";

std::string shell_quote(const std::string& s) {
  if (!s.empty() &&
      s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=,:") == std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
  return buf;
}

std::string api_version(std::uint32_t v) {
  return std::to_string((v >> 22) & 0x7F) + "." + std::to_string((v >> 12) & 0x3FF) + "." + std::to_string(v & 0xFFF);
}

void write_file(const std::string& path, const std::string& text, bool append) {
  std::ofstream out(path, append ? std::ios::app : std::ios::trunc);
  out << text;
  if (!out) throw nxv::Error("nxv-bench: cannot write " + path);
}

// The picked device and the run's date, commit and command; sets up the work directory.
struct Session {
  RunInfo info;
  std::string work_dir;
  bool temporary = false;
};

Session start_session(const Command& c, int argc, char** argv) {
  Session s;
  s.work_dir = c.options.work_dir;
  if (s.work_dir.empty()) {
    std::string pattern = (fs::temp_directory_path() / "nxv-bench-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw nxv::Error("nxv-bench: cannot create a temporary directory");
    s.work_dir = pattern;
    s.temporary = true;
  }
  fs::create_directories(s.work_dir);

  const auto devices = nxv::vulkan::list_devices();
  std::string reason;
  const int picked = nxv::vulkan::pick_device(&reason);
  const nxv::vulkan::DeviceDescription& d = devices.at(static_cast<std::size_t>(picked));
  RunInfo& info = s.info;
  info.date = utc_now();
  info.commit = nxv::settings::is_set(nxv::settings::Id::GIT_COMMIT)
                    ? nxv::settings::value(nxv::settings::Id::GIT_COMMIT)
                    : NXV_GIT_COMMIT;
  for (int i = 0; i < argc; ++i) info.command += (i ? " " : "") + shell_quote(i == 0 ? "nxv-bench" : argv[i]);
  info.device = d.name;
  info.driver = d.driver_name + (d.driver_info.empty() ? "" : " " + d.driver_info);
  info.vulkan_api = api_version(d.api_version);
  for (const auto& [k, val] : c.given) info.options[k] = val;
  std::fprintf(stderr, "nxv-bench: %s (%s), %s\n", d.name.c_str(), info.driver.c_str(), reason.c_str());
  return s;
}

SuiteReport run_suite(const std::string& suite, Options o, const std::string& work_dir) {
  o.work_dir = work_dir;
  const nxv::bench::Clock::time_point start = nxv::bench::Clock::now();
  SuiteReport report;
  try {
    if (suite == "train") report = run_train_suite(o);
    if (suite == "peers") report = run_peers_suite(o);
    if (suite == "kernels") report = run_kernels_suite(o);
    if (suite == "mcmc") report = run_mcmc_suite(o);
    if (suite == "linalg") report = run_linalg_suite(o);
  } catch (const std::exception& e) {
    report = SuiteReport{suite, std::string("failed: ") + e.what(), {}, {}, {}, {}};
  }
  std::fprintf(stderr, "nxv-bench: suite %s: %s (%.1f s)\n", suite.c_str(), report.status.c_str(),
               nxv::bench::seconds_since(start));
  return report;
}

// Each ok suite goes into the baseline file; a skipped one is left as it was there, a failed one is refused.
void write_baseline(const Command& c, const RunInfo& info, const std::vector<SuiteReport>& reports) {
  Baseline b;
  if (fs::exists(c.write_baseline)) b = read_baseline(c.write_baseline);
  for (const SuiteReport& r : reports) {
    if (r.status != "ok" || r.failed()) {
      std::fprintf(stderr, "nxv-bench: suite %s (%s) not written to %s\n", r.name.c_str(), r.status.c_str(),
                   c.write_baseline.c_str());
      continue;
    }
    merge(b, baseline_suite(info, r), c.any_device);
  }
  write_file(c.write_baseline, to_json(b), false);
  std::fprintf(stderr, "nxv-bench: wrote %s\n", c.write_baseline.c_str());
}

int run(const Command& c, int argc, char** argv) {
  const Session s = start_session(c, argc, argv);
  std::vector<SuiteReport> reports;
  for (const std::string& suite : c.suites) reports.push_back(run_suite(suite, c.options, s.work_dir));

  const std::string md = markdown(s.info, reports);
  std::cout << md << std::flush;
  if (!c.markdown.empty()) write_file(c.markdown, md, false);
  if (!c.json.empty()) write_file(c.json, json(s.info, reports), false);
  if (!c.append.empty()) write_file(c.append, results_entry(s.info, reports), true);
  if (!c.write_baseline.empty()) write_baseline(c, s.info, reports);
  if (s.temporary) fs::remove_all(s.work_dir);
  bool failed = false;
  for (const SuiteReport& r : reports) failed = failed || r.failed();
  return failed ? 1 : 0;
}

// A suite's options for --compare: those it was measured with, overridden by the measurement options given now
// (and the peers' interpreter and script, which are this machine's).
Options options_for(const BaselineSuite& suite, const Command& c) {
  std::map<std::string, std::string> flags = suite.options;
  for (const auto& [k, v] : c.given)
    if (is_measurement_option(k) || k == "--python" || k == "--peer-script") flags[k] = v;
  return from_flags(flags).options;
}

int run_compare(const Command& c, int argc, char** argv) {
  const Baseline base = read_baseline(c.compare);
  std::vector<const BaselineSuite*> suites;
  if (c.suites_given) {
    for (const std::string& name : c.suites) {
      const BaselineSuite* b = base.find(name);
      if (b == nullptr) throw UsageError(c.compare + " holds no " + name + " suite (write it with --write-baseline)");
      suites.push_back(b);
    }
  } else {
    for (const BaselineSuite& b : base.suites) suites.push_back(&b);
  }
  if (suites.empty()) throw UsageError(c.compare + " holds no suites");
  const Session s = start_session(c, argc, argv);
  for (const BaselineSuite* b : suites)
    if (const std::optional<std::string> mismatch = device_mismatch(*b, s.info.device); mismatch) {
      if (!c.any_device) throw UsageError(*mismatch);
      std::fprintf(stderr, "nxv-bench: --any-device: %s\n", mismatch->c_str());
    }

  std::vector<SuiteComparison> results;
  for (const BaselineSuite* b : suites) {
    const Options o = options_for(*b, c);
    int attempt = 0;
    const MeasureFn measure = [&](const std::string& suite, const std::vector<std::string>& ids) {
      if (attempt++ > 0) std::fprintf(stderr, "nxv-bench: re-measuring %zu rows of %s\n", ids.size(), suite.c_str());
      return run_suite(suite, narrowed(o, suite, ids), s.work_dir);
    };
    results.push_back(compare_suite(*b, measure, c.compare_config));
  }
  if (s.temporary) fs::remove_all(s.work_dir);

  std::ostringstream md;
  md << "## Compared with " << c.compare << " — " << s.info.date << ", commit " << s.info.commit << " — "
     << s.info.device << ", " << s.info.driver << "\n\n";
  for (const BaselineSuite* b : suites)
    md << "- " << b->name << ": baseline of " << b->date << ", commit " << b->commit << ", " << b->device << " ("
       << b->driver << ")\n";
  md << "\n" << comparison_markdown(results, c.compare_config);
  std::cout << md.str() << std::flush;
  if (!c.markdown.empty()) write_file(c.markdown, md.str(), false);
  bool regressed = false;
  for (const SuiteComparison& r : results) regressed = regressed || r.regressed();
  std::fprintf(stderr, "nxv-bench: %s\n", regressed ? "a row regressed or a suite failed" : "no row regressed");
  return regressed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    nxv::settings::check_all();
    const Command c = from_flags(read_flags(std::vector<std::string>(argv + 1, argv + argc)));
    if (c.help) {
      std::fputs(kHelp, stdout);
      return 0;
    }
    if (!c.child_model.empty()) return run_first_step_child(c.child_model, c.child_batch);
    if (!c.headlines.empty()) {
      std::cout << headlines_markdown(read_baseline(c.headlines)) << std::flush;
      return 0;
    }
    if (!c.compare.empty()) return run_compare(c, argc, argv);
    return run(c, argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "nxv-bench: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nxv-bench: %s\n", e.what());
    return 1;
  }
}
