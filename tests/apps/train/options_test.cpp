// nxv-train's command line: defaults, both spellings of a value, and a clear UsageError for every mistake.
#include <gtest/gtest.h>

#include "train/options.hpp"

namespace nxv::train {
namespace {

TrainOptions parse(std::vector<std::string> args) { return parse_args(args); }

void expect_usage_error(std::vector<std::string> args, const std::string& part) {
  try {
    parse(args);
    ADD_FAILURE() << "expected a UsageError mentioning \"" << part << "\"";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(TrainOptions, Defaults) {
  const TrainOptions o = parse({});
  EXPECT_EQ(o.model, "lenet");
  EXPECT_EQ(o.optimizer, "adam");
  EXPECT_EQ(o.lr, 1e-3);
  EXPECT_EQ(o.batch, 32);
  EXPECT_EQ(o.dtype, DType::f32);
  EXPECT_EQ(o.device, "") << "Vulkan when available";
  EXPECT_EQ(o.out, "out");
  EXPECT_TRUE(o.given.empty());
}

TEST(TrainOptions, ValuesSeparateOrAfterEquals) {
  const TrainOptions o = parse({"--model", "mlp", "--epochs=3", "--lr", "0.01", "--dtype=f64", "--device", "reference",
                                "--subset", "1000", "--test-subset=500", "--seed", "7"});
  EXPECT_EQ(o.model, "mlp");
  EXPECT_EQ(o.epochs, 3);
  EXPECT_EQ(o.lr, 0.01);
  EXPECT_EQ(o.dtype, DType::f64);
  EXPECT_EQ(o.device, "reference");
  EXPECT_EQ(o.subset, 1000);
  EXPECT_EQ(o.test_subset, 500);
  EXPECT_EQ(o.seed, 7u);
  EXPECT_EQ(o.given.count("model"), 1u);
  EXPECT_TRUE(parse({"--help"}).help);
}

TEST(TrainOptions, Errors) {
  expect_usage_error({"--modle", "mlp"}, "unknown option '--modle'");
  expect_usage_error({"--epochs"}, "--epochs needs a value");
  expect_usage_error({"--epochs", "three"}, "--epochs expects an integer, got 'three'");
  expect_usage_error({"--epochs", "0"}, "--epochs must be at least 1");
  expect_usage_error({"--batch", "32x"}, "--batch expects an integer");
  expect_usage_error({"--lr", "-1"}, "--lr must be a positive number");
  expect_usage_error({"--lr", "fast"}, "--lr expects a number");
  expect_usage_error({"--model", "resnet"}, "--model must be one of lenet, mlp, cnn, got 'resnet'");
  expect_usage_error({"--optimizer", "rmsprop"}, "--optimizer must be one of sgd, adam, adamw");
  expect_usage_error({"--device", "gpu"}, "--device must be one of vulkan, reference");
  expect_usage_error({"--dtype", "s32"}, "--dtype must be one of f32, f64, bf16, f16");
  expect_usage_error({"mlp"}, "unexpected argument 'mlp'");
  expect_usage_error({"--seed", "1", "--seed", "2"}, "--seed is given twice");
  expect_usage_error({"--evaluate", "ckpt", "--epochs", "2"}, "--epochs does not apply to --evaluate");
}

TEST(TrainOptions, Schedules) {
  const TrainOptions defaults = parse({});
  EXPECT_EQ(defaults.schedule, "cosine");
  EXPECT_EQ(defaults.decay_every, 3);
  EXPECT_EQ(defaults.decay_factor, 0.5);
  EXPECT_EQ(defaults.final_lr_fraction, 0.0);
  const TrainOptions step = parse({"--schedule", "step", "--decay-every=2", "--decay-factor", "0.1"});
  EXPECT_EQ(step.schedule, "step");
  EXPECT_EQ(step.decay_every, 2);
  EXPECT_EQ(step.decay_factor, 0.1);
  const TrainOptions cosine = parse({"--schedule=cosine", "--final-lr-fraction", "0.05"});
  EXPECT_EQ(cosine.schedule, "cosine");
  EXPECT_EQ(cosine.final_lr_fraction, 0.05);
  EXPECT_EQ(parse({"--schedule", "cosine", "--final-lr-fraction", "1"}).final_lr_fraction, 1.0);
  EXPECT_NE(std::string(kUsage).find("--schedule constant|step|cosine"), std::string::npos) << "in --help";
  EXPECT_NE(std::string(kUsage).find("--final-lr-fraction"), std::string::npos);

  expect_usage_error({"--schedule", "linear"}, "--schedule must be one of constant, step, cosine, got 'linear'");
  expect_usage_error({"--schedule", "step", "--decay-every", "0"}, "--decay-every must be at least 1");
  expect_usage_error({"--schedule", "step", "--decay-factor", "-0.5"}, "--decay-factor must be a positive number");
  expect_usage_error({"--schedule", "cosine", "--final-lr-fraction", "1.5"},
                     "--final-lr-fraction must be between 0 and 1");
  expect_usage_error({"--decay-every", "2"}, "--decay-every applies to --schedule step (the schedule is cosine)");
  expect_usage_error({"--schedule", "step", "--final-lr-fraction", "0.1"},
                     "--final-lr-fraction applies to --schedule cosine");
  expect_usage_error({"--evaluate", "ckpt", "--schedule", "cosine"}, "--schedule does not apply to --evaluate");
  // With --resume the checkpoint names the schedule, so its parameters may be changed alone.
  EXPECT_EQ(parse({"--resume", "ckpt", "--decay-factor", "0.2"}).decay_factor, 0.2);
}

}  // namespace
}  // namespace nxv::train
