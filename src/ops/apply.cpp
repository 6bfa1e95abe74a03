#include "ops/apply.hpp"

#include <algorithm>
#include <limits>
#include <sstream>

#include "core/checked_math.hpp"
#include "ops/complex_lowering.hpp"
#include "trace/tracer.hpp"

namespace nxv {

void check_defined(const Tensor& t, std::string_view op) {
  NXV_CHECK(t.defined(), op, "got an undefined (default-constructed) tensor");
}

std::string shapes_of(std::span<const Tensor> ts) {
  std::ostringstream s;
  for (std::size_t i = 0; i < ts.size(); ++i)
    s << (i ? ", " : "") << (ts[i].defined() ? to_string(ts[i].type()) : std::string("undefined"));
  return s.str();
}

int normalize_axis(std::int64_t axis, int rank, std::string_view op) {
  NXV_CHECK(axis >= -rank && axis < std::max(rank, 0), op, "axis ", axis, " is out of range for a tensor of rank ",
            rank, " (expected ", -rank, " <= axis < ", rank, ")");
  return static_cast<int>(axis < 0 ? axis + rank : axis);
}

Axes normalize_axes(const Axes& axes, int rank, std::string_view op, bool sort) {
  Axes out;
  for (std::int64_t a : axes) {
    const int n = normalize_axis(a, rank, op);
    NXV_CHECK(!out.contains(n), op, "axis ", a, " is repeated in ", to_string(axes));
    out.push_back(n);
  }
  if (sort) std::sort(out.begin(), out.end());
  return out;
}

std::int64_t padded_size(std::int64_t size, std::int64_t low, std::int64_t high, std::string_view op, int axis) {
  NXV_CHECK(low != std::numeric_limits<std::int64_t>::min(), op, "low padding ", low, " of axis ", axis,
            " cannot be negated in int64 (expected a larger value)");
  checked_add(size, high, op, "the high padding of axis ", axis);
  return checked_add(checked_add(size, low, op, "the low padding of axis ", axis), high, op, "the padding of axis ",
                     axis);
}

namespace {
// Every tensor is made here, so a result whose size or byte size passes int64 is refused here, once for every
// op and backend, before a backend sizes a buffer by a wrapped count.
// The op's description (a string) is made only when the result is refused: this runs on every op.
void check_result(const OpCall& call, const TensorType& out) {
  NXV_CHECK(out.shape.size() <= kMaxRank, describe(call), "result rank ", out.shape.size(), " exceeds ", kMaxRank);
  std::int64_t count = 1, bytes = 0;
  bool fits = true;
  for (std::int64_t d : out.shape) fits = fits && d >= 0 && (d == 0 || !__builtin_mul_overflow(count, d, &count));
  fits = fits && !__builtin_mul_overflow(count, static_cast<std::int64_t>(size_of(out.dtype)), &bytes);
  if (fits) return;
  const std::string op = describe(call);
  checked_bytes(checked_num_elements(out.shape, op), size_of(out.dtype), op);
}
}  // namespace

Tensor apply(const OpCall& call, std::span<const Tensor> inputs, const TensorType& out) {
  for (const Tensor& t : inputs) check_defined(t, op_name(call.code));
  check_result(call, out);
  // Complex tensors become real ones here, before tracing, so that traces, kernels and gradient rules are real.
  if (call.code != OpCode::real_view && call.code != OpCode::complex_view && involves_complex(inputs, out))
    return lower_complex(call, inputs, out);
  // Tracing: a call with a traced input is recorded by the innermost trace among its inputs, which captures
  // the other inputs as constants; so concrete and traced tensors mix, and traces nest (src/trace/tracer.hpp).
  if (Tracer* tracer = innermost_tracer(inputs)) return tracer->record(call, inputs, out);
  Backend* backend = nullptr;
  for (const Tensor& t : inputs) {
    if (!backend) backend = &t.backend();
    NXV_CHECK(&t.backend() == backend, describe(call), "inputs live on different backends (", backend->name(), " and ",
              t.backend().name(), "); move them to one with Tensor::to()");
  }
  NXV_CHECK(backend != nullptr, describe(call), "needs at least one input");
  return Tensor(out, *backend, backend->execute(call, inputs, out));
}

Tensor apply(const OpCall& call, std::initializer_list<Tensor> inputs, const TensorType& out) {
  return apply(call, std::span<const Tensor>(inputs.begin(), inputs.size()), out);
}

Tensor apply_on(Backend& backend, const OpCall& call, const TensorType& out) {
  check_result(call, out);
  if (is_complex(out.dtype)) return lower_complex_creation(backend, call, out);
  return Tensor(out, backend, backend.execute(call, {}, out));
}

}  // namespace nxv
