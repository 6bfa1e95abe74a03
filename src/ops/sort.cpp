// Front end of sort, argsort, the cumulative scans and top_k (semantics in include/nxv/indexing.hpp).
#include "nxv/indexing.hpp"
#include "ops/apply.hpp"

namespace nxv {

namespace {

Tensor sort_call(OpCode code, const Tensor& x, int axis, bool descending, std::string_view op) {
  check_defined(x, op);
  NXV_CHECK(x.rank() >= 1, op, "cannot sort the rank-0 tensor ", to_string(x.type()));
  const OpCall call{code, SortAttrs{normalize_axis(axis, x.rank(), op), descending}};
  return apply(call, {x}, {x.shape(), code == OpCode::argsort ? DType::s64 : x.dtype()});
}

Tensor cumulative(ReduceFn fn, const Tensor& x, int axis, bool reverse, std::string_view op) {
  check_defined(x, op);
  NXV_CHECK(x.rank() >= 1, op, "needs a tensor of rank >= 1, got ", to_string(x.type()));
  NXV_CHECK(x.dtype() != DType::pred, op, "is not defined for pred tensors (convert with as_type first), got ",
            to_string(x.type()));
  const OpCall call{OpCode::cumulative, CumulativeAttrs{fn, normalize_axis(axis, x.rank(), op), reverse}};
  return apply(call, {x}, x.type());
}

}  // namespace

Tensor sort(const Tensor& x, int axis, bool descending) { return sort_call(OpCode::sort, x, axis, descending, "sort"); }

Tensor argsort(const Tensor& x, int axis, bool descending) {
  return sort_call(OpCode::argsort, x, axis, descending, "argsort");
}

Tensor cumulative_sum(const Tensor& x, int axis, bool reverse) {
  return cumulative(ReduceFn::sum, x, axis, reverse, "cumulative_sum");
}
Tensor cumulative_product(const Tensor& x, int axis, bool reverse) {
  return cumulative(ReduceFn::product, x, axis, reverse, "cumulative_product");
}
Tensor cumulative_max(const Tensor& x, int axis, bool reverse) {
  return cumulative(ReduceFn::max, x, axis, reverse, "cumulative_max");
}
Tensor cumulative_min(const Tensor& x, int axis, bool reverse) {
  return cumulative(ReduceFn::min, x, axis, reverse, "cumulative_min");
}

// A composition: the stable descending argsort puts the larger values (and NaNs) first and, among equal
// values, the lower position first.
TopK top_k(const Tensor& x, std::int64_t k) {
  check_defined(x, "top_k");
  NXV_CHECK(x.rank() >= 1, "top_k", "needs a tensor of rank >= 1, got ", to_string(x.type()));
  const std::int64_t n = x.shape().back();
  NXV_CHECK(k >= 0 && k <= n, "top_k", "k = ", k, " is out of range for ", to_string(x.type()),
            " (expected 0 <= k <= ", n, ")");
  Shape lengths = x.shape();
  lengths.back() = k;
  const Tensor indices = slice(argsort(x, -1, /*descending=*/true), Shape::filled(x.rank(), 0), lengths);
  return {take_along_axis(x, indices, -1), indices};
}

}  // namespace nxv
