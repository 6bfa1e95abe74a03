#include "bench/baseline.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "io/json.hpp"
#include "nxv/error.hpp"

namespace nxv::bench {

namespace {

using io::json::quote;
using io::json::Value;

// The shortest text that reads back as the same double (so a baseline survives a round trip exactly).
std::string number(double v) {
  NXV_CHECK(std::isfinite(v), "nxv-bench baseline", "a value is not finite: ", v);
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  return std::string(buf, end);
}

std::string arm_json(const BaselineArm& a) {
  return "{\"arm\": " + quote(a.arm) + ", \"median\": " + number(a.value) + ", \"p10\": " + number(a.p10) +
         ", \"p90\": " + number(a.p90) + "}";
}

BaselineArm arm_of(const Measurement& m) { return {m.arm, m.value, m.p10, m.p90}; }

// Reads `key` of `v`, which must be of `kind`; `where` names the place for the error message.
const Value& get(const Value& v, const std::string& key, Value::Kind kind, const std::string& where) {
  const Value* m = v.find(key);
  NXV_CHECK(m != nullptr, "nxv-bench baseline", where, ": member \"", key, "\" is missing");
  NXV_CHECK(m->kind == kind, "nxv-bench baseline", where, ": \"", key, "\" is ", io::json::name(m->kind), ", expected ",
            io::json::name(kind));
  return *m;
}
std::string text(const Value& v, const std::string& key, const std::string& where) {
  return get(v, key, Value::Kind::string, where).text;
}
double num(const Value& v, const std::string& key, const std::string& where) {
  return std::stod(get(v, key, Value::Kind::number, where).text);
}

BaselineArm parse_arm(const Value& v, const std::string& where) {
  return {text(v, "arm", where), num(v, "median", where), num(v, "p10", where), num(v, "p90", where)};
}

BaselineRow parse_row(const Value& v, const std::string& where) {
  BaselineRow r;
  r.id = text(v, "id", where);
  const std::string at = where + ", row " + r.id;
  r.what = text(v, "what", at);
  r.unit = text(v, "unit", at);
  const std::string better = text(v, "better", at);
  NXV_CHECK(better == "higher" || better == "lower", "nxv-bench baseline", at, ": \"better\" is '", better,
            "', expected \"higher\" or \"lower\"");
  r.higher_is_better = better == "higher";
  r.a = parse_arm(get(v, "a", Value::Kind::object, at), at);
  if (const Value* b = v.find("b"); b != nullptr && b->kind != Value::Kind::null) r.b = parse_arm(*b, at);
  r.ratio_meaning = text(v, "ratio_meaning", at);
  if (const Value* t = v.find("target"); t != nullptr && t->kind != Value::Kind::null)
    r.target = Target{text(*t, "op", at), num(*t, "value", at)};
  return r;
}

}  // namespace

bool higher_is_better(const std::string& unit) {
  if (unit == "ms" || unit == "µs" || unit == "s") return false;
  if (unit == "GB/s" || unit == "TFLOP/s" || unit == "grad evals/s" || unit == "ESS/s") return true;
  throw Error("nxv-bench baseline: unit '" + unit + "' has no direction: add it to higher_is_better()");
}

std::optional<double> BaselineRow::ratio() const {
  if (!b || b->value == 0) return std::nullopt;
  return a.value / b->value;
}

const BaselineRow* BaselineSuite::find(const std::string& id) const {
  for (const BaselineRow& r : rows)
    if (r.id == id) return &r;
  return nullptr;
}

const BaselineSuite* Baseline::find(const std::string& suite) const {
  for (const BaselineSuite& s : suites)
    if (s.name == suite) return &s;
  return nullptr;
}

bool is_measurement_option(const std::string& flag) {
  static const std::set<std::string> measurement{"--smoke",     "--quick",      "--repeat",     "--reference-repeat",
                                                 "--warmup-ms", "--models",     "--batches",    "--dtypes",
                                                 "--elements",  "--gemm",       "--gemm-only",  "--dot-kernels",
                                                 "--mcmc-runs", "--precisions", "--linalg-runs"};
  return measurement.count(flag) > 0;
}

BaselineSuite baseline_suite(const RunInfo& info, const SuiteReport& report) {
  BaselineSuite s{report.name, info.date, info.commit, info.command, info.device, info.driver, info.vulkan_api, {}, {}};
  for (const auto& [flag, value] : info.options)
    if (is_measurement_option(flag)) s.options[flag] = value;
  for (const Row& r : report.rows) {
    if (!r.a) continue;
    BaselineRow row{r.id,         r.what,       r.unit,          higher_is_better(r.unit),
                    arm_of(*r.a), std::nullopt, r.ratio_meaning, r.target};
    if (r.b) row.b = arm_of(*r.b);
    s.rows.push_back(std::move(row));
  }
  return s;
}

void merge(Baseline& into, BaselineSuite suite, bool any_device) {
  for (const BaselineSuite& other : into.suites)
    NXV_CHECK(any_device || other.name == suite.name || other.device == suite.device, "nxv-bench", "the baseline's ",
              other.name, " suite was measured on ", other.device, ", this run on ", suite.device,
              ": a baseline holds one device (write another file, or pass --any-device)");
  for (BaselineSuite& other : into.suites)
    if (other.name == suite.name) {
      other = std::move(suite);
      return;
    }
  into.suites.push_back(std::move(suite));
}

std::string to_json(const Baseline& b) {
  std::ostringstream s;
  s << "{\n  \"tool\": \"nxv-bench baseline\",\n  \"version\": 1,\n  \"suites\": [";
  for (std::size_t i = 0; i < b.suites.size(); ++i) {
    const BaselineSuite& suite = b.suites[i];
    s << (i ? "," : "") << "\n    {\"name\": " << quote(suite.name) << ", \"device\": " << quote(suite.device)
      << ", \"driver\": " << quote(suite.driver) << ", \"vulkan_api\": " << quote(suite.vulkan_api)
      << ",\n     \"commit\": " << quote(suite.commit) << ", \"date\": " << quote(suite.date)
      << ", \"command\": " << quote(suite.command) << ",\n     \"options\": {";
    bool first = true;
    for (const auto& [k, v] : suite.options) {
      s << (first ? "" : ", ") << quote(k) << ": " << quote(v);
      first = false;
    }
    s << "},\n     \"rows\": [";
    for (std::size_t j = 0; j < suite.rows.size(); ++j) {
      const BaselineRow& r = suite.rows[j];
      s << (j ? "," : "") << "\n      {\"id\": " << quote(r.id) << ", \"what\": " << quote(r.what)
        << ", \"unit\": " << quote(r.unit) << ", \"better\": " << (r.higher_is_better ? "\"higher\"" : "\"lower\"")
        << ",\n       \"a\": " << arm_json(r.a) << ",\n       \"b\": " << (r.b ? arm_json(*r.b) : "null")
        << ", \"ratio_meaning\": " << quote(r.ratio_meaning) << ", \"target\": "
        << (r.target ? "{\"op\": " + quote(r.target->op) + ", \"value\": " + number(r.target->value) + "}" : "null")
        << "}";
    }
    s << "]}";
  }
  s << "\n  ]\n}\n";
  return s.str();
}

Baseline parse_baseline(const std::string& json_text, const std::string& source) {
  const Value root = io::json::parse(json_text, source);
  NXV_CHECK(root.kind == Value::Kind::object, "nxv-bench baseline", source, ": not a JSON object");
  NXV_CHECK(text(root, "tool", source) == "nxv-bench baseline", "nxv-bench baseline", source,
            ": not a baseline written by nxv-bench --write-baseline");
  Baseline b;
  for (const Value& v : get(root, "suites", Value::Kind::array, source).items) {
    BaselineSuite s;
    s.name = text(v, "name", source);
    const std::string where = source + ", suite " + s.name;
    s.device = text(v, "device", where);
    s.driver = text(v, "driver", where);
    s.vulkan_api = text(v, "vulkan_api", where);
    s.commit = text(v, "commit", where);
    s.date = text(v, "date", where);
    s.command = text(v, "command", where);
    for (const io::json::Member& m : get(v, "options", Value::Kind::object, where).members)
      s.options[m.key] = m.value.text;
    for (const Value& r : get(v, "rows", Value::Kind::array, where).items) s.rows.push_back(parse_row(r, where));
    b.suites.push_back(std::move(s));
  }
  return b;
}

Baseline read_baseline(const std::string& path) {
  std::ifstream in(path);
  NXV_CHECK(in, "nxv-bench", "cannot read the baseline ", path);
  std::stringstream t;
  t << in.rdbuf();
  return parse_baseline(t.str(), path);
}

}  // namespace nxv::bench
