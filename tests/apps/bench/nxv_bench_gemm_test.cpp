// nxv-bench's GEMM-only mode: `--suite kernels --gemm-only --dot-kernels LIST` measures one GEMM arm per
// dtype and forced dot variant, and the multiply-add peaks the GEMM rows are a fraction of, and nothing else, so
// that the variants can be compared in one run on the GPU.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "io/json.hpp"
#include "support/bench_cli.hpp"
#include "support/temp_dir.hpp"

namespace nxv {
namespace {

namespace fs = std::filesystem;
using io::json::Value;
using namespace testing::bench_cli;

TEST(NxvBenchGemm, GemmOnlyMeasuresOneArmPerDtypeAndDotVariant) {
  ASSERT_TRUE(fs::exists(bench_binary())) << bench_binary() << " is missing: build the nxv-bench target";
  io_test::TempDir dir;
  const fs::path json = dir.path() / "gemm.json";
  ASSERT_EQ(
      run_bench("--suite kernels --smoke --gemm-only --dot-kernels tiled,mid,big --json " + json.string(), dir.path())
          .exit_code,
      0)
      << read_text(dir.path() / "stderr.txt");
  const Value root = io::json::parse(read_text(json));
  std::set<std::string> ids;
  for (const Value& suite : member(root, "suites").items) {
    EXPECT_EQ(member(suite, "status").text, "ok");
    for (const Value& row : member(suite, "rows").items) ids.insert(member(row, "id").text);
    for (const Value& check : member(suite, "checks").items) EXPECT_TRUE(member(check, "ok").boolean);
  }
  std::set<std::string> expected;
  for (const char* dtype : {"f32", "f64"})
    for (const char* step : {"", ".precise_fma", ".precise_mul_add", ".shared_operand"})
      expected.insert(std::string("kernels.fma_peak.") + dtype + step);
  for (const char* dtype : {"f32", "f64", "bf16", "f16"})
    for (const char* precision : {"exact", "fast"})
      for (const char* variant : {"tiled", "mid", "big"})
        expected.insert(std::string("kernels.gemm.") + dtype + "." + precision + "." + variant + ".64");
  EXPECT_EQ(ids, expected);
}

TEST(NxvBenchGemm, RejectsAnUnknownDotVariant) {
  ASSERT_TRUE(fs::exists(bench_binary())) << bench_binary() << " is missing: build the nxv-bench target";
  io_test::TempDir dir;
  EXPECT_EQ(run_bench("--suite kernels --gemm-only --dot-kernels tiled,huge", dir.path()).exit_code, 2);
  EXPECT_NE(read_text(dir.path() / "stderr.txt").find("--dot-kernels: unknown value 'huge'"), std::string::npos);
}

}  // namespace
}  // namespace nxv
