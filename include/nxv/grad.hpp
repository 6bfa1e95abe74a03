// Reverse-mode autodiff as a transformation of the traced graph (as Nx.Defn.Grad and tinygrad's gradient).
//
//   auto loss = [](const nxv::Params& p, const nxv::Tensor& x) { return nxv::sum(nxv::tanh(nxv::dot(x, p.at("w")))); };
//   auto [value, grads] = nxv::value_and_grad(loss)(params, x);   // grads: a Params like `params`
//   auto step = nxv::jit(nxv::grad(loss));                         // the backward pass is traced and cached too
//
// grad(fn) traces fn on symbolic tensors, evaluates the graph on the actual inputs, then walks it backwards
// applying one vector-Jacobian rule per op (src/grad/rules_*.cpp), each written with the ordinary ops. So the
// backward pass runs on the inputs' backend, and inside another trace (jit, grad of grad) it becomes nodes of
// that trace. Gradients are taken with respect to the first argument (a tensor or any container of float
// tensors; pass a tuple to differentiate several); fn must return a rank-0 float tensor.
//
// Conventions at non-differentiable points (as JAX): max/min (elementwise and reductions) split the cotangent
// evenly among tied elements; abs and sign have derivative 0 at 0; floor/ceil/round/sign, comparisons,
// argmax/argmin and integer-valued ops have zero gradient; clip passes the gradient to x only strictly inside
// (low, high); pow's d/db is 0 where a == 0 and NaN where a < 0; product's rule divides by the inputs, so it
// is exact only when no element of a reduced group is zero.
#pragma once
#include "nxv/defn.hpp"

namespace nxv {

// x for values, zero for gradients.
Tensor stop_gradient(const Tensor& x);

// A user-supplied vector-Jacobian product for nxv::custom_grad: one cotangent per input (an undefined
// tensor means zero), given the inputs, the output and the output's cotangent. Written with ops, so it can be
// differentiated again.
using CustomVjp =
    std::function<std::vector<Tensor>(std::span<const Tensor> inputs, const Tensor& output, const Tensor& cotangent)>;

namespace detail {
struct ValueAndGrad {
  Tensor value;
  std::vector<Tensor> grads;  // one per leaf of `wrt`
};
using ScalarFn = std::function<Tensor(std::span<const Tensor> wrt, std::span<const Tensor> rest)>;
ValueAndGrad value_and_grad(std::span<const Tensor> wrt, std::span<const Tensor> rest, const ScalarFn& fn);
// `output` (computed by the user function from `inputs`) marked so that its gradient comes from `vjp`.
Tensor attach_custom_vjp(std::span<const Tensor> inputs, const Tensor& output, std::shared_ptr<const CustomVjp> vjp);
}  // namespace detail

// fn's value and its gradient with respect to the first argument: a std::pair<Tensor, First>.
template <class F>
auto value_and_grad(F fn) {
  return [fn](const auto& first, const auto&... rest) {
    using First = std::decay_t<decltype(first)>;
    using Rest = detail::DecayedTuple<decltype(rest)...>;
    std::vector<Tensor> wrt, others;
    const Structure wrt_structure = flatten(first, wrt);
    const Structure rest_structure = flatten_all(others, rest...);
    detail::ValueAndGrad r =
        detail::value_and_grad(wrt, others, [&](std::span<const Tensor> w, std::span<const Tensor> o) -> Tensor {
          const First x = unflatten<First>(wrt_structure, w);
          const Rest args = unflatten<Rest>(rest_structure, o);
          return std::apply([&](const auto&... a) -> Tensor { return fn(x, a...); }, args);
        });
    return std::pair<Tensor, First>(std::move(r.value), unflatten<First>(wrt_structure, r.grads));
  };
}

// fn's gradient with respect to the first argument (same type as it).
template <class F>
auto grad(F fn) {
  return [vg = value_and_grad(std::move(fn))](const auto&... args) { return vg(args...).second; };
}

// fn (tensors -> tensor) with its gradient given by `vjp` instead of by differentiating fn.
template <class F>
auto custom_grad(F fn, CustomVjp vjp) {
  auto rule = std::make_shared<const CustomVjp>(std::move(vjp));
  return [fn = std::move(fn), rule](const auto&... xs) -> Tensor {
    const std::vector<Tensor> inputs{Tensor(xs)...};
    return detail::attach_custom_vjp(inputs, fn(xs...), rule);
  };
}

}  // namespace nxv
