// SGD (momentum, Nesterov), Adam and AdamW as tensor ops over a whole Params map: the state lives next to the
// parameters (on their backend), and one update records a handful of elementwise ops per parameter, nothing
// read back. Conventions and formulas are PyTorch's (torch.optim.SGD, Adam, AdamW), as nn.hpp states.
#include "nxv/nn.hpp"

namespace nxv::nn {

namespace {

const Tensor& entry(const Params& map, const std::string& name, const char* op, const char* what) {
  const auto it = map.find(name);
  if (it == map.end()) detail::fail(op, ": the ", what, " have no entry \"", name, "\"");
  return it->second;
}

void check_same_names(const Params& params, const Params& grads, const char* op) {
  NXV_CHECK(params.size() == grads.size(), op, "got ", grads.size(), " gradients for ", params.size(),
            " parameters, expected one per parameter");
}

Tensor zeros_like(const Tensor& t) { return nxv::zeros(t.shape(), t.dtype(), t.backend()); }

// The step counter, in the dtype and on the backend of the first parameter.
Tensor zero_count(const Params& params, const char* op) {
  NXV_CHECK(!params.empty(), op, "got no parameters to optimise");
  const Tensor& first = params.begin()->second;
  NXV_CHECK(is_float(first.dtype()), op, "parameter \"", params.begin()->first, "\" is ", name(first.dtype()),
            ", expected a float type");
  return nxv::zeros({}, first.dtype(), first.backend());
}

Tensor lr_for(const Tensor& lr, const Tensor& p) { return lr.dtype() == p.dtype() ? lr : as_type(lr, p.dtype()); }

}  // namespace

Optimizer sgd(const SgdOptions& o) {
  NXV_CHECK(o.momentum >= 0 && (!o.nesterov || o.momentum > 0), "sgd", "got momentum ", o.momentum,
            (o.nesterov ? " with nesterov" : ""), ", expected momentum >= 0 (> 0 for nesterov)");
  Optimizer opt;
  opt.name = "sgd";
  opt.init = [o](const Params& params) {
    Params state{{"count", zero_count(params, "sgd")}};
    if (o.momentum > 0)
      for (const auto& [name, p] : params) state.emplace("momentum." + name, zeros_like(p));
    return state;
  };
  opt.update = [o](const Params& params, const Params& grads, const Params& state, const Tensor& lr) {
    check_same_names(params, grads, "sgd");
    Params new_params, new_state{{"count", entry(state, "count", "sgd", "optimizer state") + 1.0}};
    for (const auto& [name, p] : params) {
      Tensor g = entry(grads, name, "sgd", "gradients");
      if (o.weight_decay != 0) g = g + p * o.weight_decay;
      Tensor step = g;
      if (o.momentum > 0) {
        const std::string key = "momentum." + name;
        const Tensor v = entry(state, key, "sgd", "optimizer state") * o.momentum + g;
        new_state.emplace(key, v);
        step = o.nesterov ? g + v * o.momentum : v;
      }
      new_params.emplace(name, p - lr_for(lr, p) * step);
    }
    return std::pair{std::move(new_params), std::move(new_state)};
  };
  return opt;
}

namespace {

Optimizer adam_like(const AdamOptions& o, const char* name) {
  NXV_CHECK(o.beta1 >= 0 && o.beta1 < 1 && o.beta2 >= 0 && o.beta2 < 1 && o.epsilon >= 0, name, "got beta1 ", o.beta1,
            ", beta2 ", o.beta2, ", epsilon ", o.epsilon, ", expected betas in [0, 1) and epsilon >= 0");
  Optimizer opt;
  opt.name = name;
  opt.init = [name](const Params& params) {
    Params state{{"count", zero_count(params, name)}};
    for (const auto& [n, p] : params) {
      state.emplace("m." + n, zeros_like(p));
      state.emplace("v." + n, zeros_like(p));
    }
    return state;
  };
  opt.update = [o, name](const Params& params, const Params& grads, const Params& state, const Tensor& lr) {
    check_same_names(params, grads, name);
    const Tensor t = entry(state, "count", name, "optimizer state") + 1.0;
    const Tensor bias1 = 1.0 - pow(o.beta1, t), bias2 = 1.0 - pow(o.beta2, t);
    Params new_params, new_state{{"count", t}};
    for (const auto& [n, p] : params) {
      const Tensor& g = entry(grads, n, name, "gradients");
      const Tensor m = entry(state, "m." + n, name, "optimizer state") * o.beta1 + g * (1 - o.beta1);
      const Tensor v = entry(state, "v." + n, name, "optimizer state") * o.beta2 + square(g) * (1 - o.beta2);
      Tensor step = (m / bias1) / (sqrt(v / bias2) + o.epsilon);
      if (o.weight_decay != 0) step = step + p * o.weight_decay;
      new_params.emplace(n, p - lr_for(lr, p) * step);
      new_state.emplace("m." + n, m);
      new_state.emplace("v." + n, v);
    }
    return std::pair{std::move(new_params), std::move(new_state)};
  };
  return opt;
}

}  // namespace

Optimizer adam(const AdamOptions& options) {
  NXV_CHECK(options.weight_decay == 0, "adam", "got weight_decay ", options.weight_decay,
            ", expected 0 (decoupled weight decay is adamw)");
  return adam_like(options, "adam");
}

Optimizer adamw(AdamOptions options) {
  if (options.weight_decay == 0) options.weight_decay = 0.01;
  return adam_like(options, "adamw");
}

}  // namespace nxv::nn
