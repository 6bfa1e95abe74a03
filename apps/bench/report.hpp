// What nxv-bench reports: per suite, rows comparing two arms (or one measurement), the correctness checks made
// before timing, counters; written as Markdown tables and as JSON with every raw sample.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/harness.hpp"

namespace nxv::bench {

// One measured arm of a row, in the row's unit. `scale` turns the harness's samples (seconds, or seconds per
// op) into that unit: 1e3 for ms, bytes / 1e9 for GB/s (a rate: value = scale / seconds).
struct Measurement {
  std::string arm;                     // "Vulkan", "reference", "PyTorch eager", ...
  Stats stats;                         // raw samples as the harness took them (seconds)
  double value = 0, p10 = 0, p90 = 0;  // in the row's unit (for rates, p10 of the value is from p90 of the time)
};
Measurement time_in(const std::string& arm, const Stats& stats, double scale);  // value = seconds * scale
Measurement rate_in(const std::string& arm, const Stats& stats, double work);   // value = work / seconds

// A target the project set: "<=" or ">=" a value, on the row's ratio (a / b), or on arm A's value for a row
// without arm B (e.g. "host cost of recording one op <= 3 µs").
struct Target {
  std::string op;
  double value = 0;
  bool met(double subject) const { return op == "<=" ? subject <= value : subject >= value; }
};

struct Row {
  std::string id;    // stable, e.g. "train.lenet.b32.f32.batching": the smoke test looks rows up by it
  std::string what;  // for people
  std::string unit;  // "ms", "µs", "GB/s", "TFLOP/s"
  std::optional<Measurement> a, b;
  std::string ratio_meaning;  // how to read a / b, e.g. "Vulkan time / reference time"
  std::optional<Target> target;
  std::string note;
  std::optional<double> ratio() const;           // a.value / b.value when both exist
  std::optional<double> target_subject() const;  // what the target applies to: the ratio, or a's value alone
};

// A result checked against the reference (or PyTorch) before timing.
struct Check {
  std::string what;
  double ours = 0, theirs = 0, rel_error = 0, tolerance = 0;
  bool ok() const { return rel_error <= tolerance; }
};
Check check_close(const std::string& what, double ours, double theirs, double tolerance);

struct SuiteReport {
  std::string name;    // train, peers, kernels
  std::string status;  // "ok", "skipped: no torch", "failed: ..."
  std::vector<Row> rows;
  std::vector<Check> checks;
  // Extra tables (title -> header, rows of cells), e.g. the train suite's per-step counters.
  std::vector<std::pair<std::string, std::vector<std::vector<std::string>>>> tables;
  std::vector<std::string> notes;
  bool failed() const;  // a check failed or the status says so
};

struct RunInfo {
  std::string date, commit, command, device, driver, vulkan_api;
  std::map<std::string, std::string> options;
};

std::string markdown(const RunInfo& info, const std::vector<SuiteReport>& suites);
std::string json(const RunInfo& info, const std::vector<SuiteReport>& suites);
// The entry bench/RESULTS.md gets: a heading with date, commit and device, the command, the tables.
std::string results_entry(const RunInfo& info, const std::vector<SuiteReport>& suites);

// Formats a number with 3 significant digits (no exponent for ordinary magnitudes).
std::string format_number(double v);

}  // namespace nxv::bench
