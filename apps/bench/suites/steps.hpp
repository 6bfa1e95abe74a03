// A model's training step as every suite runs it: value_and_grad of the softmax cross-entropy, an SGD update
// (nn::sgd, no momentum) and the loss read back to the host, all jitted, on synthetic data that depends only on
// the seed (so no data set is needed on the GPU machine). Jitted with the evaluator (every op runs as an eager
// kernel, recorded op by op) or with the Vulkan fusion compiler (nxv::vulkan::compiler(), as nxv-train does).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <tuple>

#include "nxv/defn.hpp"
#include "nxv/nn.hpp"

namespace nxv::bench {

struct StepSetup {
  std::string model;  // mlp, lenet, cnn (apps/train/models.hpp)
  std::int64_t batch = 32;
  DType dtype = DType::f32;
  std::string label() const;  // "lenet b32 f32"
  std::string id() const;     // "lenet.b32.f32"
};

// Initial parameters, one batch and the learning rate, on the reference backend (moved where needed).
struct StepData {
  Params params;
  Tensor images, labels, lr;
};
StepData make_step_data(const StepSetup& s, double lr);

// A training state on one backend: parameters that each step() replaces with the updated ones.
class Trainer {
 public:
  enum class Jit { evaluator, fusion_compiler, fusion_compiler_without_replay };
  Trainer(const StepSetup& setup, const StepData& data, Backend& backend, Jit jit = Jit::evaluator);
  // One step: returns the loss (of the parameters before the update), read back to the host.
  double step();

 private:
  using StepFn = std::function<std::tuple<Tensor, Params, Params>(const Params&, const Params&, const Tensor&,
                                                                  const Tensor&, const Tensor&)>;
  StepFn step_fn_;
  Params params_, state_;  // state_: the optimizer's (SGD's step count)
  Tensor images_, labels_, lr_;
};

}  // namespace nxv::bench
