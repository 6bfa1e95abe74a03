#include "train/trainer.hpp"

#include <chrono>
#include <functional>
#include <tuple>

#include "data/batches.hpp"
#include "data/idx.hpp"
#include "io/progress.hpp"
#include "nxv/grad.hpp"
#include "nxv/nn.hpp"
#include "nxv/vulkan.hpp"
#include "train/models.hpp"

namespace nxv::train {

namespace {

using Clock = std::chrono::steady_clock;

// Reading the loss back waits for its step to finish; every 10 steps keeps the bar current while the host
// records the next steps ahead of the device.
constexpr std::int64_t kLossReadEvery = 10;
// Test batches: larger than training ones, since there is no backward pass and fewer dispatches go faster.
constexpr std::int64_t kEvalBatch = 1000;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

nn::Optimizer make_optimizer(const std::string& name) {
  if (name == "sgd") return nn::sgd({.momentum = 0.9});
  if (name == "adamw") return nn::adamw();
  if (name == "adam") return nn::adam();
  detail::fail("nxv-train: unknown optimizer '", name, "', expected sgd, adam or adamw");
}

// (loss, parameters, optimizer state) after one step on (x, labels) with learning rate lr.
using StepFn = std::function<std::tuple<Tensor, Params, Params>(const Params&, const Params&, const Tensor&,
                                                                const Tensor&, const Tensor&)>;
StepFn make_step(const nn::Sequential& model, const nn::Optimizer& optimizer) {
  return jit([model, optimizer](const Params& params, const Params& state, const Tensor& x, const Tensor& labels,
                                const Tensor& lr) {
    auto loss = [&model](const Params& p, const Tensor& x, const Tensor& labels) {
      return nn::softmax_cross_entropy(model.apply(p, x, {.training = true}), labels);
    };
    auto [value, grads] = value_and_grad(loss)(params, x, labels);
    auto [new_params, new_state] = optimizer.update(params, grads, state, lr);
    return std::make_tuple(value, new_params, new_state);
  });
}

// (summed loss, correct count) of a test batch.
using EvalFn = std::function<std::tuple<Tensor, Tensor>(const Params&, const Tensor&, const Tensor&)>;
EvalFn make_eval(const nn::Sequential& model) {
  return jit([model](const Params& params, const Tensor& x, const Tensor& labels) {
    const Tensor logits = model.apply(params, x);
    return std::make_tuple(nn::softmax_cross_entropy(logits, labels) * static_cast<double>(x.dim(0)),
                           nn::correct_count(logits, labels));
  });
}

// Everything on the device until the two scalars at the end.
Evaluation evaluate(const EvalFn& eval, const Params& params, const data::Dataset& test, data::BatchOptions o,
                    Backend& backend) {
  o.shuffle = false;
  const data::Batches batches(test, o, backend);
  Tensor loss_sum = scalar(0.0, o.dtype, backend), correct = scalar(0.0, DType::s64, backend);
  for (std::int64_t i = 0; i < batches.size(); ++i) {
    const data::Batch b = batches[i];
    const auto [loss, hits] = eval(params, b.images, b.labels);
    loss_sum = loss_sum + loss;
    correct = correct + hits;
  }
  const auto n = static_cast<double>(batches.num_examples());
  return {loss_sum.item() / n, correct.item() / n, batches.num_examples()};
}

// Throws UsageError when the command line asks for something other than what the checkpoint holds.
void check_matches(const TrainOptions& o, const std::string& option, const std::string& wanted,
                   const std::string& in_checkpoint) {
  if (o.given.count(option) && wanted != in_checkpoint)
    throw UsageError("--" + option + " " + wanted + " conflicts with the checkpoint " + o.resume.string() +
                     ", which holds " + option + " " + in_checkpoint);
}

// Names and shapes of `params` against what the model creates.
void check_parameters(const Params& params, const std::string& model_name, const Shape& input, DType dtype,
                      const std::filesystem::path& path) {
  const Params expected = make_model(model_name).init(Key{}, input, dtype, reference_backend());
  for (const auto& [name, t] : expected) {
    const auto it = params.find(name);
    NXV_CHECK(it != params.end() && it->second.type() == t.type(), "checkpoint " + path.string(), "parameter \"", name,
              "\" of model ", model_name, " is ", it == params.end() ? "missing" : to_string(it->second.type()),
              ", expected ", to_string(t.type()));
  }
  NXV_CHECK(params.size() == expected.size(), "checkpoint " + path.string(), "holds ", params.size(),
            " parameters, model ", model_name, " has ", expected.size());
}

// The starting point: a checkpoint to resume, or a freshly initialised model.
Checkpoint starting_point(const TrainOptions& o, const data::Dataset& train, Backend& backend) {
  if (o.resume.empty()) {
    Checkpoint c{o.model, o.optimizer, o.dtype, 0, 0, o.batch, o.seed, o.lr, {}, {}, {}};
    c.params = make_model(o.model).init(key(o.seed), input_shape(o.model, train.rows, train.cols), o.dtype, backend);
    c.optimizer_state = make_optimizer(o.optimizer).init(c.params);
    return c;
  }
  Checkpoint c = load_checkpoint(o.resume, backend);
  check_matches(o, "model", o.model, c.model);
  check_matches(o, "optimizer", o.optimizer, c.optimizer);
  check_matches(o, "dtype", std::string(name(o.dtype)), std::string(name(c.dtype)));
  check_parameters(c.params, c.model, input_shape(c.model, train.rows, train.cols), c.dtype, o.resume);
  if (o.given.count("seed")) c.seed = o.seed;
  if (o.given.count("lr")) c.lr = o.lr;
  if (o.given.count("batch")) c.batch = o.batch;
  return c;
}

void print_epoch(std::FILE* log, const EpochMetrics& m, std::int64_t last_epoch) {
  std::fprintf(log, "epoch %lld/%lld: train loss %.4f, test loss %.4f, test accuracy %.4f (%.1f s, %.0f samples/s)\n",
               static_cast<long long>(m.epoch), static_cast<long long>(last_epoch), m.train_loss, m.test_loss,
               m.test_accuracy, m.seconds, m.samples_per_second);
  std::fflush(log);
}

}  // namespace

Backend& pick_backend(const std::string& device, std::FILE* log) {
  if (device == "reference") return reference_backend();
  if (device == "vulkan" || vulkan::available()) {
    Backend& b = vulkan::backend();
    std::fprintf(log, "device: vulkan, %s\n", vulkan::list_devices()[vulkan::pick_device()].name.c_str());
    return b;
  }
  std::fprintf(log, "note: no usable Vulkan device, training on the reference (CPU) backend\n");
  return reference_backend();
}

TrainResult run_training(const TrainOptions& o, std::FILE* log, bool record_step_losses) {
  Backend& backend = pick_backend(o.device, log);
  const std::filesystem::path dir = o.data.empty() ? data::default_data_dir() : o.data;
  const data::Dataset train = data::load_idx(dir, data::Split::train);
  const data::Dataset test = data::load_idx(dir, data::Split::test);

  Checkpoint c = starting_point(o, train, backend);
  const nn::Sequential model = make_model(c.model);
  const nn::Optimizer optimizer = make_optimizer(c.optimizer);
  const nn::Schedule schedule = nn::constant_schedule(c.lr);
  const StepFn step = make_step(model, optimizer);
  const EvalFn eval = make_eval(model);
  std::fprintf(log, "model %s (%lld parameters), %s, lr %g, batch %lld, %s\n", c.model.c_str(),
               static_cast<long long>(nn::parameter_count(c.params)), c.optimizer.c_str(), c.lr,
               static_cast<long long>(c.batch), std::string(name(c.dtype)).c_str());

  data::BatchOptions train_options;
  train_options.batch_size = c.batch;
  train_options.seed = c.seed;
  train_options.subset = o.subset;
  train_options.layout = image_layout(c.model);
  train_options.dtype = c.dtype;
  data::BatchOptions test_options = train_options;
  test_options.batch_size = kEvalBatch;
  test_options.subset = o.test_subset;

  TrainResult result;
  const std::int64_t last_epoch = c.epoch + o.epochs;
  for (std::int64_t epoch = c.epoch + 1; epoch <= last_epoch; ++epoch) {
    const data::Batches batches(train, train_options, backend, static_cast<std::uint64_t>(epoch - 1));
    io::ProgressBar bar(batches.size(), "epoch " + std::to_string(epoch) + "/" + std::to_string(last_epoch), log);
    const Clock::time_point start = Clock::now();
    Tensor loss_sum = scalar(0.0, c.dtype, backend);
    double shown_loss = 0;
    std::int64_t seen = 0;
    for (std::int64_t i = 0; i < batches.size(); ++i) {
      const data::Batch b = batches[i];
      const Tensor lr = scalar(schedule(c.step), c.dtype, backend);
      auto [loss, params, state] = step(c.params, c.optimizer_state, b.images, b.labels, lr);
      c.params = std::move(params);
      c.optimizer_state = std::move(state);
      ++c.step;
      seen += b.size;
      loss_sum = loss_sum + loss * static_cast<double>(b.size);
      if (record_step_losses) result.step_losses.push_back(loss.item());
      if (record_step_losses || i % kLossReadEvery == 0 || i + 1 == batches.size()) shown_loss = loss.item();
      bar.update(i + 1, {{"loss", shown_loss}}, static_cast<double>(seen) / seconds_since(start));
    }
    EpochMetrics m;
    m.epoch = epoch;
    m.train_loss = loss_sum.item() / static_cast<double>(seen);
    m.seconds = seconds_since(start);
    m.samples_per_second = static_cast<double>(seen) / m.seconds;
    bar.finish();
    const Evaluation e = evaluate(eval, c.params, test, test_options, backend);
    m.test_loss = e.loss;
    m.test_accuracy = e.accuracy;
    c.history.push_back(m);
    c.epoch = epoch;
    print_epoch(log, m, last_epoch);
    write_metrics(o.out, c.history,
                  "nxv-train " + c.model + " (" + c.optimizer + ", batch " + std::to_string(c.batch) + ")");
    save_checkpoint(o.out / "checkpoint.safetensors", c);
  }
  if (!c.history.empty()) std::fprintf(log, "final test accuracy: %.4f\n", c.history.back().test_accuracy);
  result.history = c.history;
  result.final_state = std::move(c);
  return result;
}

Evaluation run_evaluation(const TrainOptions& o, std::FILE* log) {
  Backend& backend = pick_backend(o.device, log);
  const std::filesystem::path dir = o.data.empty() ? data::default_data_dir() : o.data;
  const data::Dataset test = data::load_idx(dir, data::Split::test);
  const Checkpoint c = load_checkpoint(o.evaluate, backend);
  check_parameters(c.params, c.model, input_shape(c.model, test.rows, test.cols), c.dtype, o.evaluate);
  data::BatchOptions options;
  options.batch_size = o.given.count("batch") ? o.batch : kEvalBatch;
  options.subset = o.test_subset;
  options.layout = image_layout(c.model);
  options.dtype = c.dtype;
  const Evaluation e = evaluate(make_eval(make_model(c.model)), c.params, test, options, backend);
  std::fprintf(log, "checkpoint %s: model %s, epoch %lld\ntest loss %.4f, test accuracy %.4f (%lld examples)\n",
               o.evaluate.string().c_str(), c.model.c_str(), static_cast<long long>(c.epoch), e.loss, e.accuracy,
               static_cast<long long>(e.examples));
  return e;
}

}  // namespace nxv::train
