// The vector-Jacobian rules, one function per op family, keyed by OpCode in backward.cpp's switch.
//
// A rule gets the primal inputs and output of one node and the cotangent of its output, and returns one
// cotangent per input (an undefined tensor means zero: nothing to accumulate). Rules are written with the
// front-end ops, so they run on whatever backend the values live on and are recorded when traced.
// They compute only the cotangents `needs` asks for (a dot with constant data skips the data's gradient).
#pragma once
#include <span>
#include <vector>

#include "nxv/ops.hpp"
#include "ops/op.hpp"
#include "trace/graph.hpp"

namespace nxv::rules {

struct Vjp {
  const OpCall& call;
  std::span<const Tensor> x;       // primal inputs, as the backend received them
  const Tensor& y;                 // primal output
  const Tensor& g;                 // cotangent of y (same type as y)
  const std::vector<bool>& needs;  // needs[i]: whether input i's cotangent is wanted
};

std::vector<Tensor> elementwise_vjp(const Vjp& v);  // unary, binary, select, clip, cast
std::vector<Tensor> reduce_vjp(const Vjp& v);       // sum, product, max, min
std::vector<Tensor> movement_vjp(const Vjp& v);     // reshape, transpose, broadcast, slice, pad, concatenate, reverse
std::vector<Tensor> dot_vjp(const Vjp& v);
std::vector<Tensor> conv_vjp(const Vjp& v);
std::vector<Tensor> window_vjp(const Vjp& v);    // window_reduce, window_scatter
std::vector<Tensor> indexing_vjp(const Vjp& v);  // take, take_along_axis, gather, indexed_add/put,
                                                 // put_slice, sort, argsort, cumulative
std::vector<Tensor> linalg_vjp(const Vjp& v);    // cholesky, triangular_solve, lu, qr, eigh, svd

// Control nodes (control_vjp.cpp): one cotangent per input of the node, given a cotangent per result (undefined:
// zero). Throws for while_loop.
std::vector<Tensor> control_vjp(const ControlFlow& control, std::span<const Tensor> x, std::span<const Tensor> g,
                                const std::vector<bool>& needs);
// The cotangents of `graph`'s parameters at `inputs` (undefined: zero, or not wanted) for a cotangent per output
// (undefined: zero); wanted[k]: whether parameter k's is needed (backward.cpp).
std::vector<Tensor> graph_vjp(const Graph& graph, std::span<const Tensor> inputs, std::span<const Tensor> cotangents,
                              const std::vector<bool>& wanted);

// Sums `g` over the axes along which an input of `shape` was broadcast to g's shape (NumPy rules), then
// reshapes it to `shape`.
Tensor unbroadcast(const Tensor& g, const Shape& shape);
// A rank-0 tensor of `value` with t's dtype and backend (so it is recorded when t is traced).
Tensor scalar_like(double value, const Tensor& t);

}  // namespace nxv::rules
