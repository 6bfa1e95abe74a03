// nxv-bench's linalg suite: its name on the command line, and a smoke run on this machine's Vulkan device (lavapipe
// in CI): every function checked against the reference, one row per case with our rate, and the PyTorch rows
// reported as skipped where torch is missing (or compared where it is there).
#include <gtest/gtest.h>

#include "bench/options.hpp"
#include "bench/suites/suites.hpp"
#include "support/parity.hpp"
#include "support/temp_dir.hpp"

namespace nxv::bench {
namespace {

TEST(BenchLinalg, SuiteIsNamedOnTheCommandLine) {
  EXPECT_EQ(from_flags(read_flags({"--suite", "linalg"})).suites, std::vector<std::string>{"linalg"});
  EXPECT_THROW(from_flags(read_flags({"--suite", "linalgg"})), UsageError);
}

TEST(BenchLinalg, SmokeRunChecksEveryFunctionAndReportsEveryCase) {
  NXV_REQUIRE_VULKAN();
  const io_test::TempDir dir;
  Options o = from_flags(read_flags({"--suite", "linalg", "--smoke"})).options;
  o.work_dir = dir.path().string();
  const SuiteReport r = run_linalg_suite(o);
  EXPECT_FALSE(r.failed()) << r.status;
  EXPECT_GE(r.checks.size(), 7u);  // the six functions and fft against the reference
  for (const Check& c : r.checks) EXPECT_TRUE(c.ok()) << c.what << ": " << c.rel_error;
  // six functions batched, three on one larger matrix, a blocked cholesky and lu, two fft shapes
  ASSERT_EQ(r.rows.size(), 13u);
  for (const Row& row : r.rows) {
    EXPECT_EQ(row.id.rfind("linalg.", 0), 0u) << row.id;
    ASSERT_TRUE(row.a.has_value()) << row.id;
    EXPECT_GT(row.a->value, 0.0) << row.id;
  }
}

TEST(BenchLinalg, LinalgRunsKeepTheListedRowsAndRefuseUnknownOnes) {
  NXV_REQUIRE_VULKAN();
  const io_test::TempDir dir;
  Options o = from_flags(read_flags({"--suite", "linalg", "--smoke", "--linalg-runs", "cholesky.256.b1"})).options;
  o.work_dir = dir.path().string();
  const SuiteReport r = run_linalg_suite(o);
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].id, "linalg.cholesky.256.b1");
  o.linalg_runs = {"cholesky.255.b1"};
  EXPECT_THROW(run_linalg_suite(o), Error);
}

}  // namespace
}  // namespace nxv::bench
