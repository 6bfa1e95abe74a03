// Helpers of the nn tests: f64 tensors on the reference backend and element-wise comparisons.
#pragma once
#include <vector>

#include <gtest/gtest.h>

#include "nxv/grad.hpp"
#include "nxv/nn.hpp"

namespace nxv::nn_test {

inline Tensor f64(std::vector<double> v, const Shape& shape) { return tensor(v, shape, reference_backend()); }
inline Tensor f64(std::vector<double> v) {
  const Shape shape{static_cast<std::int64_t>(v.size())};
  return tensor(v, shape, reference_backend());
}
inline std::vector<double> values(const Tensor& t) { return as_type(t, DType::f64).to_host().to_vector<double>(); }

inline void expect_near(const Tensor& got, const std::vector<double>& want, double tol = 1e-12) {
  const std::vector<double> g = values(got);
  ASSERT_EQ(g.size(), want.size()) << "shape " << to_string(got.shape());
  for (std::size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], want[i], tol) << "element " << i;
}

}  // namespace nxv::nn_test
