// The README's Performance table is generated from bench/baseline.json (nxv-bench --headlines): the generator's
// rows from a baseline built here, and the README's table between its markers checked against bench/baseline.json
// (skipped, saying so, while that file has not been measured yet).
#include "bench/headlines.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "support/bench_cli.hpp"

namespace nxv::bench {
namespace {

namespace fs = std::filesystem;

Baseline h200_baseline() {
  BaselineSuite peers{
      "peers", "2026-12-01 10:00 UTC", "abc1234", "nxv-bench --suite peers", "NVIDIA H200", "NVIDIA 570.1", "1.3", {},
      {}};
  peers.rows.push_back(BaselineRow{"peers.mlp.b32.f32.eager",
                                   "mlp b32 f32: training step",
                                   "ms",
                                   false,
                                   {"nx_vulkan (Vulkan)", 0.444, 0.43, 0.46},
                                   BaselineArm{"PyTorch eager", 1.13, 1.1, 1.2},
                                   "our time / PyTorch's",
                                   Target{"<=", 0.5}});
  BaselineSuite kernels = peers;
  kernels.name = "kernels";
  kernels.commit = "def5678";
  kernels.date = "2026-12-02 09:00 UTC";
  kernels.rows = {BaselineRow{"kernels.record_op",
                              "host cost of recording one eager elementwise op (x + z)",
                              "µs",
                              false,
                              {"Vulkan", 1.5, 1.4, 1.6},
                              std::nullopt,
                              "",
                              Target{"<=", 3}}};
  return Baseline{{peers, kernels}};
}

TEST(BenchHeadlines, RowsComeFromTheBaselineWithTheirRatiosAndTargets) {
  const std::string md = headlines_markdown(h200_baseline());
  EXPECT_EQ(md.rfind("Measured on NVIDIA H200 (NVIDIA 570.1), 2026-12-01, 2026-12-02, commits abc1234, def5678", 0), 0u)
      << md;
  EXPECT_NE(md.find("| | nx_vulkan | against | ratio | target |\n|---|---|---|---|---|\n"), std::string::npos);
  EXPECT_NE(
      md.find("| MLP training step, batch 32, f32, op by op, against PyTorch eager | nx_vulkan (Vulkan): 0.444 "
              "ms (0.43–0.46) | PyTorch eager: 1.13 ms (1.10–1.20) | 0.393 (our time / PyTorch's) | ≤ 0.5: met |"),
      std::string::npos)
      << md;
  EXPECT_NE(md.find("| recording one eager op (host) | Vulkan: 1.50 µs (1.40–1.60) |  |  | ≤ 3.00 µs: met |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| f32 sum, 2^28 elements, against a device copy | not in the baseline | | | |"), std::string::npos)
      << md;
}

TEST(BenchHeadlines, TheReadmeBlockIsWhatIsBetweenTheMarkers) {
  const std::string table = headlines_markdown(h200_baseline());
  const std::string readme = std::string("# x\n\n") + kHeadlinesBegin + table + kHeadlinesEnd + "\n\nmore\n";
  EXPECT_EQ(readme_headlines(readme), table);
  EXPECT_FALSE(readme_headlines("# no markers\n").has_value());
}

// The check the README gets, as it will run once bench/baseline.json is measured on the H200.
TEST(BenchHeadlines, TheReadmeTableIsTheOneTheBaselineGenerates) {
  const fs::path baseline = fs::path(NXV_SOURCE_DIR) / "bench" / "baseline.json";
  if (!fs::exists(baseline))
    GTEST_SKIP() << "bench/baseline.json is absent (it is measured on the H200: see the README's Performance "
                    "section), so the README's headline table is not checked yet";
  const std::string readme = testing::bench_cli::read_text(fs::path(NXV_SOURCE_DIR) / "README.md");
  const std::optional<std::string> block = readme_headlines(readme);
  ASSERT_TRUE(block.has_value()) << "README.md lacks the lines " << kHeadlinesBegin << " and " << kHeadlinesEnd;
  EXPECT_EQ(*block, headlines_markdown(read_baseline(baseline.string())))
      << "README.md's headline table is stale: regenerate it with scripts/update_headlines.py (the output of "
         "`build/apps/nxv-bench --headlines bench/baseline.json`)";
}

}  // namespace
}  // namespace nxv::bench
