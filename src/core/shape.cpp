#include "nxv/shape.hpp"

#include <sstream>

namespace nxv {

std::int64_t num_elements(const Shape& s) {
  std::int64_t n = 1;
  for (std::int64_t d : s) n *= d;
  return n;
}

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
