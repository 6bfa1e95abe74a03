// OpCall: one op application, as backends execute it and as traced graphs store it.
//
// The op set is small on purpose (tinygrad-style): every elementwise op is one OpCode::unary/binary/test
// with its function id from shared/elementwise.def; reductions share OpCode::reduce, and so on. Each backend
// has exactly one switch over OpCode.
#pragma once
#include <cstdint>
#include <string>

#include "nxv/ops.hpp"
#include "nxv/shape.hpp"

namespace nxv {

enum class OpCode : std::uint8_t {
  unary,        // fn = UnaryFn; same dtype in and out
  unary_test,   // fn = UnaryFn (is_nan, is_infinity, logical_not); result pred
  binary,       // fn = BinaryFn; inputs of one dtype, broadcast to the result shape; same dtype out
  binary_test,  // fn = BinaryFn (comparisons, logical ops); result pred
  select,       // (pred, on_true, on_false), broadcast
  clip,         // (x, low, high), broadcast; same dtype
  cast,         // to out.dtype
  reduce,       // fn = ReduceFn over `axes` (sorted); keep_axes
  arg_reduce,   // fn = ArgReduceFn over axes[0] (or all axes flattened when axes is empty); result s64
  reshape,      // to out.shape: a view (backends share the input's storage; the tracer records it)
  transpose,    // axes = permutation
  broadcast,    // axes[i] = the output axis of input axis i
  slice,        // starts, strides (lengths are the output shape)
  pad,          // pad_low, pad_high, pad_interior; scalar = pad value
  concatenate,  // axis
  reverse,      // axes
  dot,          // contract_a, batch_a, contract_b, batch_b
  iota,         // axis
  eye,          //
  full,         // scalar
  random_uniform,  // key, scalar = low, scalar2 = high
  random_normal,   // key, scalar = mean, scalar2 = stddev
  // ---- convolution and windows (the CNN path) ----
  conv,            // (input, kernel) in canonical layouts [N, C, spatial...] / [O, I/groups, spatial...]
                   // (permutations are applied by the front end as transposes); strides, pad_low/pad_high,
                   // input_dilation, kernel_dilation, feature_groups, batch_groups
  window_reduce,   // fn = ReduceFn (sum, product, max, min); window, strides, pad_low/pad_high,
                   // window_dilation; padding takes the identity of fn
  window_scatter,  // (x, source, init) fn = ReduceFn max/min: pooling's backward pass; window, strides,
                   // pad_low/pad_high; source has the shape of window_reduce's output
  // ---- indexing, sorting, scans ----
  take,             // (x, indices) along axis: out = x.shape[:axis] + indices.shape + x.shape[axis+1:]
  take_along_axis,  // (x, indices) along axis; indices broadcast-compatible with x except along axis
  gather,           // (x, indices[..., k]) indexes the leading k axes (Nx gather)
  indexed_add,      // (x, indices[n, k], updates[n, ...]); repeated indices accumulate in index order
  indexed_put,      // (x, indices[n, k], updates[n, ...]); for repeated indices the last update wins
  put_slice,        // (x, slice) at attrs.starts (clamped so the slice fits, as Nx)
  sort,             // along axis; fn = 0 ascending, 1 descending; stable; NaN sorts last (ascending)
  argsort,          // as sort, returns s64 indices
  cumulative,       // fn = ReduceFn (sum, product, max, min) along axis; keep_axes = reverse
};
const char* op_name(OpCode code);

// Function ids of the elementwise ops. The numbers are shared with the shaders (see elementwise.def).
enum class UnaryFn : std::int32_t {
#define NXV_UNARY(id, name, cls, expr) name = id,
#define NXV_BINARY(id, name, cls, expr)
#include "shared/elementwise.def"
};
enum class BinaryFn : std::int32_t {
#define NXV_UNARY(id, name, cls, expr)
#define NXV_BINARY(id, name, cls, expr) name = id,
#include "shared/elementwise.def"
};
enum class ReduceFn : std::int32_t { sum = 0, product = 1, max = 2, min = 3, all = 4, any = 5 };
enum class ArgReduceFn : std::int32_t { argmax = 0, argmin = 1 };

const char* fn_name(UnaryFn f);
const char* fn_name(BinaryFn f);
const char* fn_name(ReduceFn f);

// The parameters of every op in one flat struct: each op reads the fields its comment above names.
struct OpAttrs {
  std::int32_t fn = 0;
  Axes axes;
  bool keep_axes = false;
  std::int64_t axis = 0;
  Shape starts, strides;
  Shape pad_low, pad_high, pad_interior;
  Axes contract_a, batch_a, contract_b, batch_b;
  double scalar = 0.0, scalar2 = 0.0;
  Key key;
  // conv and window ops
  Shape window, input_dilation, kernel_dilation, window_dilation;
  std::int64_t feature_groups = 1, batch_groups = 1;
};

struct OpCall {
  OpCode code;
  OpAttrs attrs;
};
// "binary(add)" / "reduce(sum, axes=[1])": for errors, fallback counters and graph printing.
std::string describe(const OpCall& call);

}  // namespace nxv
