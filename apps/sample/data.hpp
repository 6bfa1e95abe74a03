// The data of nxv-sample's built-in models: the logistic regression's CSV reader and writer, and the generated
// data sets (fixed generating seeds and known true parameters), as plain host arrays.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace nxv::sample_app {

// Features and 0/1 labels: x row-major [n, k].
struct LogisticData {
  std::int64_t n = 0, k = 0;
  std::vector<std::string> feature_names;
  std::vector<double> x, y;
};

// Reads a CSV file: a header line naming the columns, then one row per observation of k >= 1 feature values and
// the label (0 or 1) last. Blank lines are skipped; fields may be surrounded by spaces. Throws UsageError for a
// missing or empty file, and for a bad row, naming the file, the line and the column (1-based).
LogisticData read_logistic_csv(const std::filesystem::path& path);
// Writes data in the format read_logistic_csv reads (17 significant digits: it reads back exactly).
void write_logistic_csv(const std::filesystem::path& path, const LogisticData& data);

// The true parameters of generated logistic data: intercept 0.5 and beta_j = 2 cos(1.3 j) / sqrt(k), so that the
// logits' spread stays about the same whatever k.
double logistic_true_intercept();
std::vector<double> logistic_true_coefficients(std::int64_t k);
// n rows of k standard normal features and labels drawn from the true model, from a fixed generating seed.
LogisticData generate_logistic_data(std::int64_t k, std::int64_t n);

// A hierarchical linear regression's data: y_i = alpha[group_i] + beta x_i + noise.
struct HierarchicalData {
  std::int64_t groups = 0;
  std::vector<std::int64_t> group;
  std::vector<double> x, y;
  // The generating values: mu_alpha, tau, the group intercepts alpha, beta, sigma.
  double mu_alpha = 0, tau = 0, beta = 0, sigma = 0;
  std::vector<double> alpha;
};
HierarchicalData generate_hierarchical_data();  // 8 groups of 25 observations

// The regime model's data: a covariate x in (-2, 2) and an observation y from one of 3 regimes.
struct RegimeData {
  std::vector<double> x, y;
  std::vector<int> regime;  // the regime each y was drawn from
  // The generating values (see models.cpp): regime means and scales, the covariate's tilt gamma and the calm
  // regime's preference kappa.
  double mu[3] = {}, sigma[3] = {}, gamma = 0, kappa = 0;
};
RegimeData generate_regime_data();  // 200 observations

}  // namespace nxv::sample_app
