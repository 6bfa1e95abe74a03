// nxv-sample's outputs for a small hand-made Samples (2 chains, 5 draws, mu [] and beta [2]): the CSV's columns and
// rows, the safetensors' names and shapes, the summary file, the plots, and the rank histograms.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/safetensors.hpp"
#include "nxv/ops.hpp"
#include "sample/outputs.hpp"

namespace nxv::sample_app {
namespace {

namespace fs = std::filesystem;

Tensor values(const std::vector<double>& v, const Shape& shape) {
  return tensor<double>(v, shape, reference_backend());
}

// mu[c, i] = 10 c + i; beta[c, i, j] = 100 c + 10 i + j.
mcmc::Samples fake_samples() {
  const std::int64_t chains = 2, draws = 5;
  std::vector<double> mu, beta, q, lp, accept, energy;
  for (std::int64_t c = 0; c < chains; ++c)
    for (std::int64_t i = 0; i < draws; ++i) {
      mu.push_back(10.0 * c + i);
      for (int j = 0; j < 2; ++j) beta.push_back(100.0 * c + 10.0 * i + j);
      q.insert(q.end(), {10.0 * c + i, 100.0 * c + 10.0 * i, 100.0 * c + 10.0 * i + 1});
      lp.push_back(-1.0 - c - 0.1 * i);
      accept.push_back(0.5 + 0.01 * i);
      energy.push_back(2.0 + i);
    }
  mcmc::Samples s;
  s.names = {"mu", "beta"};
  s.draws = {{"mu", values(mu, {chains, draws})}, {"beta", values(beta, {chains, draws, 2})}};
  s.unconstrained = values(q, {chains, draws, 3});
  s.log_density = values(lp, {chains, draws});
  s.accept_stat = values(accept, {chains, draws});
  s.energy = values(energy, {chains, draws});
  s.diverging = tensor<bool>(std::vector<bool>{false, false, true, false, false, false, false, false, false, true},
                             {chains, draws}, reference_backend());
  s.num_steps = tensor<std::int64_t>(std::vector<std::int64_t>(10, 7), {chains, draws}, reference_backend());
  s.tree_depth = tensor<std::int64_t>(std::vector<std::int64_t>(10, 3), {chains, draws}, reference_backend());
  s.step_size = values({0.25, 0.5}, {chains});
  s.inverse_mass = values({1, 2, 3, 4, 5, 6}, {chains, 3});
  return s;
}

std::vector<std::string> lines_of(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<double> fields(const std::string& line) {
  std::vector<double> out;
  std::stringstream s(line);
  for (std::string f; std::getline(s, f, ',');) out.push_back(std::stod(f));
  return out;
}

TEST(SampleOutputs, ElementNamesAndDraws) {
  const std::vector<ElementDraws> e = element_draws(fake_samples());
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].name, "mu");
  EXPECT_EQ(e[1].name, "beta[0]");
  EXPECT_EQ(e[2].name, "beta[1]");
  EXPECT_EQ(e[2].chains[1], (std::vector<double>{101, 111, 121, 131, 141}));
}

TEST(SampleOutputs, WritesCsvSafetensorsSummaryAndPlots) {
  const fs::path dir = fs::temp_directory_path() / "nxv_sample_outputs_test";
  fs::remove_all(dir);
  const mcmc::Samples s = fake_samples();
  const std::vector<fs::path> files = write_outputs(dir, s, "the summary\n", {{"model", "fake"}});
  ASSERT_EQ(files.size(), 3u + 2 * 3) << "csv, safetensors, summary, and a trace and a rank plot per element";
  for (const fs::path& f : files) EXPECT_TRUE(fs::is_regular_file(f)) << f;
  EXPECT_TRUE(fs::is_regular_file(dir / "trace_beta_1.png"));
  EXPECT_TRUE(fs::is_regular_file(dir / "rank_mu.png"));

  const std::vector<std::string> csv = lines_of(dir / "draws.csv");
  ASSERT_EQ(csv.size(), 1u + 2 * 5) << "a header and one row per (chain, draw)";
  EXPECT_EQ(csv[0],
            "chain,draw,mu,beta[0],beta[1],log_density,accept_stat,diverging,tree_depth,num_steps,step_size,energy");
  // Row 3 is chain 0, draw 2 (diverging); row 10 chain 1, draw 4 (diverging); numbers read back exactly.
  EXPECT_EQ(fields(csv[3]),
            (std::vector<double>{0, 2, 2, 20, 21, -1.0 - 0 - 0.1 * 2, 0.5 + 0.01 * 2, 1, 3, 7, 0.25, 4}));
  EXPECT_EQ(fields(csv[10]),
            (std::vector<double>{1, 4, 14, 140, 141, -1.0 - 1 - 0.1 * 4, 0.5 + 0.01 * 4, 1, 3, 7, 0.5, 6}));

  const io::SafetensorsFile st = io::load_safetensors(dir / "draws.safetensors", reference_backend());
  const std::map<std::string, Shape> shapes{
      {"mu", {2, 5}},          {"beta", {2, 5, 2}}, {"unconstrained", {2, 5, 3}}, {"log_density", {2, 5}},
      {"accept_stat", {2, 5}}, {"energy", {2, 5}},  {"diverging", {2, 5}},        {"num_steps", {2, 5}},
      {"tree_depth", {2, 5}},  {"step_size", {2}},  {"inverse_mass", {2, 3}}};
  EXPECT_EQ(st.tensors.size(), shapes.size());
  for (const auto& [name, shape] : shapes) {
    ASSERT_TRUE(st.tensors.count(name)) << name;
    EXPECT_EQ(st.tensors.at(name).shape(), shape) << name;
  }
  EXPECT_EQ(st.tensors.at("diverging").dtype(), DType::pred);
  EXPECT_EQ(st.tensors.at("beta").to_vector<double>(), s.draws.at("beta").to_vector<double>());
  EXPECT_EQ(st.metadata.at("model"), "fake");

  EXPECT_EQ(lines_of(dir / "summary.txt"), (std::vector<std::string>{"the summary"}));
  std::ifstream png(dir / "rank_beta_0.png", std::ios::binary);
  char signature[8] = {};
  png.read(signature, 8);
  EXPECT_EQ(std::string(signature + 1, 3), "PNG");
  fs::remove_all(dir);
}

TEST(SampleOutputs, ParameterNamedLikeAStatisticIsRefused) {
  mcmc::Samples s = fake_samples();
  s.names = {"energy"};
  s.draws = {{"energy", s.draws.at("mu")}};
  EXPECT_THROW(write_draws_safetensors(fs::temp_directory_path() / "nxv_sample_bad.safetensors", s, {}), Error);
}

TEST(SampleOutputs, RankHistograms) {
  // Chain 0 holds the 5 smallest values: all its ranks fall in the lower half.
  EXPECT_EQ(rank_histograms({{0, 1, 2, 3, 4}, {5, 6, 7, 8, 9}}, 2), (std::vector<std::vector<double>>{{5, 0}, {0, 5}}));
  // Interleaved chains: uniform.
  EXPECT_EQ(rank_histograms({{0, 2, 4, 6}, {1, 3, 5, 7}}, 4),
            (std::vector<std::vector<double>>{{1, 1, 1, 1}, {1, 1, 1, 1}}));
  // Ties share their average rank: the 4 equal values rank 1.5 of 0..5, the lower of 2 bins; 5 and 6 the upper.
  EXPECT_EQ(rank_histograms({{1, 1, 5}, {1, 1, 6}}, 2), (std::vector<std::vector<double>>{{2, 1}, {2, 1}}));
  EXPECT_THROW(rank_histograms({}, 3), Error);
}

}  // namespace
}  // namespace nxv::sample_app
