// nxv-bench --write-baseline, --compare and --headlines end to end on lavapipe, with --smoke sizes: two runs fill
// one baseline file, a doctored copy of it makes a row regress (and rows go missing on both sides), another
// device's baseline is refused unless --any-device, and an unchanged one compares clean.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "bench/baseline.hpp"
#include "support/bench_cli.hpp"
#include "support/temp_dir.hpp"

namespace nxv {
namespace {

namespace fs = std::filesystem;
using namespace testing::bench_cli;

// The line of the comparison table that starts with `id`.
std::string line_of(const std::string& table, const std::string& id) {
  const std::size_t at = table.find("| " + id + " |");
  if (at == std::string::npos) return "";
  return table.substr(at, table.find('\n', at) - at);
}

class NxvBenchBaselineCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(bench_binary())) FAIL() << bench_binary() << " is missing: build the nxv-bench target";
  }
  std::string work() const { return " --work-dir " + (dir_.path() / "work").string(); }
  void write(const fs::path& p, const bench::Baseline& b) { std::ofstream(p) << bench::to_json(b); }
  io_test::TempDir dir_;
};

TEST_F(NxvBenchBaselineCli, WriteThenCompareFlagsRegressionsMissingRowsAndOtherDevices) {
  const fs::path file = dir_.path() / "baseline.json";
  const std::string train = "--smoke --suite train --models mlp --dtypes f32";
  ASSERT_EQ(run_bench(train + " --write-baseline " + file.string() + work(), dir_.path()).exit_code, 0)
      << read_text(dir_.path() / "stderr.txt");
  ASSERT_EQ(run_bench("--smoke --suite kernels --gemm-only --write-baseline " + file.string() + work(), dir_.path())
                .exit_code,
            0)
      << read_text(dir_.path() / "stderr.txt");

  const bench::Baseline base = bench::read_baseline(file.string());
  ASSERT_EQ(base.suites.size(), 2u) << "the second run merges its suite into the file";
  const bench::BaselineSuite& t = *base.find("train");
  EXPECT_FALSE(t.device.empty());
  EXPECT_FALSE(t.commit.empty());
  EXPECT_EQ(t.options.at("--smoke"), "1");
  EXPECT_EQ(t.options.at("--models"), "mlp");
  EXPECT_EQ(t.options.count("--write-baseline"), 0u);
  ASSERT_NE(t.find("train.mlp.b2.f32.batching"), nullptr);
  ASSERT_NE(t.find("train.mlp.b2.f32.vs_reference"), nullptr);
  ASSERT_NE(base.find("kernels")->find("kernels.gemm.f32.fast.64"), nullptr);

  const BenchRun headlines = run_bench("--headlines " + file.string(), dir_.path());
  EXPECT_EQ(headlines.exit_code, 0);
  EXPECT_EQ(headlines.output.rfind("Measured on " + t.device, 0), 0u) << headlines.output;

  // A baseline 1000x faster than anything lavapipe does, a row gone from it and one it has that the suite lacks.
  bench::Baseline doctored = base;
  bench::BaselineSuite& dt = doctored.suites[0];
  std::vector<bench::BaselineRow> rows;
  for (bench::BaselineRow r : dt.rows) {
    if (r.id == "train.mlp.b2.f32.vs_reference") continue;
    if (r.id == "train.mlp.b2.f32.batching") {  // its spread too: a row within the baseline's p10-p90 is no regression
      r.a.value /= 1000;
      r.a.p10 /= 1000;
      r.a.p90 /= 1000;
    }
    rows.push_back(r);
  }
  rows.push_back(rows.front());
  rows.back().id = "train.mlp.b2.f32.ghost";
  dt.rows = rows;
  const fs::path doctored_file = dir_.path() / "doctored.json";
  write(doctored_file, doctored);
  const BenchRun c = run_bench("--compare " + doctored_file.string() + " --suite train" + work(), dir_.path());
  EXPECT_EQ(c.exit_code, 1) << c.output;
  const std::string regressed = line_of(c.output, "train.mlp.b2.f32.batching");
  EXPECT_NE(regressed.find("**REGRESSED**"), std::string::npos) << c.output;
  EXPECT_NE(regressed.find("best of"), std::string::npos) << "it was measured again: " << regressed;
  EXPECT_NE(line_of(c.output, "train.mlp.b2.f32.ghost").find("missing now"), std::string::npos) << c.output;
  EXPECT_NE(line_of(c.output, "train.mlp.b2.f32.vs_reference").find("not in the baseline"), std::string::npos)
      << c.output;

  bench::Baseline elsewhere = base;
  for (bench::BaselineSuite& s : elsewhere.suites) s.device = "Some Other GPU";
  const fs::path elsewhere_file = dir_.path() / "elsewhere.json";
  write(elsewhere_file, elsewhere);
  const BenchRun refused = run_bench("--compare " + elsewhere_file.string() + " --suite kernels" + work(), dir_.path());
  EXPECT_EQ(refused.exit_code, 2);
  const std::string why = read_text(dir_.path() / "stderr.txt");
  EXPECT_NE(why.find("measured on Some Other GPU"), std::string::npos) << why;
  EXPECT_NE(why.find("like with like"), std::string::npos) << why;

  // The unchanged rows compare clean (a wide tolerance: lavapipe shares this machine's two cores with the build).
  const BenchRun same = run_bench(
      "--compare " + elsewhere_file.string() + " --suite kernels --any-device --tolerance 0.95" + work(), dir_.path());
  EXPECT_EQ(same.exit_code, 0) << same.output << read_text(dir_.path() / "stderr.txt");
  for (const bench::BaselineRow& r : base.find("kernels")->rows) {
    const std::string line = line_of(same.output, r.id);
    EXPECT_TRUE(line.find("| ok |") != std::string::npos || line.find("| better |") != std::string::npos ||
                line.find("| ok on re-measure |") != std::string::npos)
        << r.id << ": " << line;
  }
}

TEST_F(NxvBenchBaselineCli, CompareOptionsAreCheckedBeforeAnythingRuns) {
  EXPECT_EQ(run_bench("--compare " + (dir_.path() / "none.json").string(), dir_.path()).exit_code, 1);
  EXPECT_NE(read_text(dir_.path() / "stderr.txt").find("cannot read the baseline"), std::string::npos);
  EXPECT_EQ(run_bench("--compare x.json --tolerance lots", dir_.path()).exit_code, 2);
  EXPECT_EQ(run_bench("--compare x.json --write-baseline y.json", dir_.path()).exit_code, 2);
}

}  // namespace
}  // namespace nxv
