// Draws [chains, draws, ...params] to host f64 columns, and per-column statistics back to a tensor.
#include "mcmc/draws.hpp"

#include <span>

#include "nxv/backend.hpp"
#include "nxv/error.hpp"
#include "nxv/ops.hpp"

namespace nxv::mcmc::detail {

std::vector<Column> columns(const Tensor& draws, const char* op) {
  NXV_CHECK(draws.defined(), op, "got an undefined tensor; expected draws [chains, draws, ...params]");
  NXV_CHECK(draws.rank() >= 2, op, "got draws of shape ", to_string(draws.shape()),
            "; expected rank >= 2: [chains, draws, ...params]");
  NXV_CHECK(draws.dim(0) > 0 && draws.dim(1) > 0, op, "got draws of shape ", to_string(draws.shape()),
            "; expected at least one chain and one draw");
  NXV_CHECK(is_float(draws.dtype()) || is_integer(draws.dtype()), op, "got draws of dtype ", name(draws.dtype()),
            "; expected a real (float or integer) dtype");
  const std::int64_t chains = draws.dim(0), n = draws.dim(1);
  const std::int64_t params = draws.size() / (chains * n);
  const std::vector<double> flat = as_type(draws.to_host(), DType::f64).to_vector<double>();
  std::vector<Column> out(params);
  for (std::int64_t p = 0; p < params; ++p) {
    out[p].chains = chains;
    out[p].draws = n;
    out[p].x.resize(chains * n);
    for (std::int64_t i = 0; i < chains * n; ++i) out[p].x[i] = flat[i * params + p];
  }
  return out;
}

Tensor per_parameter(const Tensor& draws, const char* op, double (*stat)(const Column&)) {
  const std::vector<Column> cols = columns(draws, op);
  std::vector<double> values;
  values.reserve(cols.size());
  for (const Column& c : cols) values.push_back(stat(c));
  const Shape& shape = draws.shape();
  const Shape param_shape(shape.begin() + 2, shape.end());
  return from_data<double>(std::span<const double>(values), param_shape, reference_backend());
}

}  // namespace nxv::mcmc::detail
