// nxv-bench --compare: measures the suites of a baseline again and flags each row more than a tolerance worse than
// its baseline value (a time above baseline x (1 + tolerance), a rate below baseline x (1 - tolerance)). A row that
// looks regressed is measured again (up to `remeasures` more times) and flagged only if every attempt is worse:
// one slow sample set is noise more often than a regression. A row is only worse when it is also outside the
// baseline's own p10-p90 spread: host-bound microsecond rows spread wider than 10% between processes (on the H200 a
// baseline of 1.59 us (1.54-3.41) measured 2.04 us minutes later with the same binary), and their spread is the
// noise to beat. Rows missing on either side are reported.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/baseline.hpp"
#include "bench/suites/suites.hpp"

namespace nxv::bench {

struct CompareConfig {
  double tolerance = 0.10;
  int remeasures = 2;  // extra measurements of the rows that look regressed
};

// Measures `suite`; `ids` are the rows wanted (every row of the baseline's suite on the first call, those that
// looked regressed on a re-measure); a report may hold more rows than asked for.
using MeasureFn = std::function<SuiteReport(const std::string& suite, const std::vector<std::string>& ids)>;

enum class Verdict {
  ok,             // within the tolerance
  better,         // better than the baseline by more than the tolerance (time to update it?)
  remeasured_ok,  // looked regressed, and a re-measure was within the tolerance
  regressed,      // worse by more than the tolerance in every attempt
  missing_now,    // in the baseline, not measured now
  not_in_baseline,
};
const char* verdict_name(Verdict v);

struct RowComparison {
  std::string id, unit;
  bool higher_is_better = false;
  std::optional<double> baseline, baseline_p10, baseline_p90;
  std::optional<double> now;  // the best attempt's value
  std::vector<double> attempts;
  Verdict verdict = Verdict::ok;
  std::optional<double> ratio() const;  // now / baseline
};

struct SuiteComparison {
  std::string suite, status;  // the first measurement's status: "ok", "skipped: ...", "failed: ..."
  std::vector<RowComparison> rows;
  bool regressed() const;  // a row regressed or the suite failed
};

// Whether `now` is worse than `baseline` by more than `tolerance` (exactly at the tolerance is not worse).
bool worse(double now, double baseline, bool higher_is_better, double tolerance);
bool better(double now, double baseline, bool higher_is_better, double tolerance);
// Whether `now` counts against row `c`: worse than its baseline by more than the tolerance and outside the
// baseline's p10-p90 (a rate below p10, a time above p90).
bool looks_regressed(double now, const RowComparison& c, const CompareConfig& config);

// Refuses a baseline suite from another device: the message, or nullopt when the device is the same.
std::optional<std::string> device_mismatch(const BaselineSuite& suite, const std::string& device);

SuiteComparison compare_suite(const BaselineSuite& base, const MeasureFn& measure, const CompareConfig& config);

// The comparison as Markdown: one table of every row (row, baseline, now, ratio, verdict) and a summary line.
std::string comparison_markdown(const std::vector<SuiteComparison>& suites, const CompareConfig& config);

// The options of a re-measure narrowed to the rows `ids`: the train and peers suites run only the models, batches
// and dtypes those rows name; kernels runs only its GEMM rows when those are all it needs.
Options narrowed(Options o, const std::string& suite, const std::vector<std::string>& ids);

}  // namespace nxv::bench
