// bench/baseline.json: the recorded values of every row of the train, peers and kernels suites (arm A's median and
// p10-p90, the unit and which way is better, arm B and the target for the README's headlines), per suite with the
// device, driver, commit, date, command and measurement options it was taken with. nxv-bench --write-baseline
// writes a suite into it, --compare measures again and checks against it (apps/bench/compare.hpp).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/report.hpp"

namespace nxv::bench {

// Which way a row's unit improves: times (ms, µs, s) are lower-better, rates (GB/s, TFLOP/s) higher-better.
// Throws for a unit it does not know, so that a new unit gets a decision rather than a guess.
bool higher_is_better(const std::string& unit);

struct BaselineArm {
  std::string arm;
  double value = 0, p10 = 0, p90 = 0;  // in the row's unit
};

struct BaselineRow {
  std::string id;  // the row's id, which starts with its suite: "train.lenet.b32.f32.batching"
  std::string what, unit;
  bool higher_is_better = false;
  BaselineArm a;                 // the value compared: our arm
  std::optional<BaselineArm> b;  // for the headlines only (PyTorch, the reference, a copy...)
  std::string ratio_meaning;
  std::optional<Target> target;
  std::optional<double> ratio() const;  // a / b
};

struct BaselineSuite {
  std::string name;
  std::string date, commit, command, device, driver, vulkan_api;
  std::map<std::string, std::string> options;  // the measurement options it ran with (--smoke, --batches, ...)
  std::vector<BaselineRow> rows;
  const BaselineRow* find(const std::string& id) const;
};

struct Baseline {
  std::vector<BaselineSuite> suites;  // in file order
  const BaselineSuite* find(const std::string& suite) const;
};

// The options of a run that change what is measured (and so go into the baseline): --smoke, --repeat, --batches...
bool is_measurement_option(const std::string& flag);

// A suite's report as a baseline suite: rows with arm A, the measurement options of `info`.
BaselineSuite baseline_suite(const RunInfo& info, const SuiteReport& report);

// Replaces (or appends) `suite` in `into`. A suite from another device than the others is refused (nxv::Error)
// unless `any_device`: a baseline is of one device.
void merge(Baseline& into, BaselineSuite suite, bool any_device);

std::string to_json(const Baseline& b);
// Throws nxv::Error naming `source` for malformed JSON or a member missing or of the wrong kind.
Baseline parse_baseline(const std::string& text, const std::string& source);
Baseline read_baseline(const std::string& path);  // throws when the file is missing or malformed

}  // namespace nxv::bench
