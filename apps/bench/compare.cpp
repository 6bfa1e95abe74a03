#include "bench/compare.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace nxv::bench {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, sep);) out.push_back(item);
  return out;
}

std::map<std::string, double> values_of(const SuiteReport& r) {
  std::map<std::string, double> v;
  for (const Row& row : r.rows)
    if (row.a) v[row.id] = row.a->value;
  return v;
}

// The better of two values of a row.
double best(double x, double y, bool higher_is_better) { return higher_is_better ? std::max(x, y) : std::min(x, y); }

std::string value_cell(std::optional<double> v, const std::string& unit) {
  return v ? format_number(*v) + " " + unit : "—";
}

}  // namespace

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::ok:
      return "ok";
    case Verdict::better:
      return "better";
    case Verdict::remeasured_ok:
      return "ok on re-measure";
    case Verdict::regressed:
      return "**REGRESSED**";
    case Verdict::missing_now:
      return "missing now";
    case Verdict::not_in_baseline:
      return "not in the baseline";
  }
  return "?";
}

std::optional<double> RowComparison::ratio() const {
  if (!now || !baseline || *baseline == 0) return std::nullopt;
  return *now / *baseline;
}

bool SuiteComparison::regressed() const {
  if (status.rfind("failed", 0) == 0) return true;
  for (const RowComparison& r : rows)
    if (r.verdict == Verdict::regressed) return true;
  return false;
}

bool worse(double now, double baseline, bool higher_is_better, double tolerance) {
  return higher_is_better ? now < baseline * (1 - tolerance) : now > baseline * (1 + tolerance);
}

bool better(double now, double baseline, bool higher_is_better, double tolerance) {
  return worse(baseline, now, higher_is_better, tolerance);
}

bool looks_regressed(double now, const RowComparison& c, const CompareConfig& config) {
  if (!worse(now, *c.baseline, c.higher_is_better, config.tolerance)) return false;
  if (c.higher_is_better) return !c.baseline_p10 || now < *c.baseline_p10;
  return !c.baseline_p90 || now > *c.baseline_p90;
}

std::optional<std::string> device_mismatch(const BaselineSuite& suite, const std::string& device) {
  if (suite.device == device) return std::nullopt;
  return "the baseline's " + suite.name + " suite was measured on " + suite.device + ", this is " + device +
         ": compare only like with like (write a baseline on this device with --write-baseline, or pass "
         "--any-device)";
}

SuiteComparison compare_suite(const BaselineSuite& base, const MeasureFn& measure, const CompareConfig& config) {
  std::vector<std::string> ids;
  for (const BaselineRow& r : base.rows) ids.push_back(r.id);
  const SuiteReport first = measure(base.name, ids);
  SuiteComparison out{base.name, first.status, {}};
  const std::map<std::string, double> now = values_of(first);
  std::vector<std::size_t> suspects;  // indices into out.rows
  for (const BaselineRow& r : base.rows) {
    RowComparison c{r.id, r.unit, r.higher_is_better, r.a.value, r.a.p10, r.a.p90, std::nullopt, {}, Verdict::ok};
    const auto it = now.find(r.id);
    if (it == now.end()) {
      c.verdict = Verdict::missing_now;
    } else {
      c.now = it->second;
      c.attempts.push_back(it->second);
      if (looks_regressed(it->second, c, config)) suspects.push_back(out.rows.size());
      if (better(it->second, r.a.value, r.higher_is_better, config.tolerance)) c.verdict = Verdict::better;
    }
    out.rows.push_back(std::move(c));
  }
  for (const Row& r : first.rows)
    if (r.a && base.find(r.id) == nullptr)
      out.rows.push_back(RowComparison{r.id,
                                       r.unit,
                                       higher_is_better(r.unit),
                                       std::nullopt,
                                       std::nullopt,
                                       std::nullopt,
                                       r.a->value,
                                       {r.a->value},
                                       Verdict::not_in_baseline});

  for (int attempt = 0; attempt < config.remeasures && !suspects.empty(); ++attempt) {
    std::vector<std::string> wanted;
    for (std::size_t i : suspects) wanted.push_back(out.rows[i].id);
    const std::map<std::string, double> again = values_of(measure(base.name, wanted));
    std::vector<std::size_t> still;
    for (std::size_t i : suspects) {
      RowComparison& c = out.rows[i];
      const auto it = again.find(c.id);
      if (it != again.end()) {
        c.attempts.push_back(it->second);
        c.now = best(*c.now, it->second, c.higher_is_better);
      }
      if (looks_regressed(*c.now, c, config))
        still.push_back(i);
      else
        c.verdict = Verdict::remeasured_ok;
    }
    suspects = std::move(still);
  }
  for (std::size_t i : suspects) out.rows[i].verdict = Verdict::regressed;
  return out;
}

std::string comparison_markdown(const std::vector<SuiteComparison>& suites, const CompareConfig& config) {
  std::ostringstream s;
  std::map<Verdict, int> counts;
  s << "| row | baseline (p10–p90) | now | now / baseline | verdict |\n|---|---|---|---|---|\n";
  for (const SuiteComparison& suite : suites) {
    if (suite.status != "ok") s << "| " << suite.suite << " | | | | suite " << suite.status << " |\n";
    for (const RowComparison& r : suite.rows) {
      ++counts[r.verdict];
      std::string base = value_cell(r.baseline, r.unit);
      if (r.baseline_p10 && r.baseline_p90)
        base += " (" + format_number(*r.baseline_p10) + "–" + format_number(*r.baseline_p90) + ")";
      std::string now = value_cell(r.now, r.unit);
      if (r.attempts.size() > 1) {
        now += " (best of";
        for (std::size_t i = 0; i < r.attempts.size(); ++i) now += (i ? ", " : " ") + format_number(r.attempts[i]);
        now += ")";
      }
      const std::optional<double> ratio = r.ratio();
      s << "| " << r.id << " | " << base << " | " << now << " | "
        << (ratio ? format_number(*ratio) + (r.higher_is_better ? " (higher is better)" : " (lower is better)")
                  : std::string())
        << " | " << verdict_name(r.verdict) << " |\n";
    }
  }
  s << "\nTolerance " << format_number(config.tolerance * 100) << "%, up to " << config.remeasures
    << " re-measures of a row that looks regressed: ";
  bool first = true;
  for (const auto& [verdict, n] : counts) {
    s << (first ? "" : ", ") << n << " " << verdict_name(verdict);
    first = false;
  }
  if (counts.empty()) s << "no rows";
  s << ".\n";
  return s.str();
}

Options narrowed(Options o, const std::string& suite, const std::vector<std::string>& ids) {
  if (ids.empty()) return o;
  if (suite == "train" || suite == "peers") {
    std::set<std::string> models, dtypes;
    std::set<std::int64_t> batches;
    for (const std::string& id : ids) {
      const std::vector<std::string> t = split(id, '.');  // suite.model.bN.dtype.what...
      if (t.size() < 4 || t[2].size() < 2 || t[2][0] != 'b') return o;
      models.insert(t[1]);
      batches.insert(std::stoll(t[2].substr(1)));
      dtypes.insert(t[3]);
    }
    o.models.assign(models.begin(), models.end());
    o.batches.assign(batches.begin(), batches.end());
    if (suite == "train") o.dtypes.assign(dtypes.begin(), dtypes.end());
    return o;
  }
  if (suite == "kernels") {
    std::set<std::int64_t> sizes;
    for (const std::string& id : ids) {
      const std::vector<std::string> t = split(id, '.');  // kernels.gemm.dtype.precision[.variant].N
      if (t.size() < 4 || t[1] != "gemm" || t.back() == "vs_torch") return o;
      sizes.insert(std::stoll(t.back()));
    }
    o.gemm_only = true;
    o.gemm.assign(sizes.begin(), sizes.end());
  }
  return o;
}

}  // namespace nxv::bench
