// vectorize: a function written for one example, run over a batch axis (Nx's vectorize, JAX's vmap).
//
//   auto per_example = [](const nxv::Params& p, const nxv::Tensor& x) { return nxv::sum(nxv::dot(x, p.at("w"))); };
//   auto batched = nxv::vectorize(per_example, {nxv::not_batched, 0});  // p shared, x batched on axis 0
//   nxv::Tensor y = batched(params, xs);                                  // y[b] == per_example(params, xs[b])
//
// in_axes names, per flattened input tensor (the leaves of the arguments in the order jit flattens them: Params
// by key), the axis that is the batch axis, or not_batched for a tensor every example shares; empty means axis
// 0 everywhere. Every output has the batch axis first (an output that depends on no batched input is broadcast).
// fn is traced once per call on per-example tensors, then its graph is evaluated with one batching rule per op
// (src/trace/batching_rules.cpp), through the ordinary ops: the result equals stacking the per-example calls bit
// for bit, runs on the inputs' backend, and composes with jit, grad (of a vectorized function, or vectorize of
// grad: per-example gradients) and vectorize itself. Bad in_axes (count, range, batch sizes that differ, no
// batched input) throw nxv::Error.
#pragma once
#include <optional>
#include <vector>

#include "nxv/defn.hpp"

namespace nxv {

// One entry per flattened input tensor: its batch axis (negative counts from the end) or not_batched.
using InAxes = std::vector<std::optional<int>>;
inline constexpr std::nullopt_t not_batched = std::nullopt;

namespace detail {
// The flattened outputs of fn vectorized over `inputs` (structured as `structure`, for error messages).
std::vector<Tensor> vectorize_flat(std::span<const Tensor> inputs, const Structure& structure, const InAxes& in_axes,
                                   const FlatFn& fn, Structure& out_structure);
}  // namespace detail

template <class F>
class Vectorized {
 public:
  Vectorized(F fn, InAxes in_axes) : fn_(std::move(fn)), in_axes_(std::move(in_axes)) {}

  template <class... Args>
  auto operator()(const Args&... args) const {
    using Result = std::decay_t<std::invoke_result_t<F&, const std::decay_t<Args>&...>>;
    std::vector<Tensor> leaves;
    const Structure in = flatten_all(leaves, args...);
    Structure out;
    std::vector<Tensor> results = detail::vectorize_flat(
        leaves, in, in_axes_,
        [&](std::span<const Tensor> params, Structure& o) {
          return detail::call_on_leaves<F, Args...>(fn_, in, params, o);
        },
        out);
    return unflatten<Result>(out, results);
  }

 private:
  mutable F fn_;
  InAxes in_axes_;
};

template <class F>
Vectorized<F> vectorize(F fn, InAxes in_axes = {}) {
  return Vectorized<F>(std::move(fn), std::move(in_axes));
}

}  // namespace nxv
