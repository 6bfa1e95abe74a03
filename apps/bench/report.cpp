#include "bench/report.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "io/json.hpp"

namespace nxv::bench {

namespace {

using io::json::quote;

// JSON has no NaN or infinity: they become null.
std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string json_measurement(const Measurement& m) {
  std::ostringstream s;
  s << "{\"arm\": " << quote(m.arm) << ", \"value\": " << json_number(m.value) << ", \"p10\": " << json_number(m.p10)
    << ", \"p90\": " << json_number(m.p90) << ", \"median_s\": " << json_number(m.stats.median) << ", \"samples_s\": [";
  for (std::size_t i = 0; i < m.stats.samples.size(); ++i) s << (i ? ", " : "") << json_number(m.stats.samples[i]);
  s << "]}";
  return s.str();
}

std::string cell(const std::optional<Measurement>& m, const std::string& unit) {
  if (!m) return "—";
  return m->arm + ": " + format_number(m->value) + " " + unit + " (" + format_number(m->p10) + "–" +
         format_number(m->p90) + ")";
}

std::string target_cell(const Row& r) {
  if (!r.target) return "";
  const std::optional<double> subject = r.target_subject();
  std::string s = (r.target->op == "<=" ? "≤ " : "≥ ") + format_number(r.target->value);
  if (!r.b) s += " " + r.unit;
  if (subject) s += r.target->met(*subject) ? " (met)" : " (missed)";
  return s;
}

std::string escape_cell(std::string s) {
  for (std::size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.replace(i, 1, "\\|");
  return s;
}

void write_suite_tables(std::ostringstream& s, const SuiteReport& suite) {
  s << "### " << suite.name << "\n\n";
  if (suite.status != "ok") s << "Status: " << suite.status << "\n\n";
  if (!suite.rows.empty()) {
    s << "| what | arm A | arm B | A / B | target |\n|---|---|---|---|---|\n";
    for (const Row& r : suite.rows) {
      const std::optional<double> ratio = r.ratio();
      std::string what = r.what;
      if (!r.note.empty()) what += " — " + r.note;
      s << "| " << escape_cell(what) << " | " << escape_cell(cell(r.a, r.unit)) << " | "
        << escape_cell(cell(r.b, r.unit)) << " | "
        << (ratio ? format_number(*ratio) + " (" + r.ratio_meaning + ")" : std::string()) << " | " << target_cell(r)
        << " |\n";
    }
    s << "\n";
  }
  for (const auto& [title, table] : suite.tables) {
    if (table.empty()) continue;
    s << title << "\n\n";
    for (std::size_t i = 0; i < table.size(); ++i) {
      s << "|";
      for (const std::string& c : table[i]) s << " " << escape_cell(c) << " |";
      s << "\n";
      if (i == 0) {
        s << "|";
        for (std::size_t j = 0; j < table[0].size(); ++j) s << "---|";
        s << "\n";
      }
    }
    s << "\n";
  }
  if (!suite.checks.empty()) {
    s << "Checks before timing:";
    int failed = 0;
    for (const Check& c : suite.checks) failed += c.ok() ? 0 : 1;
    s << " " << suite.checks.size() - failed << " of " << suite.checks.size() << " passed";
    for (const Check& c : suite.checks)
      if (!c.ok())
        s << "; FAILED " << c.what << ": " << format_number(c.ours) << " vs " << format_number(c.theirs)
          << " (relative error " << format_number(c.rel_error) << ", tolerance " << format_number(c.tolerance) << ")";
    s << ".\n\n";
  }
  for (const std::string& n : suite.notes) s << "- " << n << "\n";
  if (!suite.notes.empty()) s << "\n";
}

}  // namespace

Measurement time_in(const std::string& arm, const Stats& stats, double scale) {
  return {arm, stats, stats.median * scale, stats.p10 * scale, stats.p90 * scale};
}

Measurement rate_in(const std::string& arm, const Stats& stats, double work) {
  return {arm, stats, work / stats.median, work / stats.p90, work / stats.p10};
}

std::optional<double> Row::ratio() const {
  if (!a || !b || b->value == 0) return std::nullopt;
  return a->value / b->value;
}

std::optional<double> Row::target_subject() const {
  if (b) return ratio();
  if (a) return a->value;
  return std::nullopt;
}

Check check_close(const std::string& what, double ours, double theirs, double tolerance) {
  const double denom = std::max(std::abs(theirs), 1e-30);
  double rel = std::abs(ours - theirs) / denom;
  if (std::isnan(rel)) rel = INFINITY;  // a NaN loss never passes
  return {what, ours, theirs, rel, tolerance};
}

bool SuiteReport::failed() const {
  if (status.rfind("failed", 0) == 0) return true;
  for (const Check& c : checks)
    if (!c.ok()) return true;
  return false;
}

std::string format_number(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
  char buf[32];
  const double a = std::abs(v);
  if (a != 0 && (a < 1e-3 || a >= 1e7))
    std::snprintf(buf, sizeof buf, "%.3g", v);
  else if (a >= 100)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (a >= 10)
    std::snprintf(buf, sizeof buf, "%.1f", v);
  else if (a >= 1)
    std::snprintf(buf, sizeof buf, "%.2f", v);
  else
    std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string markdown(const RunInfo& info, const std::vector<SuiteReport>& suites) {
  std::ostringstream s;
  s << "## " << info.date << " — commit " << info.commit << " — " << info.device << ", " << info.driver << ", Vulkan "
    << info.vulkan_api << "\n\n";
  s << "Command: `" << info.command << "`\n\n";
  s << "Medians, with p10–p90 in parentheses; arms run alternately in one process after a warm-up.\n\n";
  for (const SuiteReport& suite : suites) write_suite_tables(s, suite);
  return s.str();
}

std::string results_entry(const RunInfo& info, const std::vector<SuiteReport>& suites) {
  return "\n" + markdown(info, suites);
}

std::string json(const RunInfo& info, const std::vector<SuiteReport>& suites) {
  std::ostringstream s;
  s << "{\n  \"tool\": \"nxv-bench\",\n  \"date\": " << quote(info.date) << ",\n  \"commit\": " << quote(info.commit)
    << ",\n  \"command\": " << quote(info.command) << ",\n  \"device\": " << quote(info.device)
    << ",\n  \"driver\": " << quote(info.driver) << ",\n  \"vulkan_api\": " << quote(info.vulkan_api)
    << ",\n  \"options\": {";
  bool first = true;
  for (const auto& [k, v] : info.options) {
    s << (first ? "" : ", ") << quote(k) << ": " << quote(v);
    first = false;
  }
  s << "},\n  \"suites\": [";
  for (std::size_t i = 0; i < suites.size(); ++i) {
    const SuiteReport& suite = suites[i];
    s << (i ? "," : "") << "\n    {\"name\": " << quote(suite.name) << ", \"status\": " << quote(suite.status)
      << ",\n     \"rows\": [";
    for (std::size_t j = 0; j < suite.rows.size(); ++j) {
      const Row& r = suite.rows[j];
      const std::optional<double> ratio = r.ratio();
      s << (j ? "," : "") << "\n      {\"id\": " << quote(r.id) << ", \"what\": " << quote(r.what)
        << ", \"unit\": " << quote(r.unit) << ", \"a\": " << (r.a ? json_measurement(*r.a) : "null")
        << ", \"b\": " << (r.b ? json_measurement(*r.b) : "null")
        << ", \"ratio\": " << (ratio ? json_number(*ratio) : "null")
        << ", \"ratio_meaning\": " << quote(r.ratio_meaning) << ", \"target\": ";
      if (r.target)
        s << "{\"op\": " << quote(r.target->op) << ", \"value\": " << json_number(r.target->value)
          << ", \"on\": " << quote(r.b ? "ratio" : "a")
          << ", \"met\": " << (r.target_subject() ? (r.target->met(*r.target_subject()) ? "true" : "false") : "null")
          << "}";
      else
        s << "null";
      s << ", \"note\": " << quote(r.note) << "}";
    }
    s << "],\n     \"checks\": [";
    for (std::size_t j = 0; j < suite.checks.size(); ++j) {
      const Check& c = suite.checks[j];
      s << (j ? "," : "") << "\n      {\"what\": " << quote(c.what) << ", \"ours\": " << json_number(c.ours)
        << ", \"theirs\": " << json_number(c.theirs) << ", \"rel_error\": " << json_number(c.rel_error)
        << ", \"tolerance\": " << json_number(c.tolerance) << ", \"ok\": " << (c.ok() ? "true" : "false") << "}";
    }
    s << "],\n     \"tables\": [";
    for (std::size_t j = 0; j < suite.tables.size(); ++j) {
      s << (j ? ", " : "") << "{\"title\": " << quote(suite.tables[j].first) << ", \"cells\": [";
      const auto& table = suite.tables[j].second;
      for (std::size_t k = 0; k < table.size(); ++k) {
        s << (k ? ", " : "") << "[";
        for (std::size_t m = 0; m < table[k].size(); ++m) s << (m ? ", " : "") << quote(table[k][m]);
        s << "]";
      }
      s << "]}";
    }
    s << "],\n     \"notes\": [";
    for (std::size_t j = 0; j < suite.notes.size(); ++j) s << (j ? ", " : "") << quote(suite.notes[j]);
    s << "]}";
  }
  s << "\n  ]\n}\n";
  return s.str();
}

}  // namespace nxv::bench
