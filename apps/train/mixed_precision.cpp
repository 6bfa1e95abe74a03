#include "train/mixed_precision.hpp"

#include "nxv/grad.hpp"
#include "nxv/vulkan.hpp"

namespace nxv::train {

DType master_dtype(DType compute) { return is_half_float(compute) ? DType::f32 : compute; }

void add_loss_scale(Params& optimizer_state, DType compute, Backend& backend) {
  if (compute != DType::f16) return;
  optimizer_state[kLossScale] = scalar(kInitialLossScale, DType::f32, backend);
  optimizer_state[kLossScaleGoodSteps] = scalar(0, DType::s64, backend);
}

Params cast_params(const Params& params, DType compute) {
  Params out;
  for (const auto& [name, t] : params) out.emplace(name, as_type(t, compute));
  return out;
}

StepFn make_16_bit_train_step(const nn::Sequential& model, const nn::Optimizer& optimizer, DType compute) {
  NXV_CHECK(is_half_float(compute), "nxv-train", "got dtype ", name(compute), ", expected bf16 or f16");
  const bool scaled = compute == DType::f16;
  return jit(
      [model, optimizer, compute, scaled](const Params& params, const Params& optimizer_state,
                                          const Params& model_state, const Tensor& x, const Tensor& labels,
                                          const Tensor& lr, const Tensor& key) {
        Params state = optimizer_state;  // the optimizer's own entries
        Tensor scale = scalar(1.0, DType::f32, x.backend()), good_steps;
        if (scaled) {
          scale = state.at(kLossScale);
          good_steps = state.at(kLossScaleGoodSteps);
          state.erase(kLossScale);
          state.erase(kLossScaleGoodSteps);
        }
        auto loss = [&](const Params& p, const Params& s, const Tensor& x, const Tensor& labels, const Tensor& key) {
          auto [logits, new_state] = model.apply(cast_params(p, compute), s, x, {.training = true, .key = key});
          return std::make_pair(nn::softmax_cross_entropy(as_type(logits, DType::f32), labels) * scale,
                                std::move(new_state));
        };
        // The cast's gradient takes each parameter's 16-bit cotangent back to f32.
        const nn::LossGradState r = nn::value_and_grad_with_state(loss)(params, model_state, x, labels, key);
        Params grads;
        Tensor finite = scalar(1, DType::pred, x.backend());
        for (const auto& [name, g] : r.grads) {
          const Tensor unscaled = scaled ? g / scale : g;
          finite = logical_and(finite, all(logical_not(logical_or(is_nan(unscaled), is_infinity(unscaled)))));
          grads.emplace(name, unscaled);
        }
        auto [new_params, new_state] = optimizer.update(params, grads, state, lr);
        if (scaled) {
          // Skip an overflowed step: the weights and the optimizer state stay as they were.
          for (auto& [name, t] : new_params) t = select(finite, t, params.at(name));
          for (auto& [name, t] : new_state) t = select(finite, t, state.at(name));
          const Tensor next = good_steps + 1;
          const Tensor grow = equal(next, static_cast<double>(kLossScaleGrowthInterval));
          new_state[kLossScale] =
              select(finite, select(grow, scale * kLossScaleGrowth, scale), scale * kLossScaleBackoff);
          new_state[kLossScaleGoodSteps] = select(logical_and(finite, logical_not(grow)), next, good_steps * 0);
        }
        return std::make_tuple(scaled ? r.loss / scale : r.loss, new_params, new_state, r.state);
      },
      {.compiler = vulkan::compiler()});
}

}  // namespace nxv::train
