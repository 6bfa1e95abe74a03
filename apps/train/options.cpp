#include "train/options.hpp"

#include <cmath>

namespace nxv::train {

const char* const kUsage =
    "usage: nxv-train [options]            train a model on Fashion-MNIST (or any IDX data set)\n"
    "       nxv-train --evaluate CKPT      report a checkpoint's test loss and accuracy\n"
    "options:\n"
    "  --model lenet|mlp|cnn     the network (default lenet)\n"
    "  --data DIR                the IDX files (default $NXV_DATA_DIR, else /usr/share/datasets/fashion-mnist)\n"
    "  --epochs N                epochs to train, after the checkpoint's with --resume (default 10)\n"
    "  --batch N                 batch size (default 32)\n"
    "  --lr X                    learning rate (default 0.001)\n"
    "  --optimizer sgd|adam|adamw  (default adam; sgd uses momentum 0.9)\n"
    "  --schedule constant|step|cosine  the learning rate per step (default cosine):\n"
    "                            step: lr * F^floor(epoch / N); cosine: from lr down to lr * X at the last step\n"
    "  --decay-every N           step schedule: N epochs per decay (default 3)\n"
    "  --decay-factor F          step schedule: the factor per decay (default 0.5)\n"
    "  --final-lr-fraction X     cosine schedule: the fraction X of lr at the last step, 0 <= X <= 1 (default 0)\n"
    "  --device vulkan|reference where to compute (default: Vulkan if a device is usable, else reference)\n"
    "  --dtype f32|f64|bf16|f16  the step's arithmetic (default f32); bf16 and f16 keep f32 master weights,\n"
    "                            f16 with a dynamic loss scale\n"
    "  --seed N                  initialisation and shuffling seed (default 0)\n"
    "  --out DIR                 metrics.csv, metrics.json, curves.png, checkpoint.safetensors (default out)\n"
    "  --resume CKPT             continue training from a checkpoint (its model, dtype, optimizer and schedule)\n"
    "  --subset N                train on the first N training examples only\n"
    "  --test-subset N           evaluate on the first N test examples only\n"
    "  --help                    this text\n";

namespace {

using cli::one_of;
using cli::parse_integer;
using cli::parse_number;
using cli::usage_error;

double parse_positive(const std::string& option, const std::string& text) {
  const double v = parse_number(option, text);
  if (!(v > 0) || !std::isfinite(v)) usage_error("--" + option + " must be a positive number, got " + text);
  return v;
}

double parse_fraction(const std::string& option, const std::string& text) {
  const double v = parse_number(option, text);
  if (!(v >= 0 && v <= 1)) usage_error("--" + option + " must be between 0 and 1, got " + text);
  return v;
}

const cli::Setters<TrainOptions>& setters() {
  static const cli::Setters<TrainOptions> table{
      {"model",
       [](TrainOptions& o, const std::string& v) {
         o.model = one_of("model", v, {"lenet", "mlp", "cnn"});
       }},
      {"data", [](TrainOptions& o, const std::string& v) { o.data = v; }},
      {"epochs", [](TrainOptions& o, const std::string& v) { o.epochs = parse_integer("epochs", v, 1); }},
      {"batch", [](TrainOptions& o, const std::string& v) { o.batch = parse_integer("batch", v, 1); }},
      {"lr", [](TrainOptions& o, const std::string& v) { o.lr = parse_positive("lr", v); }},
      {"optimizer",
       [](TrainOptions& o, const std::string& v) {
         o.optimizer = one_of("optimizer", v, {"sgd", "adam", "adamw"});
       }},
      {"schedule",
       [](TrainOptions& o, const std::string& v) {
         o.schedule = one_of("schedule", v, {"constant", "step", "cosine"});
       }},
      {"decay-every",
       [](TrainOptions& o, const std::string& v) { o.decay_every = parse_integer("decay-every", v, 1); }},
      {"decay-factor",
       [](TrainOptions& o, const std::string& v) { o.decay_factor = parse_positive("decay-factor", v); }},
      {"final-lr-fraction",
       [](TrainOptions& o, const std::string& v) { o.final_lr_fraction = parse_fraction("final-lr-fraction", v); }},
      {"device",
       [](TrainOptions& o, const std::string& v) {
         o.device = one_of("device", v, {"vulkan", "reference"});
       }},
      {"dtype",
       [](TrainOptions& o, const std::string& v) {
         o.dtype = dtype_from_name(one_of("dtype", v, {"f32", "f64", "bf16", "f16"}));
       }},
      {"seed",
       [](TrainOptions& o, const std::string& v) { o.seed = static_cast<std::uint64_t>(parse_integer("seed", v, 0)); }},
      {"out", [](TrainOptions& o, const std::string& v) { o.out = v; }},
      {"resume", [](TrainOptions& o, const std::string& v) { o.resume = v; }},
      {"evaluate", [](TrainOptions& o, const std::string& v) { o.evaluate = v; }},
      {"subset", [](TrainOptions& o, const std::string& v) { o.subset = parse_integer("subset", v, 1); }},
      {"test-subset",
       [](TrainOptions& o, const std::string& v) { o.test_subset = parse_integer("test-subset", v, 1); }},
  };
  return table;
}

}  // namespace

TrainOptions parse_args(std::span<const std::string> args) {
  TrainOptions o;
  cli::parse_flags(args, setters(), {{"help", &TrainOptions::help}}, o);
  // A schedule's parameters without the schedule would be silently ignored.
  for (const auto& [option, schedule] : {std::pair<const char*, const char*>{"decay-every", "step"},
                                         {"decay-factor", "step"},
                                         {"final-lr-fraction", "cosine"}})
    if (o.given.count(option) && o.schedule != schedule && o.evaluate.empty() &&
        (o.resume.empty() || o.given.count("schedule")))  // else the checkpoint names the schedule
      usage_error("--" + std::string(option) + " applies to --schedule " + schedule + " (the schedule is " +
                  o.schedule + ")");
  if (!o.evaluate.empty()) {
    for (const std::string& name : o.given)
      if (name != "evaluate" && name != "data" && name != "device" && name != "batch" && name != "test-subset")
        usage_error("--" + name +
                    " does not apply to --evaluate (which takes --data, --device, --batch and "
                    "--test-subset)");
  }
  return o;
}

}  // namespace nxv::train
