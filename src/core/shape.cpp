#include "nxv/shape.hpp"

#include <sstream>

#include "core/checked_math.hpp"

namespace nxv {

// Zero dimensions are skipped in the overflow check (as NumPy does): the row-major strides of [0, 2^32, 2^32]
// would wrap as well.
std::int64_t checked_num_elements(const Shape& s, std::string_view op) {
  std::int64_t nonzero = 1;
  bool empty = false;
  for (std::int64_t d : s) {
    NXV_CHECK(d >= 0, op, "negative dimension in shape ", to_string(s));
    if (d == 0)
      empty = true;
    else
      nonzero = checked_mul(nonzero, d, op, "the element count of shape ", [&] { return to_string(s); });
  }
  return empty ? 0 : nonzero;
}

std::int64_t num_elements(const Shape& s) { return checked_num_elements(s, "num_elements"); }

std::string to_string(const Shape& s) {
  std::ostringstream out;
  out << '[';
  for (int i = 0; i < s.size(); ++i) out << (i ? ", " : "") << s[i];
  out << ']';
  return out.str();
}

Shape contiguous_strides(const Shape& s) {
  Shape strides = Shape::filled(s.size(), 1);
  for (int i = s.size() - 2; i >= 0; --i) strides[i] = strides[i + 1] * s[i + 1];
  return strides;
}

Shape broadcast_shapes(const Shape& a, const Shape& b, std::string_view op) {
  const int rank = std::max(a.size(), b.size());
  Shape out = Shape::filled(rank, 1);
  for (int i = 0; i < rank; ++i) {
    const int ia = a.size() - rank + i, ib = b.size() - rank + i;
    const std::int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    if (da != db && da != 1 && db != 1)
      detail::fail(op, ": shapes ", to_string(a), " and ", to_string(b), " cannot be broadcast together (axis ", i,
                   " of the result: ", da, " vs ", db, "; expected equal sizes or 1)");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

}  // namespace nxv
