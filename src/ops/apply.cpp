#include "ops/apply.hpp"

#include <algorithm>
#include <sstream>

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

Tensor apply(const OpCall& call, std::span<const Tensor> inputs, const TensorType& out) {
  for (const Tensor& t : inputs) check_defined(t, op_name(call.code));
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
  NXV_CHECK(out.shape.size() <= kMaxRank, describe(call), "result rank ", out.shape.size(), " exceeds ", kMaxRank);
  return Tensor(out, *backend, backend->execute(call, inputs, out));
}

Tensor apply(const OpCall& call, std::initializer_list<Tensor> inputs, const TensorType& out) {
  return apply(call, std::span<const Tensor>(inputs.begin(), inputs.size()), out);
}

Tensor apply_on(Backend& backend, const OpCall& call, const TensorType& out) {
  return Tensor(out, backend, backend.execute(call, {}, out));
}

}  // namespace nxv
