// Nx.LinAlg.norm: vector and matrix norms from abs, sums and maxima (include/nxv/linalg.hpp).
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "nxv/linalg.hpp"
#include "ops/apply.hpp"

namespace nxv::linalg {

namespace {

constexpr std::string_view kOp = "norm";

Tensor drop_axes(const Tensor& x, const Axes& axes, bool keep) { return keep ? x : squeeze(x, axes); }

Tensor vector_norm(const Tensor& x, const std::string& ord, std::int64_t axis, bool keep) {
  const Axes axes{axis};
  if (ord.empty() || ord == "2") return sqrt(sum(x * x, axes, keep));
  if (ord == "1") return sum(abs(x), axes, keep);
  if (ord == "inf") return reduce_max(abs(x), axes, keep);
  if (ord == "-inf") return reduce_min(abs(x), axes, keep);
  if (ord == "0") return sum(as_type(not_equal(x, zeros({}, x.dtype(), x.backend())), x.dtype()), axes, keep);
  char* end = nullptr;
  errno = 0;
  const double p = std::strtod(ord.c_str(), &end);
  NXV_CHECK(end != ord.c_str() && *end == '\0' && errno == 0 && std::isfinite(p) && p != 0.0, kOp, "ord \"", ord,
            "\" is not a vector norm (expected 2, 1, inf, -inf, 0 or another finite number)");
  return pow(sum(pow(abs(x), p), axes, keep), 1.0 / p);
}

// rows, columns: the two matrix axes. Column sums reduce the rows axis; row sums reduce the columns axis.
Tensor matrix_norm(const Tensor& x, const std::string& ord, std::int64_t rows, std::int64_t columns, bool keep) {
  const Axes both = rows < columns ? Axes{rows, columns} : Axes{columns, rows};
  if (ord.empty() || ord == "fro") return sqrt(sum(x * x, both, keep));
  const bool by_columns = ord == "1" || ord == "-1", largest = ord == "1" || ord == "inf";
  if (by_columns || ord == "inf" || ord == "-inf") {
    const Tensor sums = sum(abs(x), Axes{by_columns ? rows : columns}, true);
    const Axes other{by_columns ? columns : rows};
    return drop_axes(largest ? reduce_max(sums, other, true) : reduce_min(sums, other, true), both, keep);
  }
  NXV_CHECK(ord == "2" || ord == "-2" || ord == "nuc", kOp, "ord \"", ord,
            "\" is not a matrix norm (expected fro, 1, -1, inf, -inf, 2, -2 or nuc)");
  // The singular values of the matrices in (rows, columns), those two axes moved last.
  Axes perm;
  for (int d = 0; d < x.rank(); ++d)
    if (d != rows && d != columns) perm.push_back(d);
  perm.push_back(rows);
  perm.push_back(columns);
  const Tensor s = svd(transpose(x, perm)).s;  // [..., k], the other axes in order
  const Axes last{s.rank() - 1};
  Tensor value = ord == "2" ? reduce_max(s, last) : ord == "-2" ? reduce_min(s, last) : sum(s, last);
  if (keep) {
    value = expand_dims(value, static_cast<int>(std::min(rows, columns)));
    value = expand_dims(value, static_cast<int>(std::max(rows, columns)));
  }
  return value;
}

}  // namespace

Tensor norm(const Tensor& x, const NormOptions& options) {
  check_defined(x, kOp);
  NXV_CHECK(x.dtype() != DType::pred, kOp, "is not defined for pred tensors, got ", to_string(x.type()));
  const Tensor xf = x.dtype() == float_type(x.dtype()) ? x : as_type(x, float_type(x.dtype()));
  Axes axes;
  if (options.axes) {
    axes = normalize_axes(*options.axes, x.rank(), kOp, /*sort=*/false);
  } else {
    NXV_CHECK(x.rank() == 1 || x.rank() == 2, kOp, "without axes needs a vector or a matrix, got ", to_string(x.type()),
              " (pass axes for a batch)");
    for (int d = 0; d < x.rank(); ++d) axes.push_back(d);
  }
  NXV_CHECK(axes.size() == 1 || axes.size() == 2, kOp, "takes one axis (a vector norm) or two (a matrix norm), got ",
            to_string(axes));
  return axes.size() == 1 ? vector_norm(xf, options.ord, axes[0], options.keep_axes)
                          : matrix_norm(xf, options.ord, axes[0], axes[1], options.keep_axes);
}

}  // namespace nxv::linalg
