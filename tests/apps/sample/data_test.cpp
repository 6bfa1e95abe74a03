// nxv-sample's data: the CSV reader (every mistake names the line and the column), its writer (reads back
// exactly), and the generated data sets (fixed seeds, the true parameters they claim).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "sample/data.hpp"
#include "sample/options.hpp"

namespace nxv::sample_app {
namespace {

namespace fs = std::filesystem;

fs::path write_file(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("nxv_sample_data_test_" + name);
  std::ofstream(p) << text;
  return p;
}

void expect_csv_error(const std::string& text, const std::string& part) {
  const fs::path p = write_file("bad.csv", text);
  try {
    read_logistic_csv(p);
    ADD_FAILURE() << "expected a UsageError mentioning \"" << part << "\" for:\n" << text;
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
  fs::remove(p);
}

TEST(SampleData, ReadsFeaturesAndLabels) {
  const fs::path p = write_file("ok.csv", "age, dose ,y\n1.5,-2,1\n\n 0 , 3e-1 , 0\r\n");
  const LogisticData d = read_logistic_csv(p);
  fs::remove(p);
  EXPECT_EQ(d.n, 2);
  EXPECT_EQ(d.k, 2);
  EXPECT_EQ(d.feature_names, (std::vector<std::string>{"age", "dose"}));
  EXPECT_EQ(d.x, (std::vector<double>{1.5, -2, 0, 0.3}));
  EXPECT_EQ(d.y, (std::vector<double>{1, 0}));
}

TEST(SampleData, BadFilesNameTheLineAndColumn) {
  try {
    read_logistic_csv("/nonexistent/nxv.csv");
    ADD_FAILURE() << "a missing file must throw";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/nxv.csv: no such file"), std::string::npos) << e.what();
  }
  expect_csv_error("", "empty");
  expect_csv_error("a,y\n", "a header but no rows");
  expect_csv_error("y\n1\n", ":1: the header names 1 column(s), expected at least 2");
  expect_csv_error("a,b,y\n1,2,1\n1,2\n", ":3: 2 fields, expected 3");
  expect_csv_error("a,b,y\n1,2,1\n1,x2,0\n", ":3, column 2: 'x2' is not a number");
  expect_csv_error("a,b,y\n1,,1\n", ":2, column 2: '' is not a number");
  expect_csv_error("a,b,y\n1,2,1,\n", ":2: 4 fields, expected 3");
  expect_csv_error("a,b,y\n1,inf,1\n", ":2, column 2: inf is not finite");
  expect_csv_error("a,b,y\n\n1,2,0.5\n", ":3, column 3: the label is 0.5, expected 0 or 1");
}

TEST(SampleData, WrittenCsvReadsBackExactly) {
  const LogisticData d = generate_logistic_data(3, 40);
  const fs::path p = fs::temp_directory_path() / "nxv_sample_data_test_roundtrip.csv";
  write_logistic_csv(p, d);
  const LogisticData back = read_logistic_csv(p);
  fs::remove(p);
  EXPECT_EQ(back.n, d.n);
  EXPECT_EQ(back.k, d.k);
  EXPECT_EQ(back.x, d.x);
  EXPECT_EQ(back.y, d.y);
  EXPECT_EQ(back.feature_names, (std::vector<std::string>{"x0", "x1", "x2"}));
}

TEST(SampleData, GeneratedLogisticDataFollowTheTrueModel) {
  const std::int64_t k = 4, n = 20000;
  const LogisticData d = generate_logistic_data(k, n);
  ASSERT_EQ(d.x.size(), static_cast<std::size_t>(n * k));
  EXPECT_EQ(generate_logistic_data(k, n).y, d.y) << "a fixed generating seed";
  // Features standard normal: each column's mean within 5 sd / sqrt(n) of 0 and variance within 5 * sqrt(2/n)
  // of 1 (the normal approximations of the sample mean and variance).
  for (std::int64_t j = 0; j < k; ++j) {
    double s = 0, s2 = 0;
    for (std::int64_t i = 0; i < n; ++i) s += d.x[i * k + j], s2 += d.x[i * k + j] * d.x[i * k + j];
    EXPECT_NEAR(s / n, 0.0, 5 / std::sqrt(n)) << "feature " << j;
    EXPECT_NEAR(s2 / n, 1.0, 5 * std::sqrt(2.0 / n)) << "feature " << j;
  }
  // Labels: the mean of y - sigmoid(true logit) is 0 with sd <= 0.5 / sqrt(n); bound 5 sd.
  const std::vector<double> beta = logistic_true_coefficients(k);
  double residual = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    double logit = logistic_true_intercept();
    for (std::int64_t j = 0; j < k; ++j) logit += beta[j] * d.x[i * k + j];
    residual += d.y[i] - 1 / (1 + std::exp(-logit));
  }
  EXPECT_NEAR(residual / n, 0.0, 2.5 / std::sqrt(n));
}

TEST(SampleData, GeneratedHierarchicalAndRegimeData) {
  const HierarchicalData h = generate_hierarchical_data();
  EXPECT_EQ(h.groups, 8);
  EXPECT_EQ(h.y.size(), 200u);
  EXPECT_EQ(h.alpha.size(), 8u);
  // Each group's residuals y - alpha_j - beta x have sd sigma = 0.5: their mean over 25 lies within
  // 5 * 0.5 / sqrt(25) = 0.5 of 0.
  for (std::int64_t j = 0; j < h.groups; ++j) {
    double r = 0;
    for (std::size_t i = 0; i < h.y.size(); ++i)
      if (h.group[i] == j) r += h.y[i] - h.alpha[j] - h.beta * h.x[i];
    EXPECT_NEAR(r / 25, 0.0, 0.5) << "group " << j;
  }
  const RegimeData r = generate_regime_data();
  ASSERT_EQ(r.y.size(), 200u);
  int count[3] = {};
  for (std::size_t i = 0; i < r.y.size(); ++i) {
    EXPECT_GT(r.x[i], -2.0);
    EXPECT_LT(r.x[i], 2.0);
    ++count[r.regime[i]];
    // A draw is within 6 of its regime's scales of its regime's mean (a 1e-9 event otherwise).
    EXPECT_LT(std::abs(r.y[i] - r.mu[r.regime[i]]), 6 * r.sigma[r.regime[i]]) << i;
  }
  for (int k = 0; k < 3; ++k) EXPECT_GT(count[k], 20) << "every regime is visited: regime " << k;
}

}  // namespace
}  // namespace nxv::sample_app
