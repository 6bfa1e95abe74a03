// The op set of nx_vulkan: creation, elementwise, reductions, movement and dot, following Nx's semantics.
// Every function validates its arguments and throws nxv::Error naming the op, what it got and what it expected.
// Binary ops promote dtypes (nxv::promote) and broadcast shapes by NumPy's rules; a C++ number on either side
// is a weak scalar that takes the tensor's dtype.
#pragma once
#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "nxv/backend.hpp"
#include "nxv/precision.hpp"
#include "nxv/tensor.hpp"

namespace nxv {

// A C++ number used as an operand: weakly typed (x * 2.0 keeps an f32 x f32; an integer literal keeps an
// integer tensor's dtype; a float literal with an integer tensor gives f32).
struct Scalar {
  double value;
  bool is_float;
  Scalar(double v) : value(v), is_float(true) {}
  Scalar(float v) : value(v), is_float(true) {}
  Scalar(int v) : value(v), is_float(false) {}
  Scalar(long v) : value(static_cast<double>(v)), is_float(false) {}
  Scalar(long long v) : value(static_cast<double>(v)), is_float(false) {}
};

// ---- creation -------------------------------------------------------------------------------------------
Tensor from_bytes(std::span<const std::byte> bytes, const TensorType& type, Backend& backend = default_backend());
template <class T>
Tensor from_data(std::span<const T> data, const Shape& shape, Backend& backend = default_backend());
template <class T>
Tensor tensor(std::initializer_list<T> data, const Shape& shape, Backend& backend = default_backend()) {
  return from_data<T>(std::span<const T>(data.begin(), data.size()), shape, backend);
}
template <class T>
Tensor tensor(const std::vector<T>& data, const Shape& shape, Backend& backend = default_backend()) {
  if constexpr (std::is_same_v<T, bool>) {
    std::vector<std::uint8_t> bytes(data.begin(), data.end());
    return from_bytes(std::as_bytes(std::span<const std::uint8_t>(bytes)), {shape, DType::pred}, backend);
  } else {
    return from_data<T>(std::span<const T>(data), shape, backend);
  }
}
// A rank-0 tensor of `dtype` holding `value` (converted as by as_type).
Tensor scalar(double value, DType dtype = DType::f32, Backend& backend = default_backend());
// A weak rank-0 tensor: its dtype (f32 or s64 here) adapts to the tensor it meets in a binary op.
Tensor weak_scalar(Scalar value, Backend& backend = default_backend());

Tensor full(const Shape& shape, double value, DType dtype = DType::f32, Backend& backend = default_backend());
Tensor zeros(const Shape& shape, DType dtype = DType::f32, Backend& backend = default_backend());
Tensor ones(const Shape& shape, DType dtype = DType::f32, Backend& backend = default_backend());
// Counts 0, 1, 2, ... along `axis`, constant along the others; with no axis (std::nullopt), counts every element
// in row-major order (Nx.iota without :axis).
Tensor iota(const Shape& shape, std::optional<int> axis = 0, DType dtype = DType::s64,
            Backend& backend = default_backend());
// An n×m identity matrix (m = n by default).
Tensor eye(std::int64_t n, std::int64_t m = -1, DType dtype = DType::f32, Backend& backend = default_backend());
// Batched identities (Nx.eye of a shape): shape [..., n, m], rank >= 2, each trailing n×m matrix an identity.
Tensor eye(const Shape& shape, DType dtype = DType::f32, Backend& backend = default_backend());

// ---- counter-based random numbers (Philox-4x32-10) ---------------------------------------------------------
// Values depend only on (key, shape, dtype) and are bit-identical on every backend.
struct Key {
  std::uint32_t k0 = 0, k1 = 0;
  friend bool operator==(const Key&, const Key&) = default;
};
Key key(std::uint64_t seed);
// Two independent keys derived from `k` (a Philox block of k at a reserved counter).
std::array<Key, 2> split(Key k);
// Uniform in [low, high) (floats only).
Tensor uniform(Key k, const Shape& shape, DType dtype = DType::f32, double low = 0.0, double high = 1.0,
               Backend& backend = default_backend());
// Normal with the given mean and standard deviation (Box–Muller, floats only).
Tensor normal(Key k, const Shape& shape, DType dtype = DType::f32, double mean = 0.0, double stddev = 1.0,
              Backend& backend = default_backend());

// ---- elementwise -----------------------------------------------------------------------------------------
#define NXV_DECLARE_BINARY(fn)                 \
  Tensor fn(const Tensor& a, const Tensor& b); \
  Tensor fn(const Tensor& a, Scalar b);        \
  Tensor fn(Scalar a, const Tensor& b);
NXV_DECLARE_BINARY(add)
NXV_DECLARE_BINARY(subtract)
NXV_DECLARE_BINARY(multiply)
NXV_DECLARE_BINARY(divide)  // true division: integers give f32
NXV_DECLARE_BINARY(pow)     // integer pow on integers (negative exponents give 0 unless the base is ±1)
NXV_DECLARE_BINARY(max)     // NaN-propagating
NXV_DECLARE_BINARY(min)
NXV_DECLARE_BINARY(remainder)  // sign of the dividend (C fmod / %); x rem 0 = x for integers
NXV_DECLARE_BINARY(quotient)   // integer division truncating toward zero; x quot 0 = -1 (all bits set)
NXV_DECLARE_BINARY(atan2)
NXV_DECLARE_BINARY(bitwise_and)
NXV_DECLARE_BINARY(bitwise_or)
NXV_DECLARE_BINARY(bitwise_xor)
NXV_DECLARE_BINARY(left_shift)   // shifts by >= the bit width give 0
NXV_DECLARE_BINARY(right_shift)  // arithmetic on signed types, logical on u8
NXV_DECLARE_BINARY(equal)        // comparisons and logical ops give pred
NXV_DECLARE_BINARY(not_equal)
NXV_DECLARE_BINARY(less)
NXV_DECLARE_BINARY(less_equal)
NXV_DECLARE_BINARY(greater)
NXV_DECLARE_BINARY(greater_equal)
NXV_DECLARE_BINARY(logical_and)
NXV_DECLARE_BINARY(logical_or)
NXV_DECLARE_BINARY(logical_xor)
NXV_DECLARE_BINARY(xlogy)    // a log(b), 0 where a == 0 unless b is NaN (scipy's xlogy); float-valued
NXV_DECLARE_BINARY(xlog1py)  // a log1p(b), likewise
#undef NXV_DECLARE_BINARY

Tensor negate(const Tensor& x);
Tensor abs(const Tensor& x);
Tensor sign(const Tensor& x);
Tensor floor(const Tensor& x);
Tensor ceil(const Tensor& x);
Tensor round(const Tensor& x);  // half away from zero
Tensor square(const Tensor& x);
Tensor bitwise_not(const Tensor& x);
Tensor population_count(const Tensor& x);     // set bits of each element, over its dtype's width
Tensor count_leading_zeros(const Tensor& x);  // over the dtype's width: 8 for a u8 zero, 64 for an s64 zero
Tensor logical_not(const Tensor& x);
Tensor is_nan(const Tensor& x);
Tensor is_infinity(const Tensor& x);
// Float-valued (integers are converted to f32 first):
Tensor exp(const Tensor& x);
Tensor expm1(const Tensor& x);
Tensor log(const Tensor& x);
Tensor log1p(const Tensor& x);
Tensor sqrt(const Tensor& x);
Tensor rsqrt(const Tensor& x);
Tensor sigmoid(const Tensor& x);
Tensor tanh(const Tensor& x);
Tensor sin(const Tensor& x);
Tensor cos(const Tensor& x);
Tensor erf(const Tensor& x);
Tensor reciprocal(const Tensor& x);
Tensor softplus(const Tensor& x);  // log(1 + exp(x)), never overflowing; f64 within 2 ulp
Tensor asin(const Tensor& x);
Tensor acos(const Tensor& x);
Tensor atan(const Tensor& x);
Tensor erfc(const Tensor& x);         // 1 - erf(x), accurate where erf(x) is near 1
Tensor log_sigmoid(const Tensor& x);  // -softplus(-x); f64 within 2 ulp
Tensor tan(const Tensor& x);          // f64 < 1 ulp
Tensor sinh(const Tensor& x);         // f64 < 1 ulp
Tensor cosh(const Tensor& x);         // f64 < 1 ulp
Tensor asinh(const Tensor& x);        // f64 within 1 ulp of glibc (fdlibm's algorithm, <= 1.6 ulp)
Tensor acosh(const Tensor& x);        // NaN below 1; f64 within 1 ulp of glibc (fdlibm's algorithm, <= 2.1 ulp)
Tensor atanh(const Tensor& x);        // +-inf at +-1, NaN beyond; f64 within 1 ulp of glibc (fdlibm's, <= 1.7 ulp)
Tensor cbrt(const Tensor& x);         // f64 < 0.667 ulp
Tensor erf_inv(const Tensor& x);      // the inverse of erf on [-1, 1]: +-inf at +-1, NaN outside; f64 < 1 ulp
Tensor lgamma(const Tensor& x);       // log|Gamma(x)|, +inf at 0 and the negative integers; f64 within 1 ulp of
                                      // glibc for x > 0 (shared/math_special.glsl.h states the bound for x < 0)
Tensor digamma(const Tensor& x);      // d lgamma / dx; NaN at 0 and the negative integers (as JAX); f64 < 1 ulp, x > 0
Tensor trigamma(const Tensor& x);     // d digamma / dx (polygamma(1, x)); +inf at 0 and the negative integers

// pred ? on_true : on_false, broadcast together; the result dtype promotes on_true and on_false.
Tensor select(const Tensor& pred, const Tensor& on_true, const Tensor& on_false);
Tensor clip(const Tensor& x, const Tensor& low, const Tensor& high);
Tensor clip(const Tensor& x, Scalar low, Scalar high);
// Conversion: float→int truncates toward zero (NaN→0, out of range saturates); anything→pred is x != 0.
Tensor as_type(const Tensor& x, DType dtype);
// Nx.bitcast: x's bits read as `dtype`, which must have the same bit width (s32 <-> f32, s64 <-> f64; pred is no
// bit pattern and is refused). A view: no element is converted or copied. Its gradient is zero (the result of
// reinterpreting an integer carries no derivative; an integer result stops the backward pass).
Tensor bitcast(const Tensor& x, DType dtype);

// ---- complex numbers (c64: pairs of f32, c128: pairs of f64) -------------------------------------------------
// Every op here and above that has a complex form takes complex tensors: arithmetic (add, subtract, multiply,
// divide, pow, negate, square, reciprocal), abs (a real result), sign, exp, log, sqrt, rsqrt, sin, cos, equal,
// not_equal, the logical ops, is_nan, is_infinity, select, as_type, sum, product, mean, cumulative_sum, dot,
// matmul and every movement and indexing op; the others (ordering, max/min, rounding, conv, linalg) refuse them
// naming the op. A real operand is promoted (c64 with f64 gives c128). Gradients are those of the real and
// imaginary parts: for a real-valued loss L(z), dL/dz = dL/dRe z + i dL/dIm z (PyTorch's convention).
// Complex from its parts (real tensors; broadcast, promoted to f32 or f64).
Tensor complex(const Tensor& re, const Tensor& im);
// The parts of z: a real tensor of z's shape (of a real z: z itself, and zeros).
Tensor real(const Tensor& z);
Tensor imag(const Tensor& z);
Tensor conjugate(const Tensor& z);  // a real z is its own conjugate
Tensor phase(const Tensor& z);      // the angle atan2(Im z, Re z), in (-pi, pi]; of a real x: 0 or pi
// z's (real, imaginary) pairs along a new last axis: c64 [s...] -> f32 [s..., 2] (c128 -> f64), and back
// (the last axis must be 2). Views: no element is copied.
Tensor real_view(const Tensor& z);
Tensor complex_view(const Tensor& pairs);

Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator+(const Tensor& a, Scalar b);
Tensor operator-(const Tensor& a, Scalar b);
Tensor operator*(const Tensor& a, Scalar b);
Tensor operator/(const Tensor& a, Scalar b);
Tensor operator+(Scalar a, const Tensor& b);
Tensor operator-(Scalar a, const Tensor& b);
Tensor operator*(Scalar a, const Tensor& b);
Tensor operator/(Scalar a, const Tensor& b);
Tensor operator-(const Tensor& x);

// ---- reductions (axes: nullopt = all axes) ---------------------------------------------------------------
using OptAxes = std::optional<Axes>;
// Integer sums and products are s64 (u64 for unsigned inputs), as in Nx.
Tensor sum(const Tensor& x, const OptAxes& axes = std::nullopt, bool keep_axes = false);
Tensor product(const Tensor& x, const OptAxes& axes = std::nullopt, bool keep_axes = false);
Tensor reduce_max(const Tensor& x, const OptAxes& axes = std::nullopt, bool keep_axes = false);
Tensor reduce_min(const Tensor& x, const OptAxes& axes = std::nullopt, bool keep_axes = false);
Tensor all(const Tensor& x, const OptAxes& axes = std::nullopt, bool keep_axes = false);
Tensor any(const Tensor& x, const OptAxes& axes = std::nullopt, bool keep_axes = false);
Tensor mean(const Tensor& x, const OptAxes& axes = std::nullopt, bool keep_axes = false);
// Index (s64) of the first maximum / minimum (the last with TieBreak::high, Nx's tie_break: :high); NaN counts as
// larger than any number (the first NaN wins, or the last with TieBreak::high). axis: nullopt = over the flattened
// tensor.
enum class TieBreak { low, high };
Tensor argmax(const Tensor& x, std::optional<int> axis = std::nullopt, bool keep_axis = false,
              TieBreak tie_break = TieBreak::low);
Tensor argmin(const Tensor& x, std::optional<int> axis = std::nullopt, bool keep_axis = false,
              TieBreak tie_break = TieBreak::low);

// ---- movement --------------------------------------------------------------------------------------------
Tensor reshape(const Tensor& x, const Shape& shape);                  // one dimension may be -1; a view
Tensor squeeze(const Tensor& x, const OptAxes& axes = std::nullopt);  // a view
Tensor expand_dims(const Tensor& x, int axis);                        // a view
Tensor flatten(const Tensor& x);                                      // a view
// axes: nullopt = reverse the axes.
Tensor transpose(const Tensor& x, const OptAxes& perm = std::nullopt);
// x's axis i becomes axis axes[i] of the result (default: the trailing axes, as NumPy).
Tensor broadcast(const Tensor& x, const Shape& shape, const OptAxes& axes = std::nullopt);
// Nx's slice: elements starts[i], starts[i]+strides[i], ... `lengths[i]` of them along each axis.
Tensor slice(const Tensor& x, const Shape& starts, const Shape& lengths, const OptAxes& strides = std::nullopt);
struct PadConfig {
  std::int64_t low = 0, high = 0, interior = 0;  // low/high may be negative (they cut)
};
Tensor pad(const Tensor& x, double value, const std::vector<PadConfig>& config);
Tensor concatenate(const std::vector<Tensor>& xs, int axis = 0);
Tensor reverse(const Tensor& x, const OptAxes& axes = std::nullopt);

// ---- dot ---------------------------------------------------------------------------------------------------
// Nx's dot/6: contracts a's `contract_a` axes with b's `contract_b` axes, batching over `batch_a`/`batch_b`.
// The result's axes: batch axes, then a's free axes, then b's free axes. `precision`: exact or fast
// (include/nxv/precision.hpp); unset, the thread's current_precision().
Tensor dot(const Tensor& a, const Axes& contract_a, const Axes& batch_a, const Tensor& b, const Axes& contract_b,
           const Axes& batch_b, std::optional<Precision> precision = std::nullopt);
// NumPy's dot: the last axis of a with the second-to-last of b (the only one if b is a vector).
Tensor dot(const Tensor& a, const Tensor& b, std::optional<Precision> precision = std::nullopt);

// ---- composites (built from the ops above, so they run on every backend, differentiate and fuse) ----------
// Integer and pred inputs are converted to f32 first, as by mean.
// log(sum(exp(x))) over `axes`, shifted by the max so it cannot overflow: a row of only -inf (or an empty one)
// gives -inf, any +inf gives +inf, any NaN gives NaN. Its gradient is softmax(x) (0 on a row of only -inf).
Tensor logsumexp(const Tensor& x, const OptAxes& axes = std::nullopt, bool keep_axes = false);
// Nx.variance: sum((x - mean)^2) / (count - ddof) over `axes`; ddof >= 0 (count <= ddof gives inf or NaN).
Tensor variance(const Tensor& x, const OptAxes& axes = std::nullopt, std::int64_t ddof = 0, bool keep_axes = false);
// Nx.standard_deviation: sqrt(variance(x, axes, ddof, keep_axes)).
Tensor standard_deviation(const Tensor& x, const OptAxes& axes = std::nullopt, std::int64_t ddof = 0,
                          bool keep_axes = false);
// Nx.covariance: x of shape [..., n, d] (n observations of d variables) gives [..., d, d], the centred products
// summed over the observations and divided by n - ddof.
Tensor covariance(const Tensor& x, std::int64_t ddof = 0);
// Nx.all_close: a rank-0 pred, whether |a - b| <= atol + rtol |b| everywhere (a and b broadcast, compared in
// the float type of their promoted dtype). NaN is close to nothing unless equal_nan (then to NaN); an infinity
// only to the same infinity.
Tensor all_close(const Tensor& a, const Tensor& b, double rtol = 1e-5, double atol = 1e-8, bool equal_nan = false);
// Nx.stack: tensors of one shape joined along a new axis `axis` (in [-(rank + 1), rank]); dtypes promote.
Tensor stack(const std::vector<Tensor>& xs, int axis = 0);
// NumPy's matmul over the last two axes: a [..., n, k] @ b [..., k, m] -> [..., n, m], both of rank >= 2, the
// batch axes broadcast (NumPy rules); one dot with batch axes (`precision` as dot's).
Tensor matmul(const Tensor& a, const Tensor& b, std::optional<Precision> precision = std::nullopt);
// The last two axes swapped (NumPy's matrix_transpose, PyTorch's .mT); rank >= 2.
Tensor matrix_transpose(const Tensor& x);
// Nx.tril / Nx.triu over the last two axes (rank >= 2): the elements on and below (tril) or on and above (triu)
// diagonal k (0 the main one, k > 0 above it), zeros elsewhere (by select, so an infinity or NaN outside does not
// leak in).
Tensor tril(const Tensor& x, std::int64_t k = 0);
Tensor triu(const Tensor& x, std::int64_t k = 0);
// Nx.take_diagonal over the last two axes: [..., min(n, m)], element i being x[..., i, i].
Tensor take_diagonal(const Tensor& x);

}  // namespace nxv

#include "nxv/conv.hpp"      // conv, window_sum/product/max/min/mean, window_scatter_max/min
#include "nxv/indexing.hpp"  // take, gather, indexed_add/put, put_slice, sort, cumulative_*, top_k
