#include "bench/suites/steps.hpp"

#include "nxv/grad.hpp"
#include "nxv/vulkan.hpp"
#include "train/models.hpp"

namespace nxv::bench {

std::string StepSetup::label() const { return model + " b" + std::to_string(batch) + " " + std::string(name(dtype)); }
std::string StepSetup::id() const { return model + ".b" + std::to_string(batch) + "." + std::string(name(dtype)); }

StepData make_step_data(const StepSetup& s, double lr) {
  Backend& host = reference_backend();
  const Shape one = train::input_shape(s.model, 28, 28);  // [1, 784] or [1, 1, 28, 28]
  Shape batch_shape = one;
  batch_shape[0] = s.batch;
  const auto [data_key, label_key] = split(key(1234));
  StepData d;
  d.params = train::make_model(s.model).init(key(42), one, s.dtype, host);
  // Normalised-image-like values (Fashion-MNIST after normalisation spans about [-0.8, 2.0]).
  d.images = uniform(data_key, batch_shape, s.dtype, -0.8, 2.0, host);
  d.labels = as_type(floor(uniform(label_key, {s.batch}, DType::f32, 0.0, 10.0, host)), DType::s64);
  d.lr = scalar(lr, s.dtype, host);
  return d;
}

Trainer::Trainer(const StepSetup& setup, const StepData& data, Backend& backend, Jit jit_with)
    : images_(data.images.to(backend)), labels_(data.labels.to(backend)), lr_(data.lr.to(backend)) {
  for (const auto& [name, t] : data.params) params_[name] = t.to(backend);
  const nn::Sequential model = train::make_model(setup.model);
  const nn::Optimizer optimizer = nn::sgd();
  state_ = optimizer.init(params_);
  step_fn_ = jit(
      [model, optimizer](const Params& params, const Params& state, const Tensor& x, const Tensor& labels,
                         const Tensor& lr) {
        auto loss = [&model](const Params& p, const Tensor& x, const Tensor& labels) {
          return nn::softmax_cross_entropy(model.apply(p, x, {.training = true}), labels);
        };
        auto [value, grads] = value_and_grad(loss)(params, x, labels);
        auto [new_params, new_state] = optimizer.update(params, grads, state, lr);
        return std::make_tuple(value, new_params, new_state);
      },
      {.compiler = jit_with == Jit::evaluator
                       ? evaluator()
                       : vulkan::compiler({.replay = jit_with == Jit::fusion_compiler ? vulkan::Replay::automatic
                                                                                      : vulkan::Replay::never})});
}

double Trainer::step() {
  auto [loss, params, state] = step_fn_(params_, state_, images_, labels_, lr_);
  params_ = std::move(params);
  state_ = std::move(state);
  return loss.item();
}

}  // namespace nxv::bench
