// OpCall: one op application, as backends execute it and as traced graphs store it.
//
// The op set is small on purpose (tinygrad-style): every elementwise op is one OpCode::unary/binary/test
// with its function id from shared/elementwise.def; reductions share OpCode::reduce, and so on. Each backend
// has exactly one switch over OpCode.
//
// An op's parameters are one attribute struct of its family (ReduceAttrs, PadAttrs, ...), each field meaning one
// thing. op_info() below says which struct each OpCode takes; call.attrs_as<ReduceAttrs>() reads it and throws
// nxv::Error naming the op when the call holds another. A new family (linear algebra, FFT, control flow) adds its
// struct to OpAttrs and its rows to op_info(), touching no other family.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>

#include "nxv/ops.hpp"
#include "nxv/shape.hpp"

namespace nxv {

enum class OpCode : std::uint8_t {
  unary,        // same dtype in and out
  unary_test,   // is_nan, is_infinity, logical_not; result pred
  binary,       // inputs of one dtype, broadcast to the result shape; same dtype out
  binary_test,  // comparisons, logical ops; result pred
  select,       // (pred, on_true, on_false), broadcast
  clip,         // (x, low, high), broadcast; same dtype
  cast,         // to out.dtype
  reduce,       // sum, product, max, min, all, any over some axes
  arg_reduce,   // the index of the first max/min (a NaN counts as both); result s64
  reshape,      // to out.shape: a view (backends share the input's storage; the tracer records it)
  transpose,
  broadcast,
  slice,
  pad,
  concatenate,
  reverse,
  dot,
  iota,
  eye,
  full,
  random_uniform,
  random_normal,
  // ---- convolution and windows (the CNN path) ----
  conv,            // (input, kernel) in canonical layouts [N, C, spatial...] / [O, I/groups, spatial...]
                   // (permutations are applied by the front end as transposes)
  window_reduce,   // sum, product, max, min; padding takes the identity of fn
  window_scatter,  // (x, source, init) max/min: pooling's backward pass; source has window_reduce's output shape
  // ---- indexing, sorting, scans ----
  take,             // (x, indices) along axis: out = x.shape[:axis] + indices.shape + x.shape[axis+1:]
  take_along_axis,  // (x, indices) along axis; indices broadcast-compatible with x except along axis
  gather,           // (x, indices[..., k]) indexes the leading k axes (Nx gather)
  indexed_add,      // (x, indices[n, k], updates[n, ...]); repeated indices accumulate in index order
  indexed_put,      // (x, indices[n, k], updates[n, ...]); for repeated indices the last update wins
  put_slice,        // (x, slice) at starts (clamped so the slice fits, as Nx)
  sort,             // stable; NaN sorts last (ascending)
  argsort,          // as sort, returns s64 indices
  cumulative,       // sum, product, max, min scans
  // ---- reinterpretation ----
  bitcast,  // to out.dtype of the same width: a view (backends share the input's storage, as reshape)
  // complex tensors as pairs of reals (src/ops/complex_lowering.cpp): views, as reshape. The only ops a backend
  // sees with a complex dtype.
  real_view,     // c64/c128 [s...] -> f32/f64 [s..., 2]: (real, imaginary) along a new last axis
  complex_view,  // f32/f64 [s..., 2] -> c64/c128 [s...]
  // ---- linear algebra: f32 and f64, batched over every axis but the last two (include/nxv/linalg.hpp) ----
  cholesky,          // a[..., n, n], its lower triangle read -> L[..., n, n], zeros above the diagonal
  triangular_solve,  // (a[..., n, n], b[..., m, k]) -> x of b's shape: op(a) x = b (left side) or x op(a) = b
  lu,                // a[..., n, n] -> [..., n, n + 2]: L's strict lower part (unit diagonal implied) and U packed
                     // in columns 0..n-1, the row permutation (row i of PA is row perm[i] of A) in column n, and
                     // LAPACK's pivot rows (row j swapped with ipiv[j] at step j) in column n + 1, as floats
  qr,    // a[..., m, n] -> [..., m + 1, q + n], q = m (complete) or min(m, n) (reduced): Q in columns 0..q-1 of rows
         // 0..m-1, R in columns q.. of rows 0..q-1 (zeros below), and row m scratch (Householder's scalars)
  eigh,  // a[..., n, n], its lower triangle read as a symmetric matrix -> [..., 2n + 2, n]: the eigenvectors in the
         // columns of rows 0..n-1, the matrix rotated to diagonal in rows n..2n-1 (its diagonal: the eigenvalues, in
         // no particular order), rows 2n and 2n + 1 scratch (the last step's rotations)
  // ---- Fourier transforms (include/nxv/fft.hpp) ----
  fft,  // f32/f64 [..., n, 2]: the (real, imaginary) pairs of complex rows of n along axis -2 -> their unnormalised
        // discrete Fourier transform (inverse: e^{+2 pi i jk / n}), of the same shape
  svd,  // a[..., m, n], m >= n -> [..., m + n + 2, n]: U (orthonormal columns, zero where the singular value is) in
        // rows 0..m-1, V in rows m..m+n-1, the singular values (in no particular order) in row m + n, row m + n + 1
        // scratch
};

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
// The ids are specialization constants of reduce.comp, window.comp, cumulative.comp and arg_reduce.comp.
enum class ReduceFn : std::int32_t { sum = 0, product = 1, max = 2, min = 3, all = 4, any = 5 };
enum class ArgReduceFn : std::int32_t { argmax = 0, argmin = 1 };

const char* fn_name(UnaryFn f);
const char* fn_name(BinaryFn f);
const char* fn_name(ReduceFn f);
const char* fn_name(ArgReduceFn f);

// ---- The attribute structs, one per op family (op_info() says which op takes which) ----
// Every field has an initializer, so that designated initializers may leave any out.

// select, clip, cast, reshape, eye, gather, indexed_add, indexed_put, bitcast, real_view, complex_view, cholesky, lu,
// eigh, svd: the inputs and the result type say it all.
using NoAttrs = std::monostate;

struct UnaryAttrs {
  UnaryFn fn{};
};

struct BinaryAttrs {
  BinaryFn fn{};
};

struct ReduceAttrs {
  ReduceFn fn = ReduceFn::sum;
  Axes axes{};             // the reduced axes, sorted
  bool keep_axes = false;  // whether they stay as axes of size 1
};

struct ArgReduceAttrs {
  ArgReduceFn fn = ArgReduceFn::argmax;
  std::optional<std::int64_t> axis{};  // none: over all axes, the tensor flattened row-major
  bool keep_axes = false;
};

struct TransposeAttrs {
  Axes permutation{};  // output axis i is input axis permutation[i]
};

struct BroadcastAttrs {
  Axes axes{};  // input axis i becomes output axis axes[i]
};

struct SliceAttrs {
  Shape starts{}, strides{};  // per axis; empty strides mean 1 on every axis. The lengths are the output shape
};

struct PadAttrs {
  Shape low{}, high{}, interior{};  // per axis; negative low/high cut elements off
  double value = 0.0;               // of the padding, converted to the dtype as by cast
};

// concatenate, iota, take, take_along_axis: the one axis they work along.
struct AxisAttrs {
  std::int64_t axis = 0;
};

struct ReverseAttrs {
  Axes axes{};
};

struct DotAttrs {
  Axes contract_a{}, batch_a{}, contract_b{}, batch_b{};
  Precision precision = Precision::exact;  // fixed at the call (include/nxv/precision.hpp); exact for integers
};

struct FullAttrs {
  double value = 0.0;  // converted to the dtype as by cast
};

struct UniformAttrs {
  Key key{};
  double low = 0.0, high = 1.0;
};

struct NormalAttrs {
  Key key{};
  double mean = 0.0, stddev = 1.0;
};

struct ConvAttrs {
  Shape strides{}, pad_low{}, pad_high{}, input_dilation{}, kernel_dilation{};  // per spatial axis
  std::int64_t feature_groups = 1, batch_groups = 1;
  Precision precision = Precision::exact;  // fixed at the call, as dot's (include/nxv/conv.hpp)
};

// window_reduce, window_scatter: windows span every axis of x.
struct WindowAttrs {
  ReduceFn fn = ReduceFn::sum;  // window_reduce: sum, product, max, min; window_scatter: max, min
  Shape window{}, strides{}, pad_low{}, pad_high{}, window_dilation{};  // per axis
};

struct PutSliceAttrs {
  Shape starts{};
};

// sort, argsort
struct SortAttrs {
  std::int64_t axis = 0;
  bool descending = false;
};

struct CumulativeAttrs {
  ReduceFn fn = ReduceFn::sum;  // sum, product, max, min
  std::int64_t axis = 0;
  bool reverse = false;  // scan from the end of the axis
};

// op(a) is a or its transpose; only the `lower` (or upper) triangle of a is read, and with unit_diagonal not
// its diagonal either (taken as ones).
struct TriangularSolveAttrs {
  bool left_side = true;  // op(a) x = b; false: x op(a) = b
  bool lower = true;
  bool transpose_a = false;
  bool unit_diagonal = false;
};

struct FftAttrs {
  bool inverse = false;
};

struct QrAttrs {
  bool complete = false;  // Q square [m, m] and R [m, n]; reduced: Q [m, k], R [k, n], k = min(m, n)
};

using OpAttrs = std::variant<NoAttrs, UnaryAttrs, BinaryAttrs, ReduceAttrs, ArgReduceAttrs, TransposeAttrs,
                             BroadcastAttrs, SliceAttrs, PadAttrs, AxisAttrs, ReverseAttrs, DotAttrs, FullAttrs,
                             UniformAttrs, NormalAttrs, ConvAttrs, WindowAttrs, PutSliceAttrs, SortAttrs,
                             CumulativeAttrs, TriangularSolveAttrs, QrAttrs, FftAttrs>;

namespace detail {
template <class A, class... Ts>
constexpr std::size_t alternative_index(const std::variant<Ts...>*) {
  std::size_t i = 0;
  for (bool same : {std::is_same_v<A, Ts>...}) {
    if (same) return i;
    ++i;
  }
  return i;
}
}  // namespace detail

// The position of attribute struct A in OpAttrs.
template <class A>
inline constexpr std::size_t attrs_index = detail::alternative_index<A>(static_cast<const OpAttrs*>(nullptr));

// ---- The op table: each op's printed name and the attribute struct it takes ----
// (No `default:`, so -Wswitch names an OpCode added without a row.)

struct OpInfo {
  const char* name;
  std::size_t attrs;  // attrs_index of its struct
};

constexpr OpInfo op_info(OpCode code) {
  switch (code) {
    case OpCode::unary:
      return {"unary", attrs_index<UnaryAttrs>};
    case OpCode::unary_test:
      return {"unary_test", attrs_index<UnaryAttrs>};
    case OpCode::binary:
      return {"binary", attrs_index<BinaryAttrs>};
    case OpCode::binary_test:
      return {"binary_test", attrs_index<BinaryAttrs>};
    case OpCode::select:
      return {"select", attrs_index<NoAttrs>};
    case OpCode::clip:
      return {"clip", attrs_index<NoAttrs>};
    case OpCode::cast:
      return {"as_type", attrs_index<NoAttrs>};
    case OpCode::reduce:
      return {"reduce", attrs_index<ReduceAttrs>};
    case OpCode::arg_reduce:
      return {"arg_reduce", attrs_index<ArgReduceAttrs>};
    case OpCode::reshape:
      return {"reshape", attrs_index<NoAttrs>};
    case OpCode::transpose:
      return {"transpose", attrs_index<TransposeAttrs>};
    case OpCode::broadcast:
      return {"broadcast", attrs_index<BroadcastAttrs>};
    case OpCode::slice:
      return {"slice", attrs_index<SliceAttrs>};
    case OpCode::pad:
      return {"pad", attrs_index<PadAttrs>};
    case OpCode::concatenate:
      return {"concatenate", attrs_index<AxisAttrs>};
    case OpCode::reverse:
      return {"reverse", attrs_index<ReverseAttrs>};
    case OpCode::dot:
      return {"dot", attrs_index<DotAttrs>};
    case OpCode::iota:
      return {"iota", attrs_index<AxisAttrs>};
    case OpCode::eye:
      return {"eye", attrs_index<NoAttrs>};
    case OpCode::full:
      return {"full", attrs_index<FullAttrs>};
    case OpCode::random_uniform:
      return {"random_uniform", attrs_index<UniformAttrs>};
    case OpCode::random_normal:
      return {"random_normal", attrs_index<NormalAttrs>};
    case OpCode::conv:
      return {"conv", attrs_index<ConvAttrs>};
    case OpCode::window_reduce:
      return {"window_reduce", attrs_index<WindowAttrs>};
    case OpCode::window_scatter:
      return {"window_scatter", attrs_index<WindowAttrs>};
    case OpCode::take:
      return {"take", attrs_index<AxisAttrs>};
    case OpCode::take_along_axis:
      return {"take_along_axis", attrs_index<AxisAttrs>};
    case OpCode::gather:
      return {"gather", attrs_index<NoAttrs>};
    case OpCode::indexed_add:
      return {"indexed_add", attrs_index<NoAttrs>};
    case OpCode::indexed_put:
      return {"indexed_put", attrs_index<NoAttrs>};
    case OpCode::put_slice:
      return {"put_slice", attrs_index<PutSliceAttrs>};
    case OpCode::sort:
      return {"sort", attrs_index<SortAttrs>};
    case OpCode::argsort:
      return {"argsort", attrs_index<SortAttrs>};
    case OpCode::cumulative:
      return {"cumulative", attrs_index<CumulativeAttrs>};
    case OpCode::bitcast:
      return {"bitcast", attrs_index<NoAttrs>};
    case OpCode::real_view:
      return {"real_view", attrs_index<NoAttrs>};
    case OpCode::complex_view:
      return {"complex_view", attrs_index<NoAttrs>};
    case OpCode::cholesky:
      return {"cholesky", attrs_index<NoAttrs>};
    case OpCode::triangular_solve:
      return {"triangular_solve", attrs_index<TriangularSolveAttrs>};
    case OpCode::lu:
      return {"lu", attrs_index<NoAttrs>};
    case OpCode::qr:
      return {"qr", attrs_index<QrAttrs>};
    case OpCode::eigh:
      return {"eigh", attrs_index<NoAttrs>};
    case OpCode::svd:
      return {"svd", attrs_index<NoAttrs>};
    case OpCode::fft:
      return {"fft", attrs_index<FftAttrs>};
  }
  return {"?", attrs_index<NoAttrs>};
}

inline const char* op_name(OpCode code) { return op_info(code).name; }

struct OpCall;
// Throws the nxv::Error of attrs_as: `call` holds, or its op takes, another struct than the one at `wanted`.
[[noreturn]] void attrs_mismatch(const OpCall& call, std::size_t wanted);

struct OpCall {
  OpCode code;
  OpAttrs attrs;

  // The attributes as the struct op_info(code) names; throws nxv::Error naming the op when that struct is not
  // A, or the call holds another (either is a bug where the call was built or read).
  template <class A>
  const A& attrs_as() const {
    static_assert(attrs_index<A> < std::variant_size_v<OpAttrs>, "not an attribute struct of OpAttrs");
    const A* a = std::get_if<A>(&attrs);
    if (a == nullptr || op_info(code).attrs != attrs_index<A>) attrs_mismatch(*this, attrs_index<A>);
    return *a;
  }
};

// The op's name, or its function's for the ops that take one ("add", "sum", "argmax", "window_max",
// "cumulative_sum"): for errors, fallback counters and graph printing.
std::string describe(const OpCall& call);

}  // namespace nxv
