// Constrained parameters: bijections from unconstrained real space onto a distribution's support, with the log
// absolute determinant of the forward map's Jacobian, so that a sampler moves y in R^n while the model sees
// x = forward(y) and adds log_abs_det_jacobian(y) to its log density (Stan's and NumPyro's transforms).
//
//   auto b = dist::interval(scalar(0.0, DType::f64), scalar(1.0, DType::f64));
//   Tensor x = b.forward(y);                                   // in (0, 1)
//   Tensor lp = dist::Beta(a, c).log_prob(x) + b.log_abs_det_jacobian(y);
//
// Scalar bijections act elementwise and their log_abs_det_jacobian has y's shape; the vector ones (event_rank 1:
// stick_breaking, ordered) act on the last axis and reduce their Jacobian term over it. Bounds are tensors that
// broadcast against y. Every map is written with the ordinary ops (it differentiates and fuses).
#pragma once
#include <functional>

#include "nxv/dist.hpp"

namespace nxv::dist {

struct Bijection {
  std::function<Tensor(const Tensor&)> forward;               // y (unconstrained) -> x (constrained)
  std::function<Tensor(const Tensor&)> inverse;               // x -> y
  std::function<Tensor(const Tensor&)> log_abs_det_jacobian;  // log |d forward / d y| at y
  Support codomain = Support::real;
  int event_rank = 0;
};

Bijection identity();                         // R
Bijection exp_bijection();                    // (0, inf): x = e^y, log|J| = y
Bijection softplus_bijection();               // (0, inf): x = log(1 + e^y), log|J| = log sigmoid(y); gentler than exp
Bijection sigmoid_bijection();                // (0, 1): x = sigmoid(y), log|J| = log sigmoid(y) + log sigmoid(-y)
Bijection lower_bound(Tensor low);            // (low, inf): x = low + e^y
Bijection upper_bound(Tensor high);           // (-inf, high): x = high - e^y
Bijection interval(Tensor low, Tensor high);  // (low, high): x = low + (high - low) sigmoid(y)
// The simplex of K components from R^(K-1) by stick-breaking (Stan's): z_k = sigmoid(y_k - log(K - 1 - k)),
// x_k = z_k (1 - x_0 - ... - x_(k-1)), x_(K-1) what remains. y = 0 maps to the centre (1/K, ..., 1/K).
Bijection stick_breaking();
// Increasing vectors: x_0 = y_0, x_k = x_(k-1) + e^(y_k); log|J| = y_1 + ... + y_(K-1).
Bijection ordered();

// The bijection NumPyro's biject_to would choose for a support: real and real_vector -> identity; positive and
// nonnegative -> exp; unit_interval -> sigmoid; simplex -> stick_breaking. Others (interval: use interval() with
// the bounds; the discrete supports) throw nxv::Error.
Bijection biject_to(Support support);

}  // namespace nxv::dist
