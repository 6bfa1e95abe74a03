// Front end of dot (Nx's dot/6 and NumPy's dot).
#include "ops/apply.hpp"

namespace nxv {

Tensor dot(const Tensor& a, const Axes& contract_a, const Axes& batch_a, const Tensor& b, const Axes& contract_b,
           const Axes& batch_b, std::optional<Precision> precision) {
  check_defined(a, "dot");
  check_defined(b, "dot");
  const Tensor both[] = {a, b};
  NXV_CHECK(contract_a.size() == contract_b.size(), "dot", "contracting axes ", to_string(contract_a), " and ",
            to_string(contract_b), " differ in number, for ", shapes_of(both));
  NXV_CHECK(batch_a.size() == batch_b.size(), "dot", "batch axes ", to_string(batch_a), " and ", to_string(batch_b),
            " differ in number, for ", shapes_of(both));
  DotAttrs at;
  at.contract_a = normalize_axes(contract_a, a.rank(), "dot", false);
  at.contract_b = normalize_axes(contract_b, b.rank(), "dot", false);
  at.batch_a = normalize_axes(batch_a, a.rank(), "dot", false);
  at.batch_b = normalize_axes(batch_b, b.rank(), "dot", false);
  for (std::int64_t x : at.batch_a)
    NXV_CHECK(!at.contract_a.contains(x), "dot", "axis ", x,
              " of the first operand is both a batch and a contracting axis");
  for (std::int64_t x : at.batch_b)
    NXV_CHECK(!at.contract_b.contains(x), "dot", "axis ", x,
              " of the second operand is both a batch and a contracting axis");
  for (int i = 0; i < at.contract_a.size(); ++i) {
    const std::int64_t da = a.shape()[static_cast<int>(at.contract_a[i])],
                       db = b.shape()[static_cast<int>(at.contract_b[i])];
    NXV_CHECK(da == db, "dot", "contracting axis ", at.contract_a[i], " of ", to_string(a.type()), " has size ", da,
              " but axis ", at.contract_b[i], " of ", to_string(b.type()), " has size ", db, " (expected equal sizes)");
  }
  Shape out;
  for (int i = 0; i < at.batch_a.size(); ++i) {
    const std::int64_t da = a.shape()[static_cast<int>(at.batch_a[i])], db = b.shape()[static_cast<int>(at.batch_b[i])];
    NXV_CHECK(da == db, "dot", "batch axis ", at.batch_a[i], " of ", to_string(a.type()), " has size ", da,
              " but axis ", at.batch_b[i], " of ", to_string(b.type()), " has size ", db, " (expected equal sizes)");
    out.push_back(da);
  }
  for (int i = 0; i < a.rank(); ++i)
    if (!at.contract_a.contains(i) && !at.batch_a.contains(i)) out.push_back(a.shape()[i]);
  for (int i = 0; i < b.rank(); ++i)
    if (!at.contract_b.contains(i) && !at.batch_b.contains(i)) out.push_back(b.shape()[i]);
  DType dtype = promote(a.dtype(), b.dtype());
  if (dtype == DType::pred) dtype = DType::u8;
  // Integer sums are exact whichever mode is asked for; one mode for them keeps one kernel and one cache entry.
  at.precision = is_float(dtype) || is_complex(dtype) ? precision.value_or(current_precision()) : Precision::exact;
  const Tensor ca = a.dtype() == dtype ? a : as_type(a, dtype);
  const Tensor cb = b.dtype() == dtype ? b : as_type(b, dtype);
  return apply(OpCall{OpCode::dot, at}, {ca, cb}, {out, dtype});
}

Tensor dot(const Tensor& a, const Tensor& b, std::optional<Precision> precision) {
  check_defined(a, "dot");
  check_defined(b, "dot");
  NXV_CHECK(a.rank() >= 1 && b.rank() >= 1, "dot", "expected tensors of rank >= 1, got ", to_string(a.type()), " and ",
            to_string(b.type()), " (use multiply for scalars)");
  const std::int64_t cb = b.rank() >= 2 ? b.rank() - 2 : 0;
  return dot(a, {a.rank() - 1}, {}, b, {cb}, {}, precision);
}

}  // namespace nxv
