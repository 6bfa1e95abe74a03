// Gradient oracles for tests: finite differences and backend parity.
//
// check_grads(fn, inputs): the reference-backend gradient of L(xs) = sum(fn(xs) * w) (w a fixed random
// weighting, so every output element matters) against central finite differences in f64. Any op, and any
// later issue's op, gets an independent gradient check from one call.
// grad_parity(fn, inputs, backend, dtype): the same gradient computed on `backend` in `dtype` against the
// reference backend.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <sstream>
#include <vector>

#include "nxv/grad.hpp"
#include "nxv/ops.hpp"
#include "support/printers.hpp"

namespace nxv::testing {

using MultiFn = std::function<Tensor(const std::vector<Tensor>& xs)>;

struct GradTolerance {
  double rtol = 1e-5, atol = 1e-6;
  double eps = 1e-6;  // finite-difference step (f64)
};

namespace detail {

// Made on the reference backend (a captured constant, moved to y's backend by the evaluator), so that the
// weighting is the same on every backend whatever state its random kernels are in.
inline Tensor weighted_sum(const Tensor& y) {
  return sum(y * uniform(key(1234), y.shape(), y.dtype(), 0.5, 1.5, reference_backend()));
}

// sum(fn(xs) * w) with the output converted to `dtype`.
inline MultiFn scalarized(const MultiFn& fn) {
  return [fn](const std::vector<Tensor>& xs) { return weighted_sum(fn(xs)); };
}

inline ::testing::AssertionResult compare(const std::vector<double>& got, const std::vector<double>& want, double rtol,
                                          double atol, const std::string& what) {
  std::ostringstream bad;
  int mismatches = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double err = std::abs(got[i] - want[i]);
    const bool ok = err <= atol + rtol * std::abs(want[i]) || (std::isnan(got[i]) && std::isnan(want[i]));
    if (!ok && mismatches++ < 5)
      bad << "\n  element " << i << ": got " << got[i] << ", expected " << want[i] << " (error " << err << ")";
  }
  if (mismatches == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << what << ": " << mismatches << " of " << got.size()
                                       << " elements differ (rtol " << rtol << ", atol " << atol << ")" << bad.str();
}

inline std::vector<double> values_f64(const Tensor& t) { return as_type(t, DType::f64).to_host().to_vector<double>(); }

}  // namespace detail

// Compares reference-backend gradients of fn at `inputs` (float tensors, converted to f64) with central
// finite differences.
inline ::testing::AssertionResult check_grads(const MultiFn& fn, const std::vector<Tensor>& inputs,
                                              GradTolerance tol = {}) {
  std::vector<Tensor> xs;
  for (const Tensor& x : inputs) xs.push_back(as_type(x.to_host(), DType::f64));
  const MultiFn loss = detail::scalarized(fn);
  const std::vector<Tensor> analytic = grad(loss)(xs);
  for (std::size_t k = 0; k < xs.size(); ++k) {
    std::vector<double> base = xs[k].to_vector<double>(), numeric(base.size());
    for (std::size_t j = 0; j < base.size(); ++j) {
      auto at = [&](double delta) {
        std::vector<double> moved = base;
        moved[j] += delta;
        std::vector<Tensor> ys = xs;
        ys[k] = tensor(moved, xs[k].shape(), reference_backend());
        return loss(ys).item();
      };
      numeric[j] = (at(tol.eps) - at(-tol.eps)) / (2 * tol.eps);
    }
    const ::testing::AssertionResult r =
        detail::compare(detail::values_f64(analytic[k]), numeric, tol.rtol, tol.atol,
                        "gradient of input " + std::to_string(k) + " vs finite differences");
    if (!r) return r;
  }
  return ::testing::AssertionSuccess();
}

// Compares the gradients of fn computed on `backend` in `dtype` with those of the reference backend (same dtype).
inline ::testing::AssertionResult grad_parity(const MultiFn& fn, const std::vector<Tensor>& inputs, Backend& backend,
                                              DType dtype, double rtol, double atol) {
  std::vector<Tensor> on_ref, on_dev;
  for (const Tensor& x : inputs) {
    on_ref.push_back(as_type(x.to_host(), dtype));
    on_dev.push_back(on_ref.back().to(backend));
  }
  const MultiFn loss = detail::scalarized(fn);
  const auto [ref_value, ref_grads] = value_and_grad(loss)(on_ref);
  const auto [dev_value, dev_grads] = value_and_grad(loss)(on_dev);
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    if (&dev_grads[k].backend() != &backend)
      return ::testing::AssertionFailure()
             << "gradient of input " << k << " came back on the " << dev_grads[k].backend().name() << " backend";
    const ::testing::AssertionResult r =
        detail::compare(detail::values_f64(dev_grads[k]), detail::values_f64(ref_grads[k]), rtol, atol,
                        "gradient of input " + std::to_string(k) + " on " + std::string(backend.name()));
    if (!r) return r;
  }
  return detail::compare({dev_value.item()}, {ref_value.item()}, rtol, atol, "value");
}

}  // namespace nxv::testing
