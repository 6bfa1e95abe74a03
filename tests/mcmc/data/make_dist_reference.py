#!/usr/bin/env python3
"""Writes dist_reference.hpp: scipy.stats log densities for tests/mcmc's distribution tests.

    /usr/bin/python3 tests/mcmc/data/make_dist_reference.py   # Debian's python3-scipy (1.10.1 when written)

Run once; the table is committed, so the tests need no Python. Each row is a distribution, its parameters in the
order of its nxv::dist constructor, a point and scipy's log density there (f64, printed with 17 digits).
"""
import pathlib
import subprocess

import numpy as np
from scipy import stats

INF = float("inf")

# (name, params, scipy frozen distribution, points); discrete ones use logpmf.
SCALAR = [
    ("Normal", (0.5, 2.0), stats.norm(0.5, 2.0), [-30.0, -3.0, 0.0, 0.5, 1.7, 12.0]),
    ("HalfNormal", (1.5,), stats.halfnorm(scale=1.5), [0.0, 0.1, 1.0, 4.0, 20.0]),
    ("Cauchy", (-1.0, 0.5), stats.cauchy(-1.0, 0.5), [-100.0, -1.0, 0.0, 3.0, 1e6]),
    ("HalfCauchy", (2.0,), stats.halfcauchy(scale=2.0), [0.0, 0.5, 2.0, 50.0, 1e5]),
    ("Laplace", (1.0, 0.7), stats.laplace(1.0, 0.7), [-5.0, 0.0, 1.0, 1.5, 30.0]),
    ("Logistic", (0.0, 1.5), stats.logistic(0.0, 1.5), [-200.0, -2.0, 0.0, 0.3, 40.0, 900.0]),
    ("Exponential", (2.5,), stats.expon(scale=1 / 2.5), [0.0, 0.01, 1.0, 10.0]),
    ("LogNormal", (0.3, 0.8), stats.lognorm(0.8, scale=np.exp(0.3)), [1e-5, 0.2, 1.0, 1.35, 25.0]),
    ("Uniform", (-1.0, 3.0), stats.uniform(-1.0, 4.0), [-1.0, 0.0, 2.5, 3.0]),
    ("Weibull", (2.0, 1.5), stats.weibull_min(1.5, scale=2.0), [0.0, 0.3, 2.0, 7.0]),
    ("Weibull", (1.0, 1.0), stats.weibull_min(1.0, scale=1.0), [0.0, 0.5, 3.0]),
    ("Weibull", (0.5, 0.6), stats.weibull_min(0.6, scale=0.5), [0.01, 0.5, 3.0]),
    ("TruncatedNormal", (0.0, 1.0, -1.0, 2.0), stats.truncnorm(-1.0, 2.0), [-1.0, -0.5, 0.0, 1.9, 2.0]),
    ("TruncatedNormal", (1.0, 2.0, 9.0, INF), stats.truncnorm(4.0, INF, loc=1.0, scale=2.0), [9.0, 9.5, 12.0, 20.0]),
    ("TruncatedNormal", (0.0, 1.0, -INF, -6.0), stats.truncnorm(-INF, -6.0), [-9.0, -6.5, -6.0]),
    ("TruncatedNormal", (0.0, 1.0, 7.0, 7.5), stats.truncnorm(7.0, 7.5), [7.0, 7.2, 7.5]),
    ("BernoulliProbs", (0.3,), stats.bernoulli(0.3), [0.0, 1.0]),
    ("BernoulliProbs", (1.0,), stats.bernoulli(1.0), [1.0]),
    ("BernoulliLogits", (-2.0,), stats.bernoulli(1 / (1 + np.exp(2.0))), [0.0, 1.0]),
    ("BernoulliLogits", (30.0,), None, [0.0, 1.0]),  # values below: exact, scipy's sigmoid rounds
    # lgamma's distributions
    ("StudentT", (3.0, 0.5, 2.0), stats.t(3.0, 0.5, 2.0), [-40.0, -1.0, 0.5, 2.0, 1e4]),
    ("StudentT", (0.7, 0.0, 1.0), stats.t(0.7), [-3.0, 0.0, 50.0]),
    ("StudentT", (1e4, 0.0, 1.0), stats.t(1e4), [-2.0, 0.0, 1.0]),
    ("Gamma", (2.5, 1.5), stats.gamma(2.5, scale=1 / 1.5), [0.0, 0.01, 1.0, 3.0, 30.0]),
    ("Gamma", (1.0, 2.0), stats.gamma(1.0, scale=0.5), [0.0, 1.0]),
    ("Gamma", (0.3, 1.0), stats.gamma(0.3), [1e-8, 0.5, 4.0]),
    ("InverseGamma", (3.0, 2.0), stats.invgamma(3.0, scale=2.0), [0.05, 0.5, 1.0, 10.0]),
    ("Beta", (2.0, 5.0), stats.beta(2.0, 5.0), [0.0, 0.01, 0.3, 0.9, 1.0]),
    ("Beta", (0.5, 0.5), stats.beta(0.5, 0.5), [1e-6, 0.5, 0.999]),
    ("Beta", (1.0, 1.0), stats.beta(1.0, 1.0), [0.0, 0.4, 1.0]),
    ("Binomial", (10.0, 0.3), stats.binom(10, 0.3), [0.0, 1.0, 3.0, 10.0]),
    ("Binomial", (50.0, 0.0), stats.binom(50, 0.0), [0.0]),
    ("Poisson", (3.5,), stats.poisson(3.5), [0.0, 1.0, 4.0, 20.0]),
    ("Poisson", (250.0,), stats.poisson(250.0), [200.0, 250.0, 300.0]),
    # NumPyro's NegativeBinomialProbs(total_count, probs) is scipy's nbinom(total_count, 1 - probs).
    ("NegativeBinomial", (4.0, 0.3), stats.nbinom(4.0, 0.7), [0.0, 1.0, 5.0, 30.0]),
    ("NegativeBinomial", (0.5, 0.9), stats.nbinom(0.5, 0.1), [0.0, 3.0, 40.0]),
]

# scipy 1.10's t.logpdf at df = 1e4 loses 2e-12 to the cancellation of lgamma(5000.5) - lgamma(5000) (~42586
# each); these are mpmath's values at 40 digits (loggamma differences), rounded to f64.
OVERRIDES = {("StudentT", 1e4, -2.0): -2.9187635998499714, ("StudentT", 1e4, 0.0): -0.91896353320463108,
             ("StudentT", 1e4, 1.0): -1.4189885323713394}

# Vector-valued: (name, parameters as arrays, x, log density).
def vector_rows():
    rows = []
    for logits, k in [([0.5, -1.0, 2.0], 0), ([0.5, -1.0, 2.0], 2), ([100.0, 0.0, -100.0], 1)]:
        lp = np.array(logits) - np.logaddexp.reduce(logits)
        rows.append(("Categorical", [logits], [float(k)], float(lp[k])))
    loc, sd = [0.5, -1.0, 2.0], [1.0, 0.5, 3.0]
    for x in ([0.0, 0.0, 0.0], [2.0, -1.5, 10.0]):
        rows.append(("MultivariateNormalDiag", [loc, sd], x, float(stats.multivariate_normal(loc, np.diag(sd) ** 2).logpdf(x))))
    for alpha, x in [([2.0, 3.0, 0.5], [0.2, 0.5, 0.3]), ([1.0, 1.0, 1.0], [0.1, 0.1, 0.8]), ([0.3, 4.0, 7.5], [0.01, 0.39, 0.6])]:
        rows.append(("Dirichlet", [alpha], x, float(stats.dirichlet(alpha).logpdf(x))))
    return rows


def fmt(v):
    if v == INF:
        return "kInf"
    if v == -INF:
        return "-kInf"
    return repr(float(v))


def main():
    out = [
        "// Generated by tests/mcmc/data/make_dist_reference.py (scipy " + __import__("scipy").__version__ + "); do not edit.",
        "#pragma once",
        "#include <limits>",
        "",
        "namespace nxv::testing::dist_reference {",
        "",
        "inline constexpr double kInf = std::numeric_limits<double>::infinity();",
        "",
        "struct ScalarRow {",
        "  const char* dist;",
        "  int n_params;",
        "  double params[4];",
        "  double x, log_prob;",
        "};",
        "",
        "inline constexpr ScalarRow kScalarRows[] = {",
    ]
    for name, params, d, xs in SCALAR:
        for x in xs:
            if d is None:  # BernoulliLogits(30): log sigmoid(30) = -log1p(e^-30), log(1 - sigmoid(30)) = -30 - that
                lp = -np.log1p(np.exp(-30.0)) if x == 1.0 else -30.0 - np.log1p(np.exp(-30.0))
            elif (name, params[0], x) in OVERRIDES:
                lp = OVERRIDES[(name, params[0], x)]
            elif hasattr(d, "logpmf"):
                lp = d.logpmf(x)
            else:
                lp = d.logpdf(x)
            ps = ", ".join(fmt(p) for p in params)
            out.append(f'    {{"{name}", {len(params)}, {{{ps}}}, {fmt(x)}, {fmt(lp)}}},')
    out += ["};", "", "struct VectorRow {", "  const char* dist;", "  int n_params, k;",
            "  double params[2][3];", "  double x[3];", "  double log_prob;", "};", "",
            "inline constexpr VectorRow kVectorRows[] = {"]
    for name, params, x, lp in vector_rows():
        ps = ", ".join("{" + ", ".join(fmt(v) for v in p) + "}" for p in params)
        xs = ", ".join(fmt(v) for v in x)
        out.append(f'    {{"{name}", {len(params)}, {len(params[0])}, {{{ps}}}, {{{xs}}}, {fmt(lp)}}},')
    out += ["};", "", "}  // namespace nxv::testing::dist_reference", ""]
    path = pathlib.Path(__file__).with_name("dist_reference.hpp")
    path.write_text("\n".join(out))
    # The repository's format check (scripts/check_format) covers every .hpp, this one too.
    subprocess.run(["clang-format", "-i", "--style=file", str(path)], check=True)
    print("wrote", path)


if __name__ == "__main__":
    main()
