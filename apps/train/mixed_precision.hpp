// nxv-train's 16-bit training (--dtype bf16|f16): f32 master weights, updated by the optimizer in f32; each step
// casts them to the 16-bit type and runs the forward and backward passes there (conv and the reductions accumulate
// in f32, the library's rule for 16-bit floats), with the loss computed from f32 logits. f16 adds a dynamic loss
// scale, as PyTorch's GradScaler does with its defaults: the loss is multiplied by the scale (2^16 to start) so
// that small gradients do not flush to zero in f16; a step whose unscaled gradients are not all finite is skipped
// and halves the scale, and 2000 finite steps in a row double it. bf16 has f32's range and needs no scale.
#pragma once
#include "nxv/nn.hpp"
#include "train/trainer.hpp"

namespace nxv::train {

// The dtype the parameters and the optimizer state keep: f32 for the 16-bit compute dtypes, else `compute`.
DType master_dtype(DType compute);

// The loss scale's entries of the optimizer state (f16 only): the scale (f32) and the finite steps since it last
// changed (s64). They travel with the optimizer state, so checkpoints keep them.
inline constexpr const char* kLossScale = "loss_scale";
inline constexpr const char* kLossScaleGoodSteps = "loss_scale_good_steps";
inline constexpr double kInitialLossScale = 65536, kLossScaleGrowth = 2, kLossScaleBackoff = 0.5;
inline constexpr std::int64_t kLossScaleGrowthInterval = 2000;

// A fresh optimizer state's loss-scale entries for `compute` (none unless f16).
void add_loss_scale(Params& optimizer_state, DType compute, Backend& backend);

// The jitted 16-bit training step (StepFn's contract; its loss is the unscaled f32 loss).
StepFn make_16_bit_train_step(const nn::Sequential& model, const nn::Optimizer& optimizer, DType compute);

// `params` cast to `compute` (the step's and the evaluation's 16-bit copy of the master weights).
Params cast_params(const Params& params, DType compute);

}  // namespace nxv::train
