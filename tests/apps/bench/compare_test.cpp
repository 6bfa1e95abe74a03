// nxv-bench --compare's logic on injected measurements (no timing): which way is worse for times and rates, the
// tolerance's edges, re-measuring a row that looks regressed, refusing another device's baseline, rows missing on
// either side, and the narrowed options of a re-measure.
#include "bench/compare.hpp"

#include <gtest/gtest.h>

#include <map>

namespace nxv::bench {
namespace {

BaselineRow row(const std::string& id, const std::string& unit, double value) {
  return BaselineRow{id,           id, unit,        higher_is_better(unit), {"ours", value, value * 0.9, value * 1.1},
                     std::nullopt, "", std::nullopt};
}

BaselineSuite suite(std::vector<BaselineRow> rows) {
  return BaselineSuite{"kernels", "2026-12-01", "abc", "nxv-bench", "NVIDIA H200", "", "", {}, std::move(rows)};
}

SuiteReport report(const std::map<std::string, std::pair<std::string, double>>& values) {
  SuiteReport r{"kernels", "ok", {}, {}, {}, {}};
  for (const auto& [id, v] : values)
    r.rows.push_back(Row{id, id, v.first, Measurement{"ours", Stats{}, v.second, v.second, v.second}, std::nullopt, "",
                         std::nullopt, ""});
  return r;
}

// A measure function that returns the next of `attempts` on each call and records the ids asked for.
struct Scripted {
  std::vector<SuiteReport> attempts;
  std::vector<std::vector<std::string>> asked;
  MeasureFn fn() {
    return [this](const std::string&, const std::vector<std::string>& ids) {
      asked.push_back(ids);
      return attempts.at(asked.size() - 1);
    };
  }
};

const RowComparison& find(const SuiteComparison& c, const std::string& id) {
  for (const RowComparison& r : c.rows)
    if (r.id == id) return r;
  throw std::runtime_error("no row " + id);
}

TEST(BenchCompare, ATimeIsWorseWhenHigherAndARateWhenLower) {
  EXPECT_TRUE(worse(1.2, 1.0, /*higher_is_better=*/false, 0.1));
  EXPECT_FALSE(worse(0.8, 1.0, false, 0.1));
  EXPECT_TRUE(worse(80, 100, /*higher_is_better=*/true, 0.1));
  EXPECT_FALSE(worse(120, 100, true, 0.1));
  EXPECT_TRUE(better(0.8, 1.0, false, 0.1));
  EXPECT_TRUE(better(120, 100, true, 0.1));
  EXPECT_FALSE(better(1.05, 1.0, false, 0.1));
}

TEST(BenchCompare, ARowWithinTheBaselinesOwnSpreadIsNotARegression) {
  RowComparison time{"kernels.record_op", "µs", false, 1.59, 1.54, 3.41, std::nullopt, {}, Verdict::ok};
  const CompareConfig config;
  EXPECT_FALSE(looks_regressed(2.04, time, config));  // 28% slower, inside p10-p90
  EXPECT_TRUE(looks_regressed(3.5, time, config));    // past p90 too
  RowComparison rate{"kernels.sum", "GB/s", true, 3000, 2500, 3200, std::nullopt, {}, Verdict::ok};
  EXPECT_FALSE(looks_regressed(2600, rate, config));  // 13% lower, above p10
  EXPECT_TRUE(looks_regressed(2400, rate, config));
  rate.baseline_p10.reset();  // no spread recorded: the tolerance alone decides
  EXPECT_TRUE(looks_regressed(2600, rate, config));
  EXPECT_FALSE(looks_regressed(2800, rate, config));
}

TEST(BenchCompare, ExactlyTheToleranceIsNotARegressionAndJustPastItIs) {
  EXPECT_FALSE(worse(110, 100, false, 0.10));  // 10% slower: within
  EXPECT_TRUE(worse(110.01, 100, false, 0.10));
  EXPECT_FALSE(worse(90, 100, true, 0.10));  // 10% lower rate: within
  EXPECT_TRUE(worse(89.99, 100, true, 0.10));
  EXPECT_FALSE(worse(104, 100, false, 0.05));  // the tolerance is the caller's
  EXPECT_TRUE(worse(106, 100, false, 0.05));
  EXPECT_TRUE(worse(100.01, 100, false, 0.0));
  EXPECT_FALSE(worse(100, 100, false, 0.0));
}

TEST(BenchCompare, RowsWithinTheToleranceAreOkAndClearlyBetterOnesSaySo) {
  Scripted m{{report({{"kernels.t", {"ms", 1.05}}, {"kernels.r", {"GB/s", 150}}})}, {}};
  const SuiteComparison c = compare_suite(suite({row("kernels.t", "ms", 1.0), row("kernels.r", "GB/s", 100)}), m.fn(),
                                          CompareConfig{0.10, 2});
  EXPECT_EQ(find(c, "kernels.t").verdict, Verdict::ok);
  EXPECT_EQ(find(c, "kernels.r").verdict, Verdict::better);
  EXPECT_DOUBLE_EQ(*find(c, "kernels.r").ratio(), 1.5);
  EXPECT_FALSE(c.regressed());
  EXPECT_EQ(m.asked.size(), 1u) << "nothing looked regressed, so nothing is measured again";
}

TEST(BenchCompare, AnApparentRegressionIsMeasuredAgainAndClearedWhenARemeasureIsWithin) {
  Scripted m{{report({{"kernels.t", {"ms", 1.5}}, {"kernels.u", {"ms", 1.0}}}), report({{"kernels.t", {"ms", 1.3}}}),
              report({{"kernels.t", {"ms", 1.02}}})},
             {}};
  const SuiteComparison c =
      compare_suite(suite({row("kernels.t", "ms", 1.0), row("kernels.u", "ms", 1.0)}), m.fn(), CompareConfig{0.10, 2});
  ASSERT_EQ(m.asked.size(), 3u);
  EXPECT_EQ(m.asked[1], (std::vector<std::string>{"kernels.t"})) << "a re-measure asks only for the suspect rows";
  const RowComparison& t = find(c, "kernels.t");
  EXPECT_EQ(t.verdict, Verdict::remeasured_ok);
  EXPECT_EQ(t.attempts, (std::vector<double>{1.5, 1.3, 1.02}));
  EXPECT_DOUBLE_EQ(*t.now, 1.02);
  EXPECT_FALSE(c.regressed());
}

TEST(BenchCompare, ARowWorseInEveryAttemptIsFlaggedWithItsBestAttempt) {
  Scripted m{{report({{"kernels.r", {"GB/s", 70}}}), report({{"kernels.r", {"GB/s", 85}}}),
              report({{"kernels.r", {"GB/s", 60}}})},
             {}};
  const SuiteComparison c = compare_suite(suite({row("kernels.r", "GB/s", 100)}), m.fn(), CompareConfig{0.10, 2});
  EXPECT_EQ(m.asked.size(), 3u);
  const RowComparison& r = find(c, "kernels.r");
  EXPECT_EQ(r.verdict, Verdict::regressed);
  EXPECT_DOUBLE_EQ(*r.now, 85);  // the best of 70, 85, 60: a rate's best is its highest
  EXPECT_TRUE(c.regressed());
  const std::string table = comparison_markdown({c}, CompareConfig{0.10, 2});
  EXPECT_NE(table.find("| kernels.r | 100 GB/s (90.0–110) | 85.0 GB/s (best of 70.0, 85.0, 60.0) | 0.85 (higher is "
                       "better) | **REGRESSED** |"),
            std::string::npos)
      << table;
}

TEST(BenchCompare, NoRemeasuresFlagsAtOnce) {
  Scripted m{{report({{"kernels.t", {"ms", 2.0}}})}, {}};
  const SuiteComparison c = compare_suite(suite({row("kernels.t", "ms", 1.0)}), m.fn(), CompareConfig{0.10, 0});
  EXPECT_EQ(m.asked.size(), 1u);
  EXPECT_EQ(find(c, "kernels.t").verdict, Verdict::regressed);
}

TEST(BenchCompare, RowsMissingOnEitherSideAreReportedNotDropped) {
  Scripted m{{report({{"kernels.kept", {"ms", 1.0}}, {"kernels.new", {"ms", 3.0}}})}, {}};
  const SuiteComparison c =
      compare_suite(suite({row("kernels.kept", "ms", 1.0), row("kernels.gone", "ms", 1.0)}), m.fn(), CompareConfig{});
  EXPECT_EQ(find(c, "kernels.gone").verdict, Verdict::missing_now);
  EXPECT_FALSE(find(c, "kernels.gone").now.has_value());
  EXPECT_EQ(find(c, "kernels.new").verdict, Verdict::not_in_baseline);
  EXPECT_FALSE(c.regressed()) << "a missing row is reported, not a regression";
  const std::string table = comparison_markdown({c}, CompareConfig{});
  EXPECT_NE(table.find("| kernels.gone | 1.00 ms (0.9–1.10) | — |  | missing now |"), std::string::npos) << table;
  EXPECT_NE(table.find("| kernels.new | — | 3.00 ms |  | not in the baseline |"), std::string::npos) << table;
}

TEST(BenchCompare, AFailedSuiteCountsAsARegressionAndItsRowsAsMissing) {
  SuiteReport failed{"kernels", "failed: dot vs reference", {}, {}, {}, {}};
  Scripted m{{failed}, {}};
  const SuiteComparison c = compare_suite(suite({row("kernels.t", "ms", 1.0)}), m.fn(), CompareConfig{});
  EXPECT_TRUE(c.regressed());
  EXPECT_EQ(find(c, "kernels.t").verdict, Verdict::missing_now);
  EXPECT_NE(comparison_markdown({c}, CompareConfig{}).find("suite failed: dot vs reference"), std::string::npos);
}

TEST(BenchCompare, ABaselineOfAnotherDeviceIsRefusedWithBothNames) {
  const BaselineSuite s = suite({});
  EXPECT_FALSE(device_mismatch(s, "NVIDIA H200").has_value());
  const std::optional<std::string> m = device_mismatch(s, "llvmpipe (LLVM 15.0.6, 256 bits)");
  ASSERT_TRUE(m.has_value());
  for (const char* part : {"NVIDIA H200", "llvmpipe (LLVM 15.0.6, 256 bits)", "like with like", "--any-device"})
    EXPECT_NE(m->find(part), std::string::npos) << part << " in: " << *m;
}

TEST(BenchCompare, ARemeasureRunsOnlyTheModelsBatchesAndDtypesOfItsRows) {
  Options o;
  const Options t = narrowed(o, "train", {"train.lenet.b32.f32.batching", "train.mlp.b256.f32.vs_reference"});
  EXPECT_EQ(t.models, (std::vector<std::string>{"lenet", "mlp"}));
  EXPECT_EQ(t.batches, (std::vector<std::int64_t>{32, 256}));
  EXPECT_EQ(t.dtypes, (std::vector<std::string>{"f32"}));
  const Options k = narrowed(o, "kernels", {"kernels.gemm.f32.exact.4096", "kernels.gemm.f64.fast.1024"});
  EXPECT_TRUE(k.gemm_only);
  EXPECT_EQ(k.gemm, (std::vector<std::int64_t>{1024, 4096}));
  // Other kernels rows (and the PyTorch ones, which --gemm-only leaves out) need the whole suite.
  EXPECT_FALSE(narrowed(o, "kernels", {"kernels.gemm.f32.exact.4096", "kernels.add.268435456"}).gemm_only);
  EXPECT_FALSE(narrowed(o, "kernels", {"kernels.gemm.f32.exact.4096.vs_torch"}).gemm_only);
}

}  // namespace
}  // namespace nxv::bench
