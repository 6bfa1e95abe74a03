// nxv-sample's command line: defaults, both spellings of a value, and a clear UsageError for every mistake.
#include <gtest/gtest.h>

#include "sample/options.hpp"

namespace nxv::sample_app {
namespace {

SampleAppOptions parse(std::vector<std::string> args) { return parse_args(args); }

void expect_usage_error(std::vector<std::string> args, const std::string& part) {
  try {
    parse(args);
    ADD_FAILURE() << "expected a UsageError mentioning \"" << part << "\"";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(SampleOptions, DefaultsAreTheIssuesOnes) {
  const SampleAppOptions o = parse({});
  EXPECT_EQ(o.model, "eight_schools");
  EXPECT_EQ(o.chains, 4);
  EXPECT_EQ(o.warmup, 1000);
  EXPECT_EQ(o.samples, 1000);
  EXPECT_EQ(o.dtype, DType::f64);
  EXPECT_EQ(o.device, "") << "Vulkan when available";
  EXPECT_EQ(o.sampler, "nuts");
  EXPECT_EQ(o.num_steps, 32);
  EXPECT_EQ(o.max_tree_depth, 10);
  EXPECT_EQ(o.target_accept, 0.8);
  EXPECT_EQ(o.out, "out/sample");
  EXPECT_FALSE(o.quiet);
  EXPECT_TRUE(o.given.empty());
}

TEST(SampleOptions, ValuesSeparateOrAfterEquals) {
  const SampleAppOptions o = parse({"--model",       "logistic",    "--features=3", "--observations",  "50",
                                    "--chains",      "1024",        "--warmup=500", "--samples",       "200",
                                    "--seed",        "7",           "--dtype=f32",  "--device",        "reference",
                                    "--sampler=hmc", "--num-steps", "16",           "--target-accept", "0.9",
                                    "--out",         "/tmp/x",      "--quiet"});
  EXPECT_EQ(o.model, "logistic");
  EXPECT_EQ(o.features, 3);
  EXPECT_EQ(o.observations, 50);
  EXPECT_EQ(o.chains, 1024);
  EXPECT_EQ(o.warmup, 500);
  EXPECT_EQ(o.samples, 200);
  EXPECT_EQ(o.seed, 7u);
  EXPECT_EQ(o.dtype, DType::f32);
  EXPECT_EQ(o.device, "reference");
  EXPECT_EQ(o.sampler, "hmc");
  EXPECT_EQ(o.num_steps, 16);
  EXPECT_EQ(o.target_accept, 0.9);
  EXPECT_EQ(o.out, "/tmp/x");
  EXPECT_TRUE(o.quiet);
  EXPECT_EQ(parse({"--max-tree-depth", "6"}).max_tree_depth, 6);
  EXPECT_EQ(parse({"--model", "logistic", "--data", "d.csv"}).data, "d.csv");
  EXPECT_EQ(parse({"--warmup", "0"}).warmup, 0) << "no warm-up is allowed";
  EXPECT_TRUE(parse({"--help"}).help);
}

TEST(SampleOptions, MistakesAreUsageErrors) {
  expect_usage_error({"--chians", "4"}, "unknown option '--chians'");
  expect_usage_error({"--chains"}, "--chains needs a value");
  expect_usage_error({"--chains", "four"}, "--chains expects an integer, got 'four'");
  expect_usage_error({"--chains", "0"}, "--chains must be at least 1");
  expect_usage_error({"--samples", "0"}, "--samples must be at least 1");
  expect_usage_error({"--warmup", "-1"}, "--warmup must be at least 0");
  expect_usage_error({"--seed", "-3"}, "--seed must be at least 0");
  expect_usage_error({"--chains", "100000000000"}, "--chains must be at most 10000000");
  expect_usage_error({"--model", "funnel"}, "--model must be one of eight_schools, logistic, hierarchical, regime");
  expect_usage_error({"--sampler", "mala"}, "--sampler must be one of hmc, nuts, got 'mala'");
  expect_usage_error({"--dtype", "f16"}, "--dtype must be one of f32, f64");
  expect_usage_error({"--device", "gpu"}, "--device must be one of vulkan, reference");
  expect_usage_error({"--target-accept", "1"}, "--target-accept must be strictly between 0 and 1, got 1");
  expect_usage_error({"--target-accept", "high"}, "--target-accept expects a number");
  expect_usage_error({"--max-tree-depth", "31"}, "--max-tree-depth must be at most 30");
  expect_usage_error({"--num-steps", "0", "--sampler", "hmc"}, "--num-steps must be at least 1");
  expect_usage_error({"--out", ""}, "--out needs a directory name");
  expect_usage_error({"eight_schools"}, "unexpected argument 'eight_schools'");
  expect_usage_error({"--seed", "1", "--seed", "2"}, "--seed is given twice");
}

TEST(SampleOptions, OptionsThatWouldBeIgnoredAreMistakes) {
  expect_usage_error({"--data", "d.csv"}, "--data applies to --model logistic (the model is eight_schools)");
  expect_usage_error({"--model", "regime", "--features", "3"}, "--features applies to --model logistic");
  expect_usage_error({"--model", "logistic", "--data", "d.csv", "--observations", "9"}, "--data reads it from a file");
  expect_usage_error({"--num-steps", "8"}, "--num-steps applies to --sampler hmc (the sampler is nuts)");
  expect_usage_error({"--sampler", "hmc", "--max-tree-depth", "8"}, "--max-tree-depth applies to --sampler nuts");
}

}  // namespace
}  // namespace nxv::sample_app
