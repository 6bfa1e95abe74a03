#include "sample/data.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>

#include "core/text.hpp"
#include "sample/options.hpp"

namespace nxv::sample_app {

namespace {

// SplitMix64 with our own uniform and normal transforms: the generated data are the same with every standard
// library (std::normal_distribution's algorithm is not specified).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1p-53; }  // in (0, 1)
  double normal() {                                                                 // Box–Muller, one of the pair
    return std::sqrt(-2.0 * std::log(uniform())) * std::cos(2.0 * std::numbers::pi * uniform());
  }

 private:
  std::uint64_t state_;
};

std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream s(line);
  std::string field;
  while (std::getline(s, field, ',')) fields.emplace_back(trim_whitespace(field));
  if (!line.empty() && line.back() == ',') fields.push_back("");
  return fields;
}

}  // namespace

LogisticData read_logistic_csv(const std::filesystem::path& path) {
  const std::string where = path.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw UsageError(where + ": no such file (--data)");
  std::ifstream in(path);
  if (!in) throw UsageError(where + ": cannot be opened");
  LogisticData d;
  std::string line;
  std::int64_t line_number = 0;
  std::size_t columns = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (trim_whitespace(line).empty()) continue;
    const std::vector<std::string> fields = split_fields(line);
    const std::string at = where + ":" + std::to_string(line_number);
    if (columns == 0) {  // the header
      if (fields.size() < 2)
        throw UsageError(at + ": the header names " + std::to_string(fields.size()) +
                         " column(s), expected at least 2 (features, then the 0/1 label)");
      columns = fields.size();
      d.k = static_cast<std::int64_t>(columns) - 1;
      d.feature_names.assign(fields.begin(), fields.end() - 1);
      continue;
    }
    if (fields.size() != columns)
      throw UsageError(at + ": " + std::to_string(fields.size()) + " fields, expected " + std::to_string(columns) +
                       " (as the header)");
    for (std::size_t c = 0; c < columns; ++c) {
      const std::string& f = fields[c];
      double v = 0;
      const auto [end, err] = std::from_chars(f.data(), f.data() + f.size(), v);
      const std::string column = ", column " + std::to_string(c + 1);
      if (f.empty() || err != std::errc() || end != f.data() + f.size())
        throw UsageError(at + column + ": '" + f + "' is not a number");
      if (!std::isfinite(v)) throw UsageError(at + column + ": " + f + " is not finite");
      if (c + 1 == columns) {
        if (v != 0 && v != 1) throw UsageError(at + column + ": the label is " + f + ", expected 0 or 1");
        d.y.push_back(v);
      } else {
        d.x.push_back(v);
      }
    }
    ++d.n;
  }
  if (columns == 0) throw UsageError(where + ": empty (expected a header line and rows)");
  if (d.n == 0) throw UsageError(where + ": a header but no rows");
  return d;
}

void write_logistic_csv(const std::filesystem::path& path, const LogisticData& d) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot create " + path.string());
  for (std::int64_t j = 0; j < d.k; ++j)
    out << (j < static_cast<std::int64_t>(d.feature_names.size()) ? d.feature_names[j] : "x" + std::to_string(j))
        << ',';
  out << "y\n";
  char buf[32];
  for (std::int64_t i = 0; i < d.n; ++i) {
    for (std::int64_t j = 0; j < d.k; ++j) {
      std::snprintf(buf, sizeof buf, "%.17g,", d.x[i * d.k + j]);
      out << buf;
    }
    out << static_cast<int>(d.y[i]) << '\n';
  }
  if (!out) throw std::runtime_error("write error on " + path.string());
}

double logistic_true_intercept() { return 0.5; }

std::vector<double> logistic_true_coefficients(std::int64_t k) {
  std::vector<double> beta(k);
  for (std::int64_t j = 0; j < k; ++j) beta[j] = 2.0 * std::cos(1.3 * static_cast<double>(j)) / std::sqrt(k);
  return beta;
}

LogisticData generate_logistic_data(std::int64_t k, std::int64_t n) {
  Rng rng(0x5eed'1001);
  const std::vector<double> beta = logistic_true_coefficients(k);
  LogisticData d;
  d.n = n;
  d.k = k;
  for (std::int64_t j = 0; j < k; ++j) d.feature_names.push_back("x" + std::to_string(j));
  d.x.resize(n * k);
  d.y.resize(n);
  for (std::int64_t i = 0; i < n; ++i) {
    double logit = logistic_true_intercept();
    for (std::int64_t j = 0; j < k; ++j) {
      d.x[i * k + j] = rng.normal();
      logit += beta[j] * d.x[i * k + j];
    }
    d.y[i] = rng.uniform() < 1.0 / (1.0 + std::exp(-logit)) ? 1.0 : 0.0;
  }
  return d;
}

HierarchicalData generate_hierarchical_data() {
  Rng rng(0x5eed'1002);
  HierarchicalData d;
  d.groups = 8;
  d.mu_alpha = 1.0;
  d.tau = 0.7;
  d.beta = 2.0;
  d.sigma = 0.5;
  for (std::int64_t j = 0; j < d.groups; ++j) d.alpha.push_back(d.mu_alpha + d.tau * rng.normal());
  for (std::int64_t j = 0; j < d.groups; ++j)
    for (int i = 0; i < 25; ++i) {
      const double x = rng.normal();
      d.group.push_back(j);
      d.x.push_back(x);
      d.y.push_back(d.alpha[j] + d.beta * x + d.sigma * rng.normal());
    }
  return d;
}

RegimeData generate_regime_data() {
  Rng rng(0x5eed'1003);
  RegimeData d{{}, {}, {}, {-2.0, 0.5, 3.0}, {0.6, 0.3, 0.8}, 2.0, 1.0};
  for (int i = 0; i < 200; ++i) {
    const double x = 4.0 * rng.uniform() - 2.0;
    // The regime logits of models.cpp: (-gamma x, kappa, gamma x).
    const double l[3] = {-d.gamma * x, d.kappa, d.gamma * x};
    const double m = std::max({l[0], l[1], l[2]});
    const double w[3] = {std::exp(l[0] - m), std::exp(l[1] - m), std::exp(l[2] - m)};
    const double u = rng.uniform() * (w[0] + w[1] + w[2]);
    const int k = u < w[0] ? 0 : u < w[0] + w[1] ? 1 : 2;
    d.x.push_back(x);
    d.regime.push_back(k);
    d.y.push_back(d.mu[k] + d.sigma[k] * rng.normal());
  }
  return d;
}

}  // namespace nxv::sample_app
