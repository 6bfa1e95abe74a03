// bench/baseline.json: a unit's direction, a suite's rows taken from its report, merging suites measured in
// separate runs (one device per file), and a JSON round trip that keeps every value exactly.
#include "bench/baseline.hpp"

#include <gtest/gtest.h>

#include "nxv/error.hpp"

namespace nxv::bench {
namespace {

Measurement measured(const std::string& arm, double value, double p10, double p90) {
  return Measurement{arm, Stats{}, value, p10, p90};
}

RunInfo run_on(const std::string& device) {
  RunInfo info{"2026-12-01 10:00 UTC", "abc1234", "nxv-bench --suite train", device, "NVIDIA 570.1", "1.3.289", {}};
  info.options = {{"--suite", "train"}, {"--batches", "32"}, {"--json", "out.json"}, {"--write-baseline", "b.json"}};
  return info;
}

SuiteReport train_report() {
  SuiteReport r{"train", "ok", {}, {}, {}, {}};
  r.rows.push_back(Row{"train.mlp.b32.f32.batching", "mlp b32 f32: training step", "ms",
                       measured("Vulkan", 0.444, 0.43, 0.4612345678901234), measured("NXV_BATCH_MAX=0", 5.99, 5.9, 6.1),
                       "default / NXV_BATCH_MAX=0", Target{"<=", 1.0 / 3.0}, ""});
  r.rows.push_back(Row{"train.mlp.b32.f32.rate", "a rate", "GB/s", measured("Vulkan", 3905, 3800, 3950), std::nullopt,
                       "", std::nullopt, ""});
  r.rows.push_back(
      Row{"train.no_arm", "a row without a measurement", "ms", std::nullopt, std::nullopt, "", std::nullopt, ""});
  return r;
}

TEST(BenchBaseline, TimesAreLowerBetterAndRatesHigherBetter) {
  EXPECT_FALSE(higher_is_better("ms"));
  EXPECT_FALSE(higher_is_better("µs"));
  EXPECT_TRUE(higher_is_better("GB/s"));
  EXPECT_TRUE(higher_is_better("TFLOP/s"));
  EXPECT_THROW(higher_is_better("furlongs"), Error);
}

TEST(BenchBaseline, ASuiteKeepsItsRowsWithArmAAndOnlyTheMeasurementOptions) {
  const BaselineSuite s = baseline_suite(run_on("NVIDIA H200"), train_report());
  EXPECT_EQ(s.name, "train");
  EXPECT_EQ(s.device, "NVIDIA H200");
  EXPECT_EQ(s.commit, "abc1234");
  EXPECT_EQ(s.options, (std::map<std::string, std::string>{{"--batches", "32"}}));
  ASSERT_EQ(s.rows.size(), 2u);  // the row without arm A has nothing to compare
  EXPECT_FALSE(s.rows[0].higher_is_better);
  EXPECT_TRUE(s.rows[1].higher_is_better);
  ASSERT_TRUE(s.rows[0].b.has_value());
  EXPECT_EQ(s.rows[0].b->arm, "NXV_BATCH_MAX=0");
  EXPECT_DOUBLE_EQ(*s.rows[0].ratio(), 0.444 / 5.99);
}

TEST(BenchBaseline, SuitesFromSeparateRunsMergeAndARunReplacesItsOwnSuite) {
  Baseline b;
  merge(b, baseline_suite(run_on("NVIDIA H200"), train_report()), false);
  SuiteReport kernels = train_report();
  kernels.name = "kernels";
  merge(b, baseline_suite(run_on("NVIDIA H200"), kernels), false);
  RunInfo later = run_on("NVIDIA H200");
  later.commit = "def5678";
  merge(b, baseline_suite(later, train_report()), false);
  ASSERT_EQ(b.suites.size(), 2u);
  EXPECT_EQ(b.suites[0].name, "train");
  EXPECT_EQ(b.suites[0].commit, "def5678");
  EXPECT_EQ(b.suites[1].name, "kernels");
}

TEST(BenchBaseline, ASuiteFromAnotherDeviceIsRefusedUnlessAnyDevice) {
  Baseline b;
  merge(b, baseline_suite(run_on("NVIDIA H200"), train_report()), false);
  SuiteReport kernels = train_report();
  kernels.name = "kernels";
  try {
    merge(b, baseline_suite(run_on("llvmpipe (LLVM 15.0.6, 256 bits)"), kernels), false);
    FAIL() << "merged a suite of another device";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("measured on NVIDIA H200"), std::string::npos) << e.what();
  }
  merge(b, baseline_suite(run_on("llvmpipe (LLVM 15.0.6, 256 bits)"), kernels), true);
  EXPECT_EQ(b.suites.size(), 2u);
}

TEST(BenchBaseline, JsonRoundTripKeepsEveryField) {
  Baseline b;
  merge(b, baseline_suite(run_on("NVIDIA H200"), train_report()), false);
  const Baseline back = parse_baseline(to_json(b), "test");
  ASSERT_EQ(back.suites.size(), 1u);
  const BaselineSuite &s = back.suites[0], &o = b.suites[0];
  EXPECT_EQ(s.name, o.name);
  EXPECT_EQ(s.device, o.device);
  EXPECT_EQ(s.driver, o.driver);
  EXPECT_EQ(s.vulkan_api, o.vulkan_api);
  EXPECT_EQ(s.commit, o.commit);
  EXPECT_EQ(s.date, o.date);
  EXPECT_EQ(s.command, o.command);
  EXPECT_EQ(s.options, o.options);
  ASSERT_EQ(s.rows.size(), o.rows.size());
  for (std::size_t i = 0; i < s.rows.size(); ++i) {
    const BaselineRow &r = s.rows[i], &w = o.rows[i];
    EXPECT_EQ(r.id, w.id);
    EXPECT_EQ(r.what, w.what);
    EXPECT_EQ(r.unit, w.unit);
    EXPECT_EQ(r.higher_is_better, w.higher_is_better);
    EXPECT_EQ(r.a.arm, w.a.arm);
    EXPECT_EQ(r.a.value, w.a.value) << "values are written exactly";
    EXPECT_EQ(r.a.p10, w.a.p10);
    EXPECT_EQ(r.a.p90, w.a.p90);
    EXPECT_EQ(r.b.has_value(), w.b.has_value());
    if (r.b) {
      EXPECT_EQ(r.b->value, w.b->value);
    }
    EXPECT_EQ(r.ratio_meaning, w.ratio_meaning);
    EXPECT_EQ(r.target.has_value(), w.target.has_value());
    if (r.target) {
      EXPECT_EQ(r.target->op, w.target->op);
      EXPECT_EQ(r.target->value, w.target->value);
    }
  }
  EXPECT_EQ(to_json(back), to_json(b));
}

TEST(BenchBaseline, MalformedFilesNameWhatIsWrong) {
  auto message = [](const std::string& text) {
    try {
      parse_baseline(text, "bench/baseline.json");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message("{\"tool\": \"nxv-bench\"}").find("not a baseline"), std::string::npos);
  EXPECT_NE(message("{\"tool\": \"nxv-bench baseline\"}").find("\"suites\" is missing"), std::string::npos);
  const std::string row_without_better =
      R"({"tool": "nxv-bench baseline", "suites": [{"name": "train", "device": "d", "driver": "", "vulkan_api": "",
          "commit": "", "date": "", "command": "", "options": {}, "rows": [{"id": "train.x", "what": "", "unit": "ms",
          "a": {"arm": "A", "median": 1, "p10": 1, "p90": 1}, "ratio_meaning": ""}]}]})";
  EXPECT_NE(message(row_without_better).find("row train.x: member \"better\" is missing"), std::string::npos)
      << message(row_without_better);
}

}  // namespace
}  // namespace nxv::bench
