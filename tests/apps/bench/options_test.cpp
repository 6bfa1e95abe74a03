// nxv-bench's command line (apps/bench/options.hpp): the shared rules of common/command_line.hpp (both spellings of a
// value, each flag once) and its own checks, each mistake a UsageError naming the flag.
#include "bench/options.hpp"

#include <gtest/gtest.h>

namespace nxv::bench {
namespace {

std::string usage_error_of(std::vector<std::string> args) {
  try {
    from_flags(read_flags(args));
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

TEST(BenchOptions, ValuesBothSpelledAndSwitches) {
  const Command c = from_flags(read_flags({"--suite=kernels", "--repeat", "4", "--quick", "-h", "--gemm=64,128"}));
  EXPECT_EQ(c.suites, std::vector<std::string>{"kernels"});
  EXPECT_EQ(c.options.repeat, 4);
  EXPECT_TRUE(c.options.quick);
  EXPECT_TRUE(c.help);
  EXPECT_EQ(c.options.gemm, (std::vector<std::int64_t>{64, 128}));
}

TEST(BenchOptions, EveryMistakeIsAUsageErrorNamingTheFlag) {
  EXPECT_EQ(usage_error_of({"--repeat", "x"}), "--repeat expects an integer, got 'x'");
  EXPECT_EQ(usage_error_of({"--repeat", "-1"}), "--repeat must be at least 0, got -1");
  EXPECT_EQ(usage_error_of({"--repeat", "2", "--repeat=3"}), "--repeat is given twice");
  EXPECT_EQ(usage_error_of({"--quick", "--quick"}), "--quick is given twice");
  EXPECT_EQ(usage_error_of({"--quick=1"}), "unknown option '--quick'");
  EXPECT_EQ(usage_error_of({"--sweet", "mcmc"}), "unknown option '--sweet'");
  EXPECT_EQ(usage_error_of({"--suite"}), "--suite needs a value");
  EXPECT_EQ(usage_error_of({"kernels"}), "unexpected argument 'kernels' (options start with --)");
  EXPECT_EQ(usage_error_of({"--models", "mlp,vgg"}), "--models: unknown value 'vgg'");
  EXPECT_EQ(usage_error_of({"--tolerance", "1.5"}), "--tolerance expects a fraction in [0, 1), e.g. 0.10, got '1.5'");
}

}  // namespace
}  // namespace nxv::bench
