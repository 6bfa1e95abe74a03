// nxv-bench's mcmc suite, the parts that run without a GPU and without NumPyro: the suite name on the command line,
// the cases per mode, the data and manifest written for numpyro_mcmc.py (read back by the script itself), and the
// peer reporting "skipped: no numpyro" where jax and numpyro are missing.
#include "bench/suites/mcmc.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "bench/child.hpp"
#include "bench/options.hpp"
#include "io/json.hpp"
#include "sample/data.hpp"
#include "support/temp_dir.hpp"

namespace nxv::bench {
namespace {

namespace fs = std::filesystem;

TEST(BenchMcmc, SuiteIsNamedOnTheCommandLine) {
  EXPECT_EQ(from_flags(read_flags({"--suite", "mcmc"})).suites, std::vector<std::string>{"mcmc"});
  EXPECT_EQ(from_flags(read_flags({"--suite", "train,mcmc"})).suites, (std::vector<std::string>{"train", "mcmc"}));
  EXPECT_THROW(from_flags(read_flags({"--suite", "mcmcc"})), UsageError);
}

TEST(BenchMcmc, CasesAreTheIssuesRowsAndSmallerInQuickAndSmokeModes) {
  Options o;
  std::vector<std::string> ids;
  for (const McmcCase& c : mcmc_cases(o)) {
    ids.push_back(c.id());
    EXPECT_EQ(c.warmup, 500);
    EXPECT_EQ(c.samples, 500);
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"k8.n200.c1024", "k100.n10000.c1024", "k8.n200.c16", "k8.n200.c65536",
                                           "regime.n200.c1024", "k8.n200.c1024.f64"}));
  o.quick = true;
  ASSERT_EQ(mcmc_cases(o).size(), 1u);
  EXPECT_LE(mcmc_cases(o)[0].chains * (mcmc_cases(o)[0].warmup + mcmc_cases(o)[0].samples), 16 * 200);
  o.smoke = true;
  EXPECT_LT(mcmc_cases(o)[0].features, 8);
  EXPECT_EQ(McmcCase{}.label(), "logistic 8 x 200, 1024 chains");
  McmcCase regime_f64;
  regime_f64.model = "regime";
  regime_f64.dtype = DType::f64;
  EXPECT_EQ(regime_f64.label(), "regime 200 observations, 1024 chains, f64");
}

TEST(BenchMcmc, RunsCanBeChosenByCaseAndSampler) {
  const Options o =
      from_flags(read_flags({"--suite", "mcmc", "--mcmc-runs", "k8.n200.c65536.nuts,k8.n200.c16"})).options;
  const std::vector<McmcCase> cases = mcmc_cases(o);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].id(), "k8.n200.c65536");
  EXPECT_EQ(cases[0].samplers, std::vector<std::string>{"nuts"});
  EXPECT_EQ(cases[1].id(), "k8.n200.c16");
  EXPECT_EQ(cases[1].samplers, (std::vector<std::string>{"hmc", "nuts"}));
  // A second mention of a case adds its sampler once.
  Options twice;
  twice.mcmc_runs = {"k8.n200.c1024.hmc", "k8.n200.c1024.nuts", "k8.n200.c1024"};
  ASSERT_EQ(mcmc_cases(twice).size(), 1u);
  EXPECT_EQ(mcmc_cases(twice)[0].samplers, (std::vector<std::string>{"hmc", "nuts"}));
  try {
    from_flags(read_flags({"--suite", "mcmc", "--mcmc-runs", "k8.n200.c17"}));
    ADD_FAILURE() << "an unknown case was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("k8.n200.c17"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("k100.n10000.c1024"), std::string::npos) << e.what();
  }
  EXPECT_THROW(from_flags(read_flags({"--mcmc-runs", ","})), UsageError);
  // A dtype in the id, then a sampler.
  Options f64;
  f64.mcmc_runs = {"k8.n200.c1024.f64.nuts", "regime.n200.c1024"};
  ASSERT_EQ(mcmc_cases(f64).size(), 2u);
  EXPECT_EQ(mcmc_cases(f64)[0].dtype, DType::f64);
  EXPECT_EQ(mcmc_cases(f64)[0].samplers, std::vector<std::string>{"nuts"});
  EXPECT_EQ(mcmc_cases(f64)[1].model, "regime");
}

class BenchMcmcFiles : public ::testing::Test {
 protected:
  // A directory of its own per test (ctest runs these two at once).
  io_test::TempDir temp_;
  const fs::path dir_ = temp_.path() / "peer";
};

TEST_F(BenchMcmcFiles, PeerInputsHoldTheGeneratedDataAndAManifest) {
  McmcCase regime{8, 200, 4, 10, 12};
  regime.model = "regime";
  const std::vector<McmcCase> cases{{3, 40, 4, 10, 12}, {2, 25, 8, 5, 6}, regime};
  write_mcmc_peer_inputs(dir_, cases);
  for (const McmcCase& c : {cases[0], cases[1]}) {
    const sample_app::LogisticData back = sample_app::read_logistic_csv(dir_ / (c.id() + ".csv"));
    const sample_app::LogisticData want = sample_app::generate_logistic_data(c.features, c.observations);
    EXPECT_EQ(back.x, want.x) << c.id();
    EXPECT_EQ(back.y, want.y) << c.id();
  }
  std::ifstream in(dir_ / "manifest.json");
  std::stringstream text;
  text << in.rdbuf();
  const io::json::Value root = io::json::parse(text.str());
  ASSERT_NE(root.find("num_steps"), nullptr);
  EXPECT_EQ(root.find("num_steps")->text, "32");
  const io::json::Value* listed = root.find("cases");
  ASSERT_NE(listed, nullptr);
  ASSERT_EQ(listed->items.size(), 3u);
  EXPECT_EQ(listed->items[2].find("model")->text, "regime");
  EXPECT_EQ(listed->items[2].find("dtype")->text, "f32");
  EXPECT_EQ(listed->items[1].find("id")->text, "k2.n25.c8");
  EXPECT_EQ(listed->items[1].find("chains")->text, "8");
  EXPECT_EQ(listed->items[1].find("samples")->text, "6");
  const io::json::Value* samplers = listed->items[1].find("samplers");
  ASSERT_NE(samplers, nullptr);
  ASSERT_EQ(samplers->items.size(), 2u);
  EXPECT_EQ(samplers->items[1].text, "nuts");

  // The peer's own reader (no jax needed) reads the same rows and features back.
  const ChildResult verify = run_child({"python3", numpyro_script(), "--in", dir_.string(), "--verify-input"});
  if (verify.exit_code == 127) GTEST_SKIP() << "no python3";
  EXPECT_EQ(verify.exit_code, 0) << verify.output;
  EXPECT_NE(verify.output.find("k3.n40.c4: 40 rows, 3 features"), std::string::npos) << verify.output;
  EXPECT_NE(verify.output.find("k2.n25.c8: 25 rows, 2 features"), std::string::npos) << verify.output;
  // The regime model's covariate and observation, as generate_regime_data made them.
  EXPECT_NE(verify.output.find("regime.n200.c4: 200 rows, 1 features"), std::string::npos) << verify.output;
}

TEST_F(BenchMcmcFiles, PeerWithoutNumpyroIsSkippedCleanly) {
  const ChildResult probe = run_child({"python3", "-c",
                                       "import importlib.util as u, sys; "
                                       "sys.exit(0 if u.find_spec('jax') and u.find_spec('numpyro') else 1)"});
  if (probe.exit_code == 0) GTEST_SKIP() << "numpyro is installed here: the peer would run";
  write_mcmc_peer_inputs(dir_, {{2, 20, 2, 4, 4}});
  Options o;
  const NumpyroRun run = run_numpyro_peer(o, dir_);
  EXPECT_FALSE(run.available);
  EXPECT_EQ(run.status, "skipped: no numpyro") << run.detail;
  EXPECT_TRUE(run.results.empty());
}

}  // namespace
}  // namespace nxv::bench
