// nxv-bench: its timing harness alternates arms and computes medians right, and its --smoke run (what
// CI runs, on lavapipe) exits 0 with JSON and Markdown that are well-formed and hold every expected row, every
// check passed, and a results entry appended. The peers suite reports "skipped: ..." where torch or CUDA is missing.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bench/harness.hpp"
#include "io/json.hpp"
#include "support/bench_cli.hpp"
#include "support/temp_dir.hpp"

namespace nxv {
namespace {

namespace fs = std::filesystem;
using io::json::Value;
using namespace testing::bench_cli;

TEST(BenchHarness, PercentilesInterpolateBetweenOrderStatistics) {
  const bench::Stats s = bench::summarize({5, 1, 4, 2, 3});
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.p10, 1.4);
  EXPECT_DOUBLE_EQ(s.p90, 4.6);
  EXPECT_EQ(s.samples, (std::vector<double>{5, 1, 4, 2, 3}));  // raw samples keep their order
  EXPECT_DOUBLE_EQ(bench::summarize({2, 4}).median, 3);
}

TEST(BenchHarness, ArmsAlternateAfterTheWarmUpAndSlowArmsTakeFewerSamples) {
  std::string order;
  double a = 0, b = 0, c = 0;
  const std::vector<bench::Arm> arms{{"A",
                                      [&] {
                                        order += 'A';
                                        return a += 1;
                                      },
                                      0, true},
                                     {"B",
                                      [&] {
                                        order += 'B';
                                        return b += 1;
                                      },
                                      0, true},
                                     {"C",
                                      [&] {
                                        order += 'C';
                                        return c += 1;
                                      },
                                      2, false}};
  const std::vector<bench::Stats> s = bench::alternate(arms, 4, /*warmup_ms=*/0);
  // Warm-up: each arm once; then rounds A B C, A B C, A B, A B.
  EXPECT_EQ(order,
            "ABC"
            "ABC"
            "ABC"
            "AB"
            "AB");
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].samples, (std::vector<double>{2, 3, 4, 5}));  // the warm-up's sample is not kept
  EXPECT_EQ(s[2].samples, (std::vector<double>{2, 3}));
}

// The warm-up's logic on a clock of the test's own (no wall-clock timing): each GPU sample advances it by 2 ms,
// the host arm by nothing.
TEST(BenchHarness, WarmUpRunsOnlyTheGpuArmsUntilItsTimeHasPassed) {
  int gpu = 0, host = 0;
  bench::Clock::time_point clock{};
  const std::vector<bench::Arm> arms{{"gpu",
                                      [&] {
                                        ++gpu;
                                        clock += std::chrono::milliseconds(2);
                                        return 0.002;
                                      },
                                      0, true},
                                     {"host",
                                      [&] {
                                        ++host;
                                        return 0.0;
                                      },
                                      1, false}};
  bench::alternate(arms, 1, /*warmup_ms=*/30, [&] { return clock; });
  EXPECT_EQ(gpu, 15 + 1);  // the first pass and 14 more reach 30 ms of 2 ms samples; then the timed one
  EXPECT_EQ(host, 2);      // once in the warm-up, once timed
}

class NxvBenchCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(bench_binary())) FAIL() << bench_binary() << " is missing: build the nxv-bench target";
  }
  io_test::TempDir dir_;
};

TEST_F(NxvBenchCli, HelpNamesEverySuiteAndOption) {
  const BenchRun r = run_bench("--help", dir_.path());
  EXPECT_EQ(r.exit_code, 0);
  for (const char* word : {"--suite", "train", "peers", "kernels", "--json", "--markdown", "--append-results",
                           "--repeat", "--warmup-ms", "--smoke", "--device", "--write-baseline", "--compare",
                           "--tolerance", "--remeasure", "--any-device", "--headlines"})
    EXPECT_NE(r.output.find(word), std::string::npos) << word;
}

TEST_F(NxvBenchCli, RejectsUnknownOptionsAndSuites) {
  EXPECT_EQ(run_bench("--frobnicate", dir_.path()).exit_code, 2);
  EXPECT_EQ(run_bench("--suite train,nope", dir_.path()).exit_code, 2);
  EXPECT_EQ(run_bench("--repeat many", dir_.path()).exit_code, 2);
  EXPECT_NE(read_text(dir_.path() / "stderr.txt").find("--repeat expects an integer, got 'many'"), std::string::npos);
}

TEST_F(NxvBenchCli, SmokeRunWritesEveryExpectedRowAsJsonAndMarkdown) {
  const fs::path json_path = dir_.path() / "bench.json", md_path = dir_.path() / "bench.md",
                 results = dir_.path() / "RESULTS.md";
  std::ofstream(results) << "# Benchmark results\n";
  const BenchRun r =
      run_bench("--smoke --suite all --json " + json_path.string() + " --markdown " + md_path.string() +
                    " --append-results " + results.string() + " --work-dir " + (dir_.path() / "work").string(),
                dir_.path());
  ASSERT_EQ(r.exit_code, 0) << read_text(dir_.path() / "stderr.txt");

  const Value root = io::json::parse(read_text(json_path));
  EXPECT_EQ(member(root, "tool").text, "nxv-bench");
  for (const char* key : {"date", "commit", "command", "device", "driver", "vulkan_api"})
    EXPECT_FALSE(member(root, key).text.empty()) << key;
  const std::string markdown = read_text(md_path);
  EXPECT_EQ(markdown, r.output) << "the tables on stdout and in --markdown differ";

  std::vector<std::string> expected;
  for (const char* model : {"mlp", "lenet", "cnn"})
    for (const char* dtype : {"f32", "f64"})
      for (const char* what : {"vs_reference", "batching"})
        expected.push_back(std::string("train.") + model + ".b2." + dtype + "." + what);
  for (const char* id : {"record_op", "dispatch_in_batch", "batching_per_op", "submit_round_trip", "add.65536",
                         "sum.65536", "gemm.f32.exact.64", "gemm.f32.fast.64", "gemm.f64.exact.64", "gemm.f64.fast.64",
                         "conv.forward", "conv.forward_backward", "cold_start"})
    expected.push_back(std::string("kernels.") + id);

  std::map<std::string, const Value*> rows;
  std::map<std::string, std::string> status;
  for (const Value& suite : member(root, "suites").items) {
    status[member(suite, "name").text] = member(suite, "status").text;
    for (const Value& row : member(suite, "rows").items) rows[member(row, "id").text] = &row;
    for (const Value& check : member(suite, "checks").items)
      EXPECT_TRUE(member(check, "ok").boolean) << member(check, "what").text;
  }
  EXPECT_EQ(status["train"], "ok");
  EXPECT_EQ(status["kernels"], "ok");
  // Without torch (or without a CUDA device for it) the peers suite is skipped, not failed; on the GPU machine it runs.
  EXPECT_TRUE(status["peers"] == "ok" || status["peers"] == "skipped: no torch" ||
              status["peers"] == "skipped: no CUDA device")
      << status["peers"];
  for (const std::string& id : expected) {
    ASSERT_TRUE(rows.count(id)) << "row " << id << " is missing";
    const Value& row = *rows[id];
    const Value& a = member(row, "a");
    ASSERT_EQ(a.kind, Value::Kind::object) << id;
    EXPECT_GT(std::stod(member(a, "value").text), 0) << id;
    EXPECT_GE(member(a, "samples_s").items.size(), 1u) << id;
    EXPECT_NE(markdown.find(member(row, "what").text), std::string::npos) << id << " is not in the Markdown";
    if (member(row, "b").kind == Value::Kind::object) {
      EXPECT_EQ(member(row, "ratio").kind, Value::Kind::number) << id;
    }
  }
  // The arms took the smoke run's samples: 3 each, 1 for the reference backend.
  EXPECT_EQ(member(member(*rows["train.lenet.b2.f32.batching"], "b"), "samples_s").items.size(), 3u);
  EXPECT_EQ(member(member(*rows["train.lenet.b2.f32.vs_reference"], "b"), "samples_s").items.size(), 1u);
  for (const char* heading : {"### train", "### peers", "### kernels", "| what | arm A | arm B | A / B | target |"})
    EXPECT_NE(markdown.find(heading), std::string::npos) << heading;

  const std::string appended = read_text(results);
  EXPECT_EQ(appended.rfind("# Benchmark results\n", 0), 0u) << "--append-results must not overwrite";
  EXPECT_NE(appended.find("— commit " + member(root, "commit").text + " — "), std::string::npos);
  EXPECT_NE(appended.find("Command: `nxv-bench --smoke"), std::string::npos);
  EXPECT_NE(appended.find("### kernels"), std::string::npos);
}

}  // namespace
}  // namespace nxv
