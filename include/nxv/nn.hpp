// nxv::nn: layers, activations, initialisers, losses, optimizers and learning-rate schedules, and a small
// sequential model API in the spirit of Axon/Keras. Everything is written with the ordinary tensor ops, so it runs
// on any backend, differentiates with nxv::grad and traces under nxv::jit.
//
//   nn::Sequential model({nn::conv2d(6, {5, 5}, {.padding = nn::same}), nn::relu(), nn::max_pool2d({2, 2}),
//                         nn::flatten(), nn::dense(10)});
//   nxv::Params params = model.init(nxv::key(0), {1, 1, 28, 28});            // "conv_0.kernel", "dense_4.bias", ...
//   nn::Optimizer opt = nn::adam();
//   nxv::Params state = opt.init(params);
//   auto step = nxv::jit([&](const nxv::Params& p, const nxv::Params& s, const nxv::Tensor& x,
//                            const nxv::Tensor& y, const nxv::Tensor& lr) {
//     auto loss = [&](const nxv::Params& p) { return nn::softmax_cross_entropy(model.apply(p, x), y); };
//     auto [value, grads] = nxv::value_and_grad(loss)(p);
//     auto [p2, s2] = opt.update(p, grads, s, lr);
//     return std::make_tuple(value, p2, s2);
//   });
//
// Layers are pure functions of (parameters, inputs). A model's parameters are one flat nxv::Params whose names
// are "<layer kind>_<position>.<name>" -- the names a safetensors checkpoint stores. A hand-written forward
// function works with the same initialisers, optimizers and checkpoints: they only see a Params.
// Conventions: images are NCHW, conv kernels OIHW ([out, in / groups, kh, kw]), dense kernels [in, out].
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "nxv/conv.hpp"
#include "nxv/defn.hpp"
#include "nxv/grad.hpp"
#include "nxv/ops.hpp"

namespace nxv::nn {

// ---- activations (elementwise unless an axis is named) ---------------------------------------------------------
Tensor relu(const Tensor& x);
Tensor leaky_relu(const Tensor& x, double alpha = 0.01);
Tensor gelu(const Tensor& x);  // the exact (erf) form: x * (1 + erf(x / sqrt 2)) / 2
Tensor silu(const Tensor& x);  // x * sigmoid(x)
using nxv::sigmoid;
using nxv::tanh;
// Stable: the maximum along `axis` is subtracted before exponentiating.
Tensor log_softmax(const Tensor& x, int axis = -1);
Tensor softmax(const Tensor& x, int axis = -1);

// ---- keys as tensors: randomness that is an input of a jitted function ------------------------------------------
// nxv::uniform takes its Key as an attribute of the op, so under jit a Key is a constant of the trace and every
// call of a jitted training step would draw the same dropout mask. A key tensor -- s64 [2], the Key's two words --
// is an ordinary (traced) input instead, and random_uniform draws from it with integer ops: element i's bits are
// a keyed murmur3 finaliser of i (not Philox, so not nxv::uniform's numbers; enough for dropout masks, and
// bit-identical on every backend).
Tensor key_tensor(Key key, Backend& backend = default_backend());
// A key tensor for training step `step` of a run seeded with `seed`: a new key per step, the same for the same
// (seed, step), computed on the host.
Tensor step_key(std::uint64_t seed, std::int64_t step, Backend& backend = default_backend());
// A key tensor with `data` (an integer scalar tensor: a chain index, an iteration, a loop counter; traced values
// welcome) folded in: an unrelated key for each value of data, computed with integer ops on the key's backend.
// fold_in(fold_in(k, a), b) is how a sampler derives (seed, chain, iteration) keys that do not depend on the count
// of chains.
Tensor fold_in(const Tensor& key, const Tensor& data);
// Uniform in [0, 1) with 24 random bits per element, on the key's backend. `stream` selects an independent
// sequence for the same key (Sequential passes the layer's position, so that two dropout layers differ).
Tensor random_uniform(const Tensor& key, const Shape& shape, DType dtype = DType::f32, std::uint32_t stream = 0);

// ---- initialisers: values that depend only on (key, shape, dtype) ------------------------------------------------
// Fans: a rank-2 shape is a dense kernel [in, out]; a rank >= 3 shape is a conv kernel [out, in, spatial...]
// (fan_in = in * prod(spatial), fan_out = out * prod(spatial)); a rank-1 shape has fan_in = fan_out = its size.
namespace init {
using Initializer = std::function<Tensor(Key key, const Shape& shape, DType dtype, Backend& backend)>;
Tensor glorot_uniform(Key key, const Shape& shape, DType dtype, Backend& backend);  // U(±sqrt(6 / (in + out)))
Tensor glorot_normal(Key key, const Shape& shape, DType dtype, Backend& backend);   // N(0, sqrt(2 / (in + out)))
Tensor he_uniform(Key key, const Shape& shape, DType dtype, Backend& backend);      // U(±sqrt(6 / in))
Tensor he_normal(Key key, const Shape& shape, DType dtype, Backend& backend);       // N(0, sqrt(2 / in))
Tensor zeros(Key key, const Shape& shape, DType dtype, Backend& backend);
Tensor ones(Key key, const Shape& shape, DType dtype, Backend& backend);
struct Fans {
  double in = 1, out = 1;
};
Fans fans(const Shape& shape);
}  // namespace init

// ---- layers as functions -------------------------------------------------------------------------------------
// x [..., in] · kernel [in, out] + bias [out].
Tensor dense(const Tensor& x, const Tensor& kernel, const Tensor& bias);
// [N, ...] -> [N, prod(...)]: keeps the batch axis (nxv::flatten does not).
Tensor batch_flatten(const Tensor& x);
// Zeroes each element with probability `rate` and scales the rest by 1 / (1 - rate), when `training`; the
// identity otherwise. The mask depends only on (key, stream, x's shape). `key` is a key tensor (key_tensor below),
// so that a jitted training step can take a new one per call; the Key overload makes one (a constant under jit).
Tensor dropout(const Tensor& x, double rate, const Tensor& key, bool training, std::uint32_t stream = 0);
Tensor dropout(const Tensor& x, double rate, Key key, bool training);
// Normalises over the last axis, then scales by gamma and shifts by beta (both [features]).
Tensor layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta, double epsilon = 1e-5);
// Rows of table [vocab, dim] for integer ids of any shape: [ids..., dim].
Tensor embedding(const Tensor& ids, const Tensor& table);

// Batch normalisation over every axis but 1 (the channels of NCHW, the features of [N, F]).
struct BatchNormOutput {
  Tensor y, running_mean, running_var;  // running_*: momentum * old + (1 - momentum) * batch statistic
};
// Training mode: normalises with the batch's mean and (biased) variance and updates the running statistics.
BatchNormOutput batch_norm_train(const Tensor& x, const Tensor& gamma, const Tensor& beta, const Tensor& running_mean,
                                 const Tensor& running_var, double momentum = 0.99, double epsilon = 1e-5);
// Inference mode: normalises with the given statistics.
Tensor batch_norm_inference(const Tensor& x, const Tensor& gamma, const Tensor& beta, const Tensor& mean,
                            const Tensor& var, double epsilon = 1e-5);

// Padding of the spatial axes: valid (none), same (Nx's: the dilated window's size minus one in total, the odd
// one at the high end; strides are not taken into account), or explicit (low, high) pairs (nxv::Padding).
enum class PaddingMode { valid, same };
inline constexpr PaddingMode valid = PaddingMode::valid;
inline constexpr PaddingMode same = PaddingMode::same;
using PaddingSpec = std::variant<PaddingMode, Padding>;
// The explicit padding `spec` means for windows of `window` (dilated) over the spatial axes.
Padding resolve_padding(const PaddingSpec& spec, const Shape& window);

struct Pool2dOptions {
  Shape strides;  // default: the window
  PaddingSpec padding = valid;
};
// Over the H and W axes of an NCHW tensor. max pads with -inf; avg divides by the window's size (padding counts).
Tensor max_pool2d(const Tensor& x, const Shape& window, const Pool2dOptions& options = {});
Tensor avg_pool2d(const Tensor& x, const Shape& window, const Pool2dOptions& options = {});

struct Conv2dOptions {
  Shape strides = {1, 1};
  PaddingSpec padding = valid;
  Shape input_dilation = {1, 1};
  Shape kernel_dilation = {1, 1};
  std::int64_t feature_group_size = 1;
  std::int64_t batch_group_size = 1;
  bool use_bias = true;
  init::Initializer kernel_init = init::glorot_uniform;
  init::Initializer bias_init = init::zeros;
};
// x [N, C, H, W] with kernel [O, C / feature_group_size, kh, kw], plus bias [O] when defined.
Tensor conv2d(const Tensor& x, const Tensor& kernel, const Tensor& bias, const Conv2dOptions& options = {});

// ---- losses and metrics (means over the batch axis) -----------------------------------------------------------
// logits [N, C], integer labels [N] in [0, C): -mean(log_softmax(logits)[label]). The one-hot is
// equal(iota, labels), so no host round trip.
Tensor softmax_cross_entropy(const Tensor& logits, const Tensor& labels);
// Sigmoid cross-entropy from logits, stable for any logit: max(x, 0) - x * t + log1p(exp(-|x|)).
Tensor binary_cross_entropy(const Tensor& logits, const Tensor& targets);
Tensor mean_squared_error(const Tensor& predictions, const Tensor& targets);
// The fraction of rows whose argmax equals the label, as a float scalar (logits' dtype).
Tensor accuracy(const Tensor& logits, const Tensor& labels);
// How many rows' argmax equals the label (an s64 scalar), to sum over batches of different sizes.
Tensor correct_count(const Tensor& logits, const Tensor& labels);

// ---- the sequential model ----------------------------------------------------------------------------------
struct ApplyOptions {
  bool training = false;  // dropout active, batch_norm on batch statistics
  // Dropout's randomness in training mode: a key tensor (key_tensor, step_key), passed into a jitted step as an
  // argument so that each step draws a new mask. Needed only by models with dropout.
  Tensor key;
  std::uint32_t stream = 0;  // which draw from `key`: Sequential sets layer i's to i
};

// One layer of a Sequential. `params` and `state` hold the layer's own entries, named without the prefix.
struct Layer {
  std::string kind;  // "dense", "conv", "relu"...: layer i's entries are named "<kind>_<i>.<name>"
  // The layer's parameters and state (non-trained variables: batch_norm's running statistics) for inputs of
  // `input_shape`.
  std::function<void(Key key, const Shape& input_shape, DType dtype, Backend& backend, Params& params, Params& state)>
      init;
  // The layer's output; a layer with state writes its updated state (training mode) into `new_state`.
  std::function<Tensor(const Params& params, const Params& state, const Tensor& x, const ApplyOptions& options,
                       Params& new_state)>
      apply;
};

Layer dense(std::int64_t units, init::Initializer kernel_init = init::glorot_uniform,
            init::Initializer bias_init = init::zeros);
Layer conv2d(std::int64_t filters, const Shape& kernel_size, const Conv2dOptions& options = {});
Layer max_pool2d(const Shape& window, const Pool2dOptions& options = {});
Layer avg_pool2d(const Shape& window, const Pool2dOptions& options = {});
Layer flatten();
Layer dropout(double rate);
Layer batch_norm(double momentum = 0.99, double epsilon = 1e-5);
Layer layer_norm(double epsilon = 1e-5);
Layer embedding(std::int64_t vocabulary, std::int64_t dimension);
Layer relu();
Layer leaky_relu(double alpha);
Layer gelu();
Layer silu();
Layer tanh();
Layer sigmoid();
Layer softmax();
Layer log_softmax();

struct Variables {
  Params params;  // trained
  Params state;   // not trained: batch_norm's running statistics
};

class Sequential {
 public:
  explicit Sequential(std::vector<Layer> layers);

  // Parameters for inputs shaped like `input_shape` (batch axis first; its size doesn't matter). Layer i's key is
  // split off `key` in order, so adding a layer at the end leaves the others' values unchanged.
  Variables init_variables(Key key, const Shape& input_shape, DType dtype = DType::f32,
                           Backend& backend = default_backend()) const;
  Params init(Key key, const Shape& input_shape, DType dtype = DType::f32, Backend& backend = default_backend()) const {
    return init_variables(key, input_shape, dtype, backend).params;
  }
  // The output and the updated state (changed in training mode only).
  std::pair<Tensor, Params> apply(const Params& params, const Params& state, const Tensor& x,
                                  const ApplyOptions& options = {}) const;
  // For models without state.
  Tensor apply(const Params& params, const Tensor& x, const ApplyOptions& options = {}) const {
    return apply(params, Params{}, x, options).first;
  }
  // One line per layer: its name, output shape and parameter count.
  std::string summary(const Shape& input_shape) const;
  const std::vector<Layer>& layers() const { return layers_; }

 private:
  std::vector<Layer> layers_;
  std::vector<std::string> prefixes_;  // "dense_3."
};

// Total number of elements of all tensors of `params`.
std::int64_t parameter_count(const Params& params);

// ---- optimizers ------------------------------------------------------------------------------------------------
// An optimizer's state is a Params on the parameters' backend: "count" (the steps taken, a float scalar) and one
// entry per parameter and moment ("m.<name>", "v.<name>", "momentum.<name>"), so it checkpoints like weights.
// update() is tensor ops over the whole map: jit it with the gradient and a step never leaves the device.
struct Optimizer {
  std::string name;
  std::function<Params(const Params& params)> init;
  // (new parameters, new state). lr: a rank-0 tensor (an input, so that a schedule doesn't retrace a jit).
  std::function<std::pair<Params, Params>(const Params& params, const Params& grads, const Params& state,
                                          const Tensor& lr)>
      update;
};

struct SgdOptions {
  double momentum = 0.0;      // v = momentum * v + g
  bool nesterov = false;      // step along g + momentum * v instead of v
  double weight_decay = 0.0;  // added to the gradient: g + weight_decay * p
};
struct AdamOptions {
  double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
  double weight_decay = 0.0;  // adamw: decoupled, p -= lr * weight_decay * p
};
// p -= lr * step, with step as SgdOptions says (PyTorch's convention).
Optimizer sgd(const SgdOptions& options = {});
// m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2; p -= lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps).
Optimizer adam(const AdamOptions& options = {});
// Adam with decoupled weight decay (Loshchilov & Hutter): p -= lr * (adam step + weight_decay * p).
// weight_decay defaults to 0.01 when options.weight_decay is 0 (PyTorch's default).
Optimizer adamw(AdamOptions options = {});

// ---- the gradient of a loss that also updates state (batch_norm's running statistics) ---------------------------
// What JAX's value_and_grad(has_aux=True) gives, for the auxiliary output nn needs: fn(params, state, args...)
// returns std::pair<Tensor, Params>, the loss and the new state (the names and types of `state`, as
// Sequential::apply returns it). The result holds the loss, its gradient with respect to params and the new
// state, from one forward pass, inside jit too.
struct LossGradState {
  Tensor loss;
  Params grads;  // like params
  Params state;  // the new state
};
// nxv::value_and_grad returns only the scalar it differentiates, so the new state rides on the gradient: the
// differentiated function adds sum(stop_gradient(new_state[n]) * probe[n]) for zero probes. That adds +0 to the
// value, nothing to the parameters' gradient (stop_gradient), and the gradient with respect to probe[n] is
// 1 * new_state[n]: the new state, exactly.
template <class F>
auto value_and_grad_with_state(F fn) {
  return [fn](const Params& params, const Params& state, const auto&... args) {
    Params probes;
    for (const auto& [name, t] : state) probes.emplace(name, nxv::zeros(t.shape(), t.dtype(), t.backend()));
    auto with_state = [&fn](const std::pair<Params, Params>& wrt, const Params& s, const auto&... rest) -> Tensor {
      const auto [loss, new_state] = fn(wrt.first, s, rest...);
      NXV_CHECK(new_state.size() == wrt.second.size(), "value_and_grad_with_state", "the function returned ",
                new_state.size(), " state entries for ", wrt.second.size(), ", expected the state's names");
      Tensor total = loss;
      for (const auto& [name, probe] : wrt.second) {
        const auto it = new_state.find(name);
        NXV_CHECK(it != new_state.end() && it->second.type() == probe.type(), "value_and_grad_with_state",
                  "the new state has no entry \"", name, "\" of type ", to_string(probe.type()));
        total = total + sum(stop_gradient(it->second) * probe);
      }
      return total;
    };
    auto [loss, grads] = value_and_grad(with_state)(std::pair<Params, Params>(params, probes), state, args...);
    return LossGradState{std::move(loss), std::move(grads.first), std::move(grads.second)};
  };
}

// ---- checkpoints ------------------------------------------------------------------------------------------------
// Params (and optional string metadata) as a safetensors file, which PyTorch / Hugging Face tools read: one tensor
// per name, written atomically. For optimizer state next to the weights, prefix its names (nxv-train uses
// "optimizer.").
void save_params(const std::filesystem::path& path, const Params& params,
                 const std::map<std::string, std::string>& metadata = {});
struct LoadedParams {
  Params params;
  std::map<std::string, std::string> metadata;
};
// Throws nxv::Error naming the file when it is missing or malformed.
LoadedParams load_params(const std::filesystem::path& path, Backend& backend = default_backend());

// ---- learning-rate schedules: step (0-based) -> learning rate, computed on the host -------------------------
using Schedule = std::function<double(std::int64_t step)>;
Schedule constant_schedule(double lr);
// lr * factor^(step / every)
Schedule step_schedule(double lr, std::int64_t every, double factor);
// lr * (final + (1 - final) * (1 + cos(pi * min(step, total) / total)) / 2)
Schedule cosine_schedule(double lr, std::int64_t total_steps, double final_fraction = 0.0);

}  // namespace nxv::nn
