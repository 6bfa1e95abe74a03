// The dense, normalisation, dropout and embedding layers: as pure functions, and as Sequential layers that
// create their parameters.
#include "nn/layer_helpers.hpp"
#include "nxv/grad.hpp"

namespace nxv::nn {

// ---- functions ------------------------------------------------------------------------------------------------
Tensor dense(const Tensor& x, const Tensor& kernel, const Tensor& bias) {
  NXV_CHECK(kernel.rank() == 2 && x.rank() >= 1 && x.dim(-1) == kernel.dim(0) && bias.rank() == 1 &&
                bias.dim(0) == kernel.dim(1),
            "dense", "got x ", to_string(x.type()), ", kernel ", to_string(kernel.type()), " and bias ",
            to_string(bias.type()), ", expected x [..., in], kernel [in, out] and bias [out]");
  return dot(x, kernel) + bias;
}

Tensor batch_flatten(const Tensor& x) {
  NXV_CHECK(x.rank() >= 1, "batch_flatten", "got a rank-0 tensor, expected a batch axis");
  return reshape(x, {x.dim(0), x.dim(0) == 0 ? 0 : -1});
}

Tensor dropout(const Tensor& x, double rate, const Tensor& key, bool training, std::uint32_t stream) {
  NXV_CHECK(rate >= 0 && rate < 1, "dropout", "got rate ", rate, ", expected 0 <= rate < 1");
  if (!training || rate == 0) return x;
  NXV_CHECK(key.defined(), "dropout", "training mode needs a key tensor (ApplyOptions::key = nn::step_key(...))");
  const Tensor kept = less(random_uniform(key, x.shape(), x.dtype(), stream), 1 - rate);
  return select(kept, x / (1 - rate), scalar(0.0, x.dtype(), x.backend()));
}

Tensor dropout(const Tensor& x, double rate, Key key, bool training) {
  return dropout(x, rate, key_tensor(key, x.backend()), training);
}

Tensor layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta, double epsilon) {
  NXV_CHECK(x.rank() >= 1 && gamma.shape() == Shape{x.dim(-1)} && beta.shape() == gamma.shape(), "layer_norm", "got x ",
            to_string(x.type()), ", gamma ", to_string(gamma.type()), " and beta ", to_string(beta.type()),
            ", expected gamma and beta of shape [", x.rank() ? x.dim(-1) : 0, "]");
  const Tensor centred = x - mean(x, Axes{-1}, true);
  const Tensor var = mean(square(centred), Axes{-1}, true);
  return centred * rsqrt(var + epsilon) * gamma + beta;
}

Tensor embedding(const Tensor& ids, const Tensor& table) {
  NXV_CHECK(table.rank() == 2 && is_integer(ids.dtype()), "embedding", "got ids ", to_string(ids.type()), " and table ",
            to_string(table.type()), ", expected integer ids and a table [vocabulary, dimension]");
  return take(table, ids, 0);
}

namespace {

// Axes 0, 2, 3, ...: every axis but the channels.
Axes batch_norm_axes(const Tensor& x) {
  Axes axes{0};
  for (int i = 2; i < x.rank(); ++i) axes.push_back(i);
  return axes;
}

// A [C] tensor shaped to broadcast along axis 1 of x.
Tensor per_channel(const Tensor& v, const Tensor& x) {
  Shape shape = Shape::filled(x.rank(), 1);
  shape[1] = v.dim(0);
  return reshape(v, shape);
}

void check_batch_norm(const char* op, const Tensor& x, std::initializer_list<const Tensor*> per_channel_tensors) {
  NXV_CHECK(x.rank() >= 2, op, "got x ", to_string(x.type()), ", expected [N, C, ...]");
  for (const Tensor* t : per_channel_tensors)
    NXV_CHECK(t->shape() == Shape{x.dim(1)}, op, "got a per-channel tensor ", to_string(t->type()), " for x ",
              to_string(x.type()), ", expected shape [", x.dim(1), "]");
}

Tensor normalize(const Tensor& x, const Tensor& gamma, const Tensor& beta, const Tensor& mean, const Tensor& var,
                 double epsilon) {
  return (x - per_channel(mean, x)) * per_channel(rsqrt(var + epsilon) * gamma, x) + per_channel(beta, x);
}

}  // namespace

BatchNormOutput batch_norm_train(const Tensor& x, const Tensor& gamma, const Tensor& beta, const Tensor& running_mean,
                                 const Tensor& running_var, double momentum, double epsilon) {
  check_batch_norm("batch_norm_train", x, {&gamma, &beta, &running_mean, &running_var});
  const Axes axes = batch_norm_axes(x);
  const Tensor batch_mean = mean(x, axes);
  const Tensor batch_var = mean(square(x - per_channel(batch_mean, x)), axes);
  BatchNormOutput out;
  out.y = normalize(x, gamma, beta, batch_mean, batch_var, epsilon);
  out.running_mean = running_mean * momentum + stop_gradient(batch_mean) * (1 - momentum);
  out.running_var = running_var * momentum + stop_gradient(batch_var) * (1 - momentum);
  return out;
}

Tensor batch_norm_inference(const Tensor& x, const Tensor& gamma, const Tensor& beta, const Tensor& mean,
                            const Tensor& var, double epsilon) {
  check_batch_norm("batch_norm_inference", x, {&gamma, &beta, &mean, &var});
  return normalize(x, gamma, beta, mean, var, epsilon);
}

// ---- Sequential layers --------------------------------------------------------------------------------------
Layer dense(std::int64_t units, init::Initializer kernel_init, init::Initializer bias_init) {
  NXV_CHECK(units > 0, "nn::dense", "got ", units, " units, expected > 0");
  Layer layer{"dense", {}, {}};
  layer.init = [=](Key key, const Shape& in, DType dtype, Backend& backend, Params& params, Params&) {
    NXV_CHECK(in.size() >= 2, "nn::dense", "got inputs of shape ", to_string(in), ", expected [batch, ..., features]");
    const auto [k_kernel, k_bias] = split(key);
    params["kernel"] = kernel_init(k_kernel, {in.back(), units}, dtype, backend);
    params["bias"] = bias_init(k_bias, {units}, dtype, backend);
  };
  layer.apply = [](const Params& p, const Params&, const Tensor& x, const ApplyOptions&, Params&) {
    return dense(x, p.at("kernel"), p.at("bias"));
  };
  return layer;
}

Layer flatten() {
  return stateless("flatten", [](const Tensor& x) { return batch_flatten(x); });
}

Layer dropout(double rate) {
  NXV_CHECK(rate >= 0 && rate < 1, "nn::dropout", "got rate ", rate, ", expected 0 <= rate < 1");
  Layer layer = stateless("dropout", [](const Tensor& x) { return x; });
  layer.apply = [rate](const Params&, const Params&, const Tensor& x, const ApplyOptions& o, Params&) {
    return dropout(x, rate, o.key, o.training, o.stream);
  };
  return layer;
}

Layer layer_norm(double epsilon) {
  Layer layer{"layer_norm", {}, {}};
  layer.init = [](Key, const Shape& in, DType dtype, Backend& backend, Params& params, Params&) {
    NXV_CHECK(!in.empty(), "nn::layer_norm", "got rank-0 inputs, expected [..., features]");
    params["gamma"] = nxv::ones({in.back()}, dtype, backend);
    params["beta"] = nxv::zeros({in.back()}, dtype, backend);
  };
  layer.apply = [epsilon](const Params& p, const Params&, const Tensor& x, const ApplyOptions&, Params&) {
    return layer_norm(x, p.at("gamma"), p.at("beta"), epsilon);
  };
  return layer;
}

Layer batch_norm(double momentum, double epsilon) {
  Layer layer{"batch_norm", {}, {}};
  layer.init = [](Key, const Shape& in, DType dtype, Backend& backend, Params& params, Params& state) {
    NXV_CHECK(in.size() >= 2, "nn::batch_norm", "got inputs of shape ", to_string(in), ", expected [N, C, ...]");
    params["gamma"] = nxv::ones({in[1]}, dtype, backend);
    params["beta"] = nxv::zeros({in[1]}, dtype, backend);
    state["mean"] = nxv::zeros({in[1]}, dtype, backend);
    state["var"] = nxv::ones({in[1]}, dtype, backend);
  };
  layer.apply = [=](const Params& p, const Params& s, const Tensor& x, const ApplyOptions& o, Params& new_state) {
    NXV_CHECK(s.count("mean") && s.count("var"), "nn::batch_norm",
              "the state has no running statistics: pass the state from Sequential::init_variables");
    if (!o.training) return batch_norm_inference(x, p.at("gamma"), p.at("beta"), s.at("mean"), s.at("var"), epsilon);
    BatchNormOutput r = batch_norm_train(x, p.at("gamma"), p.at("beta"), s.at("mean"), s.at("var"), momentum, epsilon);
    new_state["mean"] = r.running_mean;
    new_state["var"] = r.running_var;
    return r.y;
  };
  return layer;
}

Layer embedding(std::int64_t vocabulary, std::int64_t dimension) {
  NXV_CHECK(vocabulary > 0 && dimension > 0, "nn::embedding", "got vocabulary ", vocabulary, " and dimension ",
            dimension, ", expected both > 0");
  Layer layer{"embedding", {}, {}};
  layer.init = [=](Key key, const Shape&, DType dtype, Backend& backend, Params& params, Params&) {
    // Flax's default for embeddings: N(0, 1); Glorot on [vocabulary, dimension] would shrink with the vocabulary.
    params["table"] = normal(key, {vocabulary, dimension}, dtype, 0.0, 1.0, backend);
  };
  layer.apply = [](const Params& p, const Params&, const Tensor& ids, const ApplyOptions&, Params&) {
    return embedding(ids, p.at("table"));
  };
  return layer;
}

Layer relu() {
  return stateless("relu", [](const Tensor& x) { return relu(x); });
}
Layer leaky_relu(double alpha) {
  return stateless("leaky_relu", [alpha](const Tensor& x) { return leaky_relu(x, alpha); });
}
Layer gelu() {
  return stateless("gelu", [](const Tensor& x) { return gelu(x); });
}
Layer silu() {
  return stateless("silu", [](const Tensor& x) { return silu(x); });
}
Layer tanh() {
  return stateless("tanh", [](const Tensor& x) { return nxv::tanh(x); });
}
Layer sigmoid() {
  return stateless("sigmoid", [](const Tensor& x) { return nxv::sigmoid(x); });
}
Layer softmax() {
  return stateless("softmax", [](const Tensor& x) { return softmax(x); });
}
Layer log_softmax() {
  return stateless("log_softmax", [](const Tensor& x) { return log_softmax(x); });
}

}  // namespace nxv::nn
