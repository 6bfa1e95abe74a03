// Control flow in numerical definitions: loops and conditionals over containers of tensors (the same containers
// jit takes, include/nxv/defn.hpp), as Nx's while/cond and JAX's lax.while_loop, fori_loop, scan and cond.
//
//   // x_{k+1} = x_k - f(x_k) / f'(x_k), 50 times, with the counter passed as an s64 scalar:
//   auto newton = [](const nxv::Tensor& a) {
//     auto step = [&](const nxv::Tensor&, const nxv::Tensor& x) { return x - (x * x - a) / (2.0 * x); };
//     return nxv::fori_loop(0, 50, step, a);
//   };
//   nxv::Tensor root = nxv::jit(newton)(nxv::scalar(2.0));   // one graph node holding the body's subgraph
//   // A running sum along the leading axis: the carry and, per row, an output stacked into ys.
//   auto add_row = [](const nxv::Tensor& c, const nxv::Tensor& x) { return std::pair(c + x, c + x); };
//   auto [total, partials] = nxv::scan(add_row, nxv::zeros({3}), xs);   // xs: f32[n, 3]
//
// Each function traces its bodies once into subgraphs. Inside a trace (jit, grad, trace) it records one control
// node holding them (src/trace/graph.hpp); on concrete tensors it runs at once on the inputs' backend. A loop's
// carry keeps its structure and types: a body returning another structure or type is an nxv::Error. Tensors a body
// captures are its constants (traced ones become inputs of the node, so gradients flow to them).
//
// How they run (the evaluator, and the Vulkan compiler's eager stages): fori_loop and scan never read back; a
// while_loop on a device reads its condition back once per chunk of k iterations, each iteration guarded by
// select(cond(x), body(x), x). Chunks at most double, up to 64; under jit they grow only while a read-back costs
// more than the iterations a chunk may waste (a cheap body: about log2(T) + T / 64 read-backs for T iterations; a
// body of ~100 dispatches, a NUTS transition's: a read-back per iteration). A compiled loop's later calls start with
// one chunk of 4/5 of the iterations its last call needed (at most 256), so a NUTS transition of T leapfrog rounds
// reads back about T / 5 + 1 times. On the reference backend, where reading costs nothing, once per iteration. cond on
// a device evaluates both branches and selects (no read-back), on the reference backend only the taken one. grad goes
// through cond, fori_loop and scan (the carries are saved per iteration, the bodies recomputed backwards); not through
// while_loop.
#pragma once
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "nxv/defn.hpp"

namespace nxv {

namespace detail {
// Each body is traced from a FlatFn: flattened parameters in, flattened results (and their structure) out.
std::vector<Tensor> while_loop(const Structure& carry, std::span<const Tensor> init, const FlatFn& cond,
                               const FlatFn& body);
std::vector<Tensor> fori_loop(std::int64_t lo, std::int64_t hi, const Structure& carry, std::span<const Tensor> init,
                              const FlatFn& body);
// Its results: the final carry, then the stacked ys (structured as `ys`, which it fills in).
std::vector<Tensor> scan(const Structure& carry, std::span<const Tensor> init, const Structure& xs_structure,
                         std::span<const Tensor> xs, const FlatFn& body, Structure& ys);
std::vector<Tensor> cond(const Tensor& pred, std::span<const Tensor> operands, const FlatFn& on_true,
                         const FlatFn& on_false, Structure& results);

template <class R>
std::vector<Tensor> flatten_result(const R& result, Structure& out) {
  std::vector<Tensor> leaves;
  out = TreeTraits<R>::flatten(result, leaves);
  return leaves;
}
}  // namespace detail

// Runs body while cond(carry) holds: cond returns a pred scalar, body a value structured and typed as `init`.
template <class Cond, class Body, class T>
T while_loop(Cond cond, Body body, const T& init) {
  std::vector<Tensor> leaves;
  const Structure s = flatten(init, leaves);
  const detail::FlatFn c = [&](std::span<const Tensor> p, Structure& out) {
    return detail::flatten_result(Tensor(cond(unflatten<T>(s, p))), out);
  };
  const detail::FlatFn b = [&](std::span<const Tensor> p, Structure& out) {
    return detail::flatten_result(body(unflatten<T>(s, p)), out);
  };
  return unflatten<T>(s, detail::while_loop(s, leaves, c, b));
}

// carry = body(i, carry) for i = lo, lo + 1, ..., hi - 1 (a static trip count; none when hi <= lo); i is an s64
// scalar tensor.
template <class Body, class T>
T fori_loop(std::int64_t lo, std::int64_t hi, Body body, const T& init) {
  std::vector<Tensor> leaves;
  const Structure s = flatten(init, leaves);
  const detail::FlatFn b = [&](std::span<const Tensor> p, Structure& out) {
    return detail::flatten_result(body(p[0], unflatten<T>(s, p.subspan(1))), out);
  };
  return unflatten<T>(s, detail::fori_loop(lo, hi, s, leaves, b));
}

// (carry, y) = body(carry, x) for each x along the leading axis of xs (every leaf of xs has the same leading
// dimension): the final carry and the ys stacked along a new leading axis, as a std::pair. xs and ys may be
// containers; body returns a std::pair or std::tuple of two.
template <class Body, class C, class X>
auto scan(Body body, const C& init, const X& xs) {
  using R = std::decay_t<std::invoke_result_t<Body&, const C&, const X&>>;
  using Y = std::decay_t<std::tuple_element_t<1, R>>;
  std::vector<Tensor> carry_leaves, xs_leaves;
  const Structure cs = flatten(init, carry_leaves);
  const Structure xss = flatten(xs, xs_leaves);
  const detail::FlatFn b = [&](std::span<const Tensor> p, Structure& out) {
    const std::size_t n = carry_leaves.size();
    return detail::flatten_result(body(unflatten<C>(cs, p.first(n)), unflatten<X>(xss, p.subspan(n))), out);
  };
  Structure ys;
  const std::vector<Tensor> r = detail::scan(cs, carry_leaves, xss, xs_leaves, b, ys);
  const std::span<const Tensor> all(r);
  return std::pair<C, Y>(unflatten<C>(cs, all.first(carry_leaves.size())),
                         unflatten<Y>(ys, all.subspan(carry_leaves.size())));
}

// on_true(operands) where pred (a pred scalar) holds, else on_false(operands); both return the same structure and
// types.
template <class True, class False, class T>
auto cond(const Tensor& pred, True on_true, False on_false, const T& operands) {
  using R = std::decay_t<std::invoke_result_t<True&, const T&>>;
  std::vector<Tensor> leaves;
  const Structure s = flatten(operands, leaves);
  const detail::FlatFn t = [&](std::span<const Tensor> p, Structure& out) {
    return detail::flatten_result(on_true(unflatten<T>(s, p)), out);
  };
  const detail::FlatFn f = [&](std::span<const Tensor> p, Structure& out) {
    return detail::flatten_result(on_false(unflatten<T>(s, p)), out);
  };
  Structure results;
  const std::vector<Tensor> r = detail::cond(pred, leaves, t, f, results);
  return unflatten<R>(results, r);
}

}  // namespace nxv
