// nxv::dist: probability distributions for Bayesian models (issue 15's first block).
//
//   dist::Normal prior(nxv::scalar(0.0, DType::f64), nxv::scalar(1.0, DType::f64));
//   Tensor lp = prior.log_prob(theta);                       // normalised, elementwise over the batch
//   Tensor draws = prior.sample(nn::key_tensor(key(7)), {1000});  // [1000, batch...]
//
// Every log_prob is written with the ordinary ops, so it runs on every backend, fuses under jit and
// differentiates with nxv::grad; every sample is drawn from a key tensor (nn::key_tensor, nn::random_uniform), so
// a jitted sampler can take a new key per call, and the draws are bit-identical on every backend.
//
// Conventions (those of NumPyro):
//  - Parameters are float tensors of one dtype, f32 or f64, whose shapes broadcast; their broadcast shape is the
//    batch shape. Anything else throws nxv::Error naming the distribution.
//  - log_prob(x): x broadcasts against the batch shape (x's shape is [..., event...] for the vector-valued
//    ones). A continuous distribution takes x of its dtype; a discrete one takes x of its dtype or any integer
//    dtype (converted). The result has the distribution's dtype.
//  - Out of support: log_prob is -inf where x lies outside support() (NaN where x is NaN), and so is its value;
//    its gradient there is 0 (the density is evaluated at a point inside the support and discarded, so no NaN
//    leaks into the gradient). Parameters outside their domain (scale <= 0, ...) are not checked: the value is
//    whatever the formula gives (NumPyro with validate_args=False).
//  - sample(key, shape): draws of shape [shape..., batch..., event...] (continuous: the dtype; Bernoulli and
//    Categorical: s64 0/1 and indices). Uniforms come from nn::random_uniform: f32 draws have 23 random bits,
//    f64 draws 48 (two 24-bit streams), both strictly inside (0, 1) (support/uniform_open).
#pragma once
#include <cstdint>

#include "nxv/ops.hpp"

namespace nxv::dist {

// Where a distribution's values lie. interval: [low, high] given by the distribution's parameters.
enum class Support {
  real,                 // (-inf, inf)
  nonnegative,          // [0, inf)
  positive,             // (0, inf)
  unit_interval,        // [0, 1]
  interval,             // [low, high]
  boolean,              // {0, 1}
  nonnegative_integer,  // {0, 1, 2, ...}
  integer_interval,     // {0, ..., k - 1} (Categorical: k categories) or {0, ..., n} (Binomial)
  real_vector,          // R^d (the last axis)
  simplex,              // x >= 0, sum over the last axis 1 (within 1e-6 in f64, 1e-5 in f32)
};
const char* name(Support support);

// What every distribution knows about itself.
struct Shapes {
  Shape batch_shape;  // the parameters' broadcast shape (without the event axis)
  Shape event_shape;  // [] for scalar-valued distributions, [d] for vector-valued ones
  DType dtype = DType::f32;
};

// Declares the members every distribution has (a macro so that each class below reads as its parameters).
#define NXV_DIST_MEMBERS(support_kind)                                    \
  Tensor log_prob(const Tensor& x) const;                                 \
  Tensor sample(const Tensor& key, const Shape& sample_shape = {}) const; \
  static constexpr Support support() { return Support::support_kind; }

// ---- continuous, scalar-valued ---------------------------------------------------------------------------
struct Normal : Shapes {
  Tensor loc, scale;
  Normal(Tensor loc, Tensor scale);
  NXV_DIST_MEMBERS(real)
};
struct HalfNormal : Shapes {  // |Normal(0, scale)|
  Tensor scale;
  explicit HalfNormal(Tensor scale);
  NXV_DIST_MEMBERS(nonnegative)
};
struct Cauchy : Shapes {
  Tensor loc, scale;
  Cauchy(Tensor loc, Tensor scale);
  NXV_DIST_MEMBERS(real)
};
struct HalfCauchy : Shapes {  // |Cauchy(0, scale)|
  Tensor scale;
  explicit HalfCauchy(Tensor scale);
  NXV_DIST_MEMBERS(nonnegative)
};
struct Laplace : Shapes {
  Tensor loc, scale;
  Laplace(Tensor loc, Tensor scale);
  NXV_DIST_MEMBERS(real)
};
struct Logistic : Shapes {
  Tensor loc, scale;
  Logistic(Tensor loc, Tensor scale);
  NXV_DIST_MEMBERS(real)
};
struct Exponential : Shapes {
  Tensor rate;
  explicit Exponential(Tensor rate);
  NXV_DIST_MEMBERS(nonnegative)
};
struct LogNormal : Shapes {  // exp(Normal(loc, scale))
  Tensor loc, scale;
  LogNormal(Tensor loc, Tensor scale);
  NXV_DIST_MEMBERS(positive)
};
struct Uniform : Shapes {
  Tensor low, high;
  Uniform(Tensor low, Tensor high);
  NXV_DIST_MEMBERS(interval)
};
struct Weibull : Shapes {  // density k/l (x/l)^(k-1) exp(-(x/l)^k); NumPyro's argument order
  Tensor scale, concentration;
  Weibull(Tensor scale, Tensor concentration);
  NXV_DIST_MEMBERS(nonnegative)
};
// Normal(loc, scale) restricted to [low, high] (either may be infinite). Sampled by the inverse CDF on the
// tail the interval is nearer to, which is accurate while the interval's nearer end is within ~8 scales of loc
// in f64 (~5 in f32): beyond, the CDF's differences round away.
struct TruncatedNormal : Shapes {
  Tensor loc, scale, low, high;
  TruncatedNormal(Tensor loc, Tensor scale, Tensor low, Tensor high);
  NXV_DIST_MEMBERS(interval)
};

// ---- discrete ----------------------------------------------------------------------------------------------
struct BernoulliProbs : Shapes {
  Tensor probs;
  explicit BernoulliProbs(Tensor probs);
  NXV_DIST_MEMBERS(boolean)
};
struct BernoulliLogits : Shapes {  // probs = sigmoid(logits), computed without forming probs
  Tensor logits;
  explicit BernoulliLogits(Tensor logits);
  NXV_DIST_MEMBERS(boolean)
};
// logits [..., k] (unnormalised); values are indices in [0, k). Sampled by the Gumbel-max trick.
struct Categorical : Shapes {
  Tensor logits;
  explicit Categorical(Tensor logits);
  NXV_DIST_MEMBERS(integer_interval)
};

// ---- multivariate --------------------------------------------------------------------------------------------
// loc [..., d] and scale_diag [..., d]: independent normals over the last axis (a dense Cholesky factor comes
// with linalg).
struct MultivariateNormalDiag : Shapes {
  Tensor loc, scale_diag;
  MultivariateNormalDiag(Tensor loc, Tensor scale_diag);
  NXV_DIST_MEMBERS(real_vector)
};

// ---- with lgamma: Student's t, the gamma family, counts ----------------------------------------------------------
// Gamma variates by Marsaglia and Tsang (2000) with a fixed 10 rounds of rejection (each accepts with probability
// >= 0.95, so all 10 reject with probability < 1e-13; the last candidate is kept then), and for concentration
// < 1 the boost G(a) = G(a + 1) U^(1/a). Beta, Dirichlet, StudentT and InverseGamma are drawn from gammas.
struct StudentT : Shapes {
  Tensor df, loc, scale;
  StudentT(Tensor df, Tensor loc, Tensor scale);
  NXV_DIST_MEMBERS(real)
};
struct Gamma : Shapes {  // density b^a x^(a-1) e^(-b x) / Gamma(a)
  Tensor concentration, rate;
  Gamma(Tensor concentration, Tensor rate);
  NXV_DIST_MEMBERS(nonnegative)
};
struct InverseGamma : Shapes {  // 1 / Gamma(concentration, rate): density b^a x^(-a-1) e^(-b/x) / Gamma(a)
  Tensor concentration, rate;
  InverseGamma(Tensor concentration, Tensor rate);
  NXV_DIST_MEMBERS(positive)
};
struct Beta : Shapes {  // density x^(c1-1) (1-x)^(c0-1) / B(c1, c0)
  Tensor concentration1, concentration0;
  Beta(Tensor concentration1, Tensor concentration0);
  NXV_DIST_MEMBERS(unit_interval)
};
// Counts are drawn (s64) by inversion while the mean is below 10 (a fixed 48 steps: the count exceeds 48 with
// probability < 1e-17 there) and by Hoermann's transformed rejection (PTRS for Poisson, BTRS for Binomial) with a
// fixed 12 rounds above (each accepts with probability > 0.8: all reject with probability < 1e-8, and then the
// distribution's mode is returned).
struct Binomial : Shapes {  // total_count: a float tensor holding whole numbers
  Tensor total_count, probs;
  Binomial(Tensor total_count, Tensor probs);
  NXV_DIST_MEMBERS(integer_interval)
};
struct Poisson : Shapes {
  Tensor rate;
  explicit Poisson(Tensor rate);
  NXV_DIST_MEMBERS(nonnegative_integer)
};
// NumPyro's NegativeBinomialProbs: the number of successes (probability `probs` each) before `total_count`
// failures, P(k) = Gamma(k + r) / (Gamma(r) k!) (1 - p)^r p^k; scipy's nbinom(r, 1 - p). Drawn as
// Poisson(Gamma(r, (1 - p) / p)).
struct NegativeBinomial : Shapes {
  Tensor total_count, probs;
  NegativeBinomial(Tensor total_count, Tensor probs);
  NXV_DIST_MEMBERS(nonnegative_integer)
};
// concentration [..., k]; values on the simplex (the last axis).
struct Dirichlet : Shapes {
  Tensor concentration;
  explicit Dirichlet(Tensor concentration);
  NXV_DIST_MEMBERS(simplex)
};

#undef NXV_DIST_MEMBERS

}  // namespace nxv::dist
