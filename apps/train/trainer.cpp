#include "train/trainer.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <sstream>
#include <tuple>

#include "common/progress.hpp"
#include "core/settings.hpp"
#include "data/batches.hpp"
#include "data/idx.hpp"
#include "nxv/grad.hpp"
#include "nxv/nn.hpp"
#include "nxv/vulkan.hpp"
#include "train/mixed_precision.hpp"
#include "train/models.hpp"

namespace nxv::train {

namespace {

using Clock = std::chrono::steady_clock;

// Test batches: larger than training ones, since there is no backward pass and fewer dispatches go faster.
constexpr std::int64_t kEvalBatch = 1000;

template <class... Parts>
std::string concat(const Parts&... parts) {
  std::ostringstream s;
  (s << ... << parts);
  return s.str();
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

nn::Optimizer make_optimizer(const std::string& name) {
  if (name == "sgd") return nn::sgd({.momentum = 0.9});
  if (name == "adamw") return nn::adamw();
  if (name == "adam") return nn::adam();
  detail::fail("nxv-train: unknown optimizer '", name, "', expected sgd, adam or adamw");
}

// Evaluated at schedule_position (trainer.hpp), in steps of this run's size.
nn::Schedule make_schedule(const ScheduleSettings& s, double lr, std::int64_t steps_per_epoch,
                           std::int64_t last_epoch) {
  if (s.kind == "constant") return nn::constant_schedule(lr);
  if (s.kind == "step") return nn::step_schedule(lr, s.decay_every * steps_per_epoch, s.decay_factor);
  if (s.kind == "cosine") return nn::cosine_schedule(lr, last_epoch * steps_per_epoch, s.final_lr_fraction);
  detail::fail("nxv-train: unknown learning-rate schedule '", s.kind, "', expected constant, step or cosine");
}

// (summed loss, correct count) of a test batch.
using EvalFn = std::function<std::tuple<Tensor, Tensor>(const Params&, const Params&, const Tensor&, const Tensor&)>;
// 16-bit dtypes evaluate with the 16-bit copy of the weights, as they train, and the loss from f32 logits.
EvalFn make_eval(const nn::Sequential& model, DType compute) {
  return jit(
      [model, compute](const Params& params, const Params& model_state, const Tensor& x, const Tensor& labels) {
        const Tensor logits = is_half_float(compute)
                                  ? as_type(model.apply(cast_params(params, compute), model_state, x).first, DType::f32)
                                  : model.apply(params, model_state, x).first;
        return std::make_tuple(nn::softmax_cross_entropy(logits, labels) * static_cast<double>(x.dim(0)),
                               nn::correct_count(logits, labels));
      },
      {.compiler = vulkan::compiler()});
}

// Everything on the device until the two scalars at the end.
Evaluation evaluate(const EvalFn& eval, const Params& params, const Params& model_state, const data::Dataset& test,
                    data::BatchOptions o, Backend& backend) {
  o.shuffle = false;
  const data::Batches batches(test, o, backend);
  Tensor loss_sum = scalar(0.0, master_dtype(o.dtype), backend), correct = scalar(0.0, DType::s64, backend);
  for (std::int64_t i = 0; i < batches.size(); ++i) {
    const data::Batch b = batches[i];
    const auto [loss, hits] = eval(params, model_state, b.images, b.labels);
    loss_sum = loss_sum + loss;
    correct = correct + hits;
  }
  const auto n = static_cast<double>(batches.num_examples());
  return {loss_sum.item() / n, correct.item() / n, batches.num_examples()};
}

// --out, before any work: a directory that exists or can be made, and that this process may write to.
void check_output_dir(const std::filesystem::path& out) {
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) detail::fail("--out ", out.string(), ": cannot create the directory (", ec.message(), ")");
  if (!std::filesystem::is_directory(out, ec)) detail::fail("--out ", out.string(), " is not a directory");
  if (access(out.c_str(), W_OK | X_OK) != 0)
    detail::fail("--out ", out.string(), ": the directory is not writable (", std::strerror(errno), ")");
}

// Before any work: an empty split would end in a schedule of zero steps, or a test loss of 0 / 0.
void check_not_empty(const data::Dataset& d) {
  NXV_CHECK(d.count > 0, "data", d.images_path.string(), " holds no images, expected at least one");
}

// Before any work: a model takes images of one size.
void check_same_size(const data::Dataset& train, const data::Dataset& test) {
  NXV_CHECK(train.rows == test.rows && train.cols == test.cols, "data", "the training images are ", train.rows, "x",
            train.cols, " (", train.images_path.string(), "), the test images ", test.rows, "x", test.cols, " (",
            test.images_path.string(), "); they must be of one size");
}

// Throws UsageError when the command line asks for something other than what the checkpoint holds.
void check_matches(const TrainOptions& o, const std::string& option, const std::string& wanted,
                   const std::string& in_checkpoint) {
  if (o.given.count(option) && wanted != in_checkpoint)
    throw UsageError("--" + option + " " + wanted + " conflicts with the checkpoint " + o.resume.string() +
                     ", which holds " + option + " " + in_checkpoint);
}

// Names and types of the checkpoint's parameters and model state against what the model creates.
void check_parameters(const Checkpoint& c, const Shape& input, const std::filesystem::path& path) {
  const nn::Variables expected =
      make_model(c.model).init_variables(Key{}, input, master_dtype(c.dtype), reference_backend());
  for (const auto& [what, got, wanted] : {std::tuple{"parameter", &c.params, &expected.params},
                                          std::tuple{"state entry", &c.model_state, &expected.state}}) {
    for (const auto& [name, t] : *wanted) {
      const auto it = got->find(name);
      NXV_CHECK(it != got->end() && it->second.type() == t.type(), "checkpoint " + path.string(), what, " \"", name,
                "\" of model ", c.model, " is ", it == got->end() ? "missing" : to_string(it->second.type()),
                ", expected ", to_string(t.type()));
    }
    NXV_CHECK(got->size() == wanted->size(), "checkpoint " + path.string(), "holds ", got->size(), " ", what,
              "s, model ", c.model, " has ", wanted->size());
  }
}

ScheduleSettings schedule_settings(const TrainOptions& o) {
  return {o.schedule, o.decay_every, o.decay_factor, o.final_lr_fraction};
}

// The starting point: a checkpoint to resume, or a freshly initialised model.
Checkpoint starting_point(const TrainOptions& o, const data::Dataset& train, Backend& backend) {
  if (o.resume.empty()) {
    Checkpoint c{o.model, o.optimizer, o.dtype, 0, 0, o.batch, o.seed, o.lr, schedule_settings(o), {}, {}, {}, {}};
    nn::Variables v = make_model(o.model).init_variables(key(o.seed), input_shape(o.model, train.rows, train.cols),
                                                         master_dtype(o.dtype), backend);
    c.params = std::move(v.params);
    c.model_state = std::move(v.state);
    c.optimizer_state = make_optimizer(o.optimizer).init(c.params);
    add_loss_scale(c.optimizer_state, o.dtype, backend);
    return c;
  }
  Checkpoint c = load_checkpoint(o.resume, backend);
  check_matches(o, "model", o.model, c.model);
  check_matches(o, "optimizer", o.optimizer, c.optimizer);
  check_matches(o, "dtype", std::string(name(o.dtype)), std::string(name(c.dtype)));
  check_parameters(c, input_shape(c.model, train.rows, train.cols), o.resume);
  if (o.given.count("seed")) c.seed = o.seed;
  if (o.given.count("lr")) c.lr = o.lr;
  if (o.given.count("batch")) c.batch = o.batch;
  if (o.given.count("schedule")) c.schedule = schedule_settings(o);
  if (o.given.count("decay-every")) c.schedule.decay_every = o.decay_every;
  if (o.given.count("decay-factor")) c.schedule.decay_factor = o.decay_factor;
  if (o.given.count("final-lr-fraction")) c.schedule.final_lr_fraction = o.final_lr_fraction;
  return c;
}

void print_epoch(std::FILE* log, const EpochMetrics& m, std::int64_t last_epoch) {
  std::fprintf(log, "epoch %lld/%lld: train loss %.4f, test loss %.4f, test accuracy %.4f (%.1f s, %.0f samples/s)\n",
               static_cast<long long>(m.epoch), static_cast<long long>(last_epoch), m.train_loss, m.test_loss,
               m.test_accuracy, m.seconds, m.samples_per_second);
  std::fflush(log);
}

}  // namespace

std::int64_t schedule_position(std::int64_t epoch, std::int64_t step_in_epoch, std::int64_t steps_per_epoch) {
  return (epoch - 1) * steps_per_epoch + step_in_epoch;
}

// Jitted with the fusion compiler (bit-identical to eager on the same device; 1.78x faster on the H200's MLP step);
// on the reference backend it runs the evaluator. bf16 and f16: train/mixed_precision.hpp.
StepFn make_train_step(const nn::Sequential& model, const nn::Optimizer& optimizer, DType compute) {
  if (is_half_float(compute)) return make_16_bit_train_step(model, optimizer, compute);
  return jit(
      [model, optimizer](const Params& params, const Params& optimizer_state, const Params& model_state,
                         const Tensor& x, const Tensor& labels, const Tensor& lr, const Tensor& key) {
        auto loss = [&model](const Params& p, const Params& s, const Tensor& x, const Tensor& labels,
                             const Tensor& key) {
          auto [logits, new_state] = model.apply(p, s, x, {.training = true, .key = key});
          return std::make_pair(nn::softmax_cross_entropy(logits, labels), std::move(new_state));
        };
        const nn::LossGradState r = nn::value_and_grad_with_state(loss)(params, model_state, x, labels, key);
        auto [new_params, new_optimizer_state] = optimizer.update(params, r.grads, optimizer_state, lr);
        return std::make_tuple(r.loss, new_params, new_optimizer_state, r.state);
      },
      {.compiler = vulkan::compiler()});
}

// Vulkan when asked for (--device vulkan, or a device named by NXV_DEVICE: a name that matches nothing is an
// error, never a silent run on the CPU) or when a device is usable; else the reference backend.
Backend& pick_backend(const std::string& device, std::FILE* log) {
  if (device == "reference") return reference_backend();
  if (device == "vulkan" || settings::is_set(settings::Id::DEVICE) || vulkan::available()) {
    Backend& b = vulkan::backend();
    std::fprintf(log, "device: vulkan, %s\n", vulkan::list_devices()[vulkan::pick_device()].name.c_str());
    return b;
  }
  std::fprintf(log, "note: no usable Vulkan device, training on the reference (CPU) backend\n");
  return reference_backend();
}

namespace {

// What run_training sets up once and every epoch uses.
struct Run {
  const TrainOptions& options;
  Backend& backend;
  const data::Dataset& train;
  data::BatchOptions train_options;
  StepFn step;
  nn::Schedule schedule;
  std::int64_t steps_per_epoch = 0, first_epoch = 0, last_epoch = 0;
  bool record_step_losses = false;
};

// Once the loss is not a number, every later step's is not either, and a checkpoint of it is useless: the run
// stops (DivergedError), leaving the last good checkpoint where it is. `where`: "epoch 2/3 at step 5/8".
double check_finite(const Run& run, double value, const char* what, const std::string& where, double rate,
                    std::int64_t epochs_done) {
  if (std::isfinite(value)) return value;
  const TrainOptions& o = run.options;
  const std::string kept =
      epochs_done >= run.first_epoch
          ? concat((o.out / "checkpoint.safetensors").string(), " holds epoch ", epochs_done, ", the last good one")
      : !o.resume.empty() ? concat("the checkpoint it resumed from, ", o.resume.string(), ", is as it was")
                          : std::string("no checkpoint was written");
  throw DivergedError(concat("training diverged in ", where, ": ", what, " is ", value, " (learning rate ", rate,
                             "); stopped without saving the epoch: ", kept, ". A smaller --lr may help."));
}

// One epoch of training on `c`: its train loss, seconds and samples per second (the caller adds the test metrics).
EpochMetrics train_epoch(const Run& run, std::int64_t epoch, Checkpoint& c, TrainResult& result, std::FILE* log) {
  const data::Batches batches(run.train, run.train_options, run.backend, static_cast<std::uint64_t>(epoch - 1));
  const std::string label = concat("epoch ", epoch, "/", run.last_epoch);
  io::ProgressBar bar(batches.size(), label, log);
  const Clock::time_point start = Clock::now();
  std::int64_t done = 0, seen = 0;  // steps and samples
  double rate = 0;
  auto finite = [&](double value, const char* what) {
    return check_finite(run, value, what, concat(label, " at step ", done, "/", batches.size()), rate, c.epoch);
  };
  // The epoch's summed loss stays on the device; it is read only when the bar shows it (the running mean) and once
  // at the end, so an epoch downloads only the numbers it prints.
  Tensor loss_sum = scalar(0.0, master_dtype(c.dtype), run.backend);
  std::int64_t read_at = -1;
  double running_loss = 0;
  auto read_running_loss = [&] {
    if (read_at != seen) running_loss = finite(loss_sum.item() / static_cast<double>(seen), "the mean train loss");
    read_at = seen;
    return running_loss;
  };
  while (done < batches.size()) {
    const data::Batch b = batches[done];
    rate = run.schedule(schedule_position(epoch, done, run.steps_per_epoch));
    auto [loss, params, optimizer_state, model_state] =
        run.step(c.params, c.optimizer_state, c.model_state, b.images, b.labels,
                 scalar(rate, master_dtype(c.dtype), run.backend), nn::step_key(c.seed, c.step, run.backend));
    c.params = std::move(params);
    c.optimizer_state = std::move(optimizer_state);
    c.model_state = std::move(model_state);
    ++c.step;
    ++done;
    seen += b.size;
    loss_sum = loss_sum + loss * static_cast<double>(b.size);
    result.step_lrs.push_back(rate);
    if (run.record_step_losses) result.step_losses.push_back(finite(loss.item(), "the step's loss"));
    bar.update_lazy(
        done,
        [&] {
          return std::vector<io::Metric>{{"loss", read_running_loss()}};
        },
        seen);
  }
  EpochMetrics m;
  m.epoch = epoch;
  m.train_loss = read_running_loss();
  m.seconds = seconds_since(start);
  m.samples_per_second = static_cast<double>(seen) / m.seconds;
  bar.finish();
  return m;
}

}  // namespace

TrainResult run_training(const TrainOptions& o, std::FILE* log, bool record_step_losses) {
  check_output_dir(o.out);
  Backend& backend = pick_backend(o.device, log);
  const std::filesystem::path dir = o.data.empty() ? data::default_data_dir() : o.data;
  const data::Dataset train = data::load_idx(dir, data::Split::train);
  const data::Dataset test = data::load_idx(dir, data::Split::test);
  check_not_empty(train);
  check_not_empty(test);
  check_same_size(train, test);

  Checkpoint c = starting_point(o, train, backend);
  const nn::Sequential model = make_model(c.model);
  const EvalFn eval = make_eval(model, c.dtype);
  data::BatchOptions train_options;
  train_options.batch_size = c.batch;
  train_options.seed = c.seed;
  train_options.subset = o.subset;
  train_options.layout = image_layout(c.model);
  train_options.dtype = c.dtype;
  data::BatchOptions test_options = train_options;
  test_options.batch_size = kEvalBatch;
  test_options.subset = o.test_subset;
  const std::int64_t steps_per_epoch = data::Batches(train, train_options, backend).size();
  const std::int64_t last_epoch = c.epoch + o.epochs;
  const Run run{o,
                backend,
                train,
                train_options,
                make_train_step(model, make_optimizer(c.optimizer), c.dtype),
                make_schedule(c.schedule, c.lr, steps_per_epoch, last_epoch),
                steps_per_epoch,
                c.epoch + 1,
                last_epoch,
                record_step_losses};
  std::fprintf(log, "model %s (%lld parameters), %s, lr %g (%s schedule), batch %lld, %s\n", c.model.c_str(),
               static_cast<long long>(nn::parameter_count(c.params)), c.optimizer.c_str(), c.lr,
               c.schedule.kind.c_str(), static_cast<long long>(c.batch), std::string(name(c.dtype)).c_str());

  TrainResult result;
  for (std::int64_t epoch = run.first_epoch; epoch <= run.last_epoch; ++epoch) {
    EpochMetrics m = train_epoch(run, epoch, c, result, log);
    const Evaluation e = evaluate(eval, c.params, c.model_state, test, test_options, backend);
    m.test_loss = check_finite(run, e.loss, "the test loss", concat("epoch ", epoch, "/", run.last_epoch),
                               result.step_lrs.back(), c.epoch);
    m.test_accuracy = e.accuracy;
    c.history.push_back(m);
    c.epoch = epoch;
    print_epoch(log, m, run.last_epoch);
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
  check_not_empty(test);
  const Checkpoint c = load_checkpoint(o.evaluate, backend);
  check_parameters(c, input_shape(c.model, test.rows, test.cols), o.evaluate);
  data::BatchOptions options;
  options.batch_size = o.given.count("batch") ? o.batch : kEvalBatch;
  options.subset = o.test_subset;
  options.layout = image_layout(c.model);
  options.dtype = c.dtype;
  const Evaluation e =
      evaluate(make_eval(make_model(c.model), c.dtype), c.params, c.model_state, test, options, backend);
  std::fprintf(log, "checkpoint %s: model %s, epoch %lld\ntest loss %.4f, test accuracy %.4f (%lld examples)\n",
               o.evaluate.string().c_str(), c.model.c_str(), static_cast<long long>(c.epoch), e.loss, e.accuracy,
               static_cast<long long>(e.examples));
  return e;
}

}  // namespace nxv::train
