#!/usr/bin/env python3
"""The NumPyro peer of nxv-bench's mcmc suite (issues 15, 17): the same models (Bayesian logistic regression, the
regime model), on the same data, sampled with NumPyro's HMC (num_steps 32) and NUTS (chain_method="vectorized").

  numpyro_mcmc.py --in DIR --json FILE     sample every case of DIR/manifest.json, write the results
  numpyro_mcmc.py --in DIR --verify-input  read DIR back without jax or numpyro and print what it holds

DIR (written by nxv-bench, apps/bench/suites/mcmc.cpp) holds manifest.json {"num_steps", "cases": [{"id", "model",
"dtype", "csv", "features", "observations", "chains", "warmup", "samples", "samplers"}]} and the CSV files (a header,
the features, the 0/1 label last; the regime model's: x, y). The models, as nxv-sample's (apps/sample/models.cpp):
  logistic: alpha ~ Normal(0, 1), beta[k] ~ Normal(0, 1), y ~ Bernoulli(logits = alpha + x beta);
  regime:   mu[3] ~ Normal(0, 5), gamma ~ Normal(0, 2), sigma[3] ~ HalfCauchy(2), kappa ~ HalfCauchy(1);
            y ~ sum_r softmax(gamma x (-1, 0, 1) + kappa (0, 1, 0))_r Normal(mu_r, sigma_r),
in the case's dtype (float32, JAX's default, or float64 with jax_enable_x64, switched on after the f32 cases). Both kernels adapt the step size
(target acceptance 0.8) and a diagonal mass matrix during warm-up, as ours do.

Per case and sampler it measures the wall time of warm-up + sampling (JIT compilation included, as our trace and
jit are), the sampling phase alone, the leapfrog steps of the sampling phase (extra field num_steps), the smallest
bulk ESS over the parameters (rank-normalised split chains, Vehtari et al. 2021: normal scores of the ranks with
Blom's 3/8 offset, then NumPyro's effective_sample_size, Geyer's initial monotone sequence as ArviZ), and each
parameter's posterior mean and sd. Writes {"numpyro", "jax", "device", "results": [{"id": "<case>.hmc|nuts",
"wall_s", "sampling_s", "grad_evals", "ess_bulk_min", "means", "sds"}]}. Exit status: 0; 77 when jax or numpyro
cannot be imported; 1 on errors. Progress goes to stderr.
"""
import argparse
import csv
import json
import sys
import time

EXIT_NO_NUMPYRO = 77


def log(*args):
    print("[numpyro_mcmc]", *args, file=sys.stderr, flush=True)


def read_manifest(directory):
    with open(f"{directory}/manifest.json") as f:
        return json.load(f)


def read_csv(path):
    """(rows of features, labels) of a CSV file as nxv-sample reads it."""
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r]
    header, body = rows[0], rows[1:]
    x = [[float(v) for v in r[:-1]] for r in body]
    y = [float(r[-1]) for r in body]
    if any(len(r) != len(header) for r in body):
        raise ValueError(f"{path}: a row's length differs from the header's")
    return x, y


def verify_input(directory):
    manifest = read_manifest(directory)
    for case in manifest["cases"]:
        x, y = read_csv(case["csv"])
        if len(x) != case["observations"] or any(len(r) != case["features"] for r in x):
            raise ValueError(f"{case['csv']}: {len(x)} rows, expected {case['observations']} of "
                             f"{case['features']} features")
        print(f"{case['id']}: {len(x)} rows, {len(x[0])} features, {sum(y):.0f} ones, "
              f"{case['chains']} chains, {case['warmup']} + {case['samples']}")
    return 0


def bulk_ess_min(np, ndtri, effective_sample_size, draws):
    """The smallest bulk ESS over the columns of draws [chains, samples, d]."""
    c, s, d = draws.shape
    half = s // 2
    split = np.concatenate([draws[:, :half], draws[:, s - half:]], axis=0)  # the middle draw of an odd s dropped
    flat = split.reshape(-1, d)
    ranks = flat.argsort(axis=0).argsort(axis=0) + 1.0  # continuous draws: ties have probability 0
    z = np.asarray(ndtri((ranks - 0.375) / (flat.shape[0] + 0.25))).reshape(split.shape)
    return float(np.min(effective_sample_size(z)))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--in", dest="input", required=True, help="the directory nxv-bench wrote (manifest.json)")
    p.add_argument("--json", help="where to write the results")
    p.add_argument("--verify-input", action="store_true", help="read --in back without jax and exit")
    a = p.parse_args()
    if a.verify_input:
        return verify_input(a.input)
    try:
        import jax
        import jax.numpy as jnp
        import numpy as np
        import numpyro
        import numpyro.distributions as dist
        from jax.scipy.special import ndtri
        from numpyro.diagnostics import effective_sample_size
        from numpyro.infer import HMC, MCMC, NUTS
    except ImportError as e:
        print(f"no numpyro: {e}")
        return EXIT_NO_NUMPYRO
    if not a.json:
        p.error("--json is required unless --verify-input")
    manifest = read_manifest(a.input)

    from jax.scipy.special import logsumexp

    def logistic(x, y):
        alpha = numpyro.sample("alpha", dist.Normal(0.0, 1.0))
        beta = numpyro.sample("beta", dist.Normal(0.0, 1.0).expand([x.shape[1]]).to_event(1))
        numpyro.sample("y", dist.Bernoulli(logits=alpha + x @ beta), obs=y)

    def regime(x, y):
        mu = numpyro.sample("mu", dist.Normal(0.0, 5.0).expand([3]).to_event(1))
        gamma = numpyro.sample("gamma", dist.Normal(0.0, 2.0))
        sigma = numpyro.sample("sigma", dist.HalfCauchy(2.0).expand([3]).to_event(1))
        kappa = numpyro.sample("kappa", dist.HalfCauchy(1.0))
        tilt, calm = jnp.array([-1.0, 0.0, 1.0], dtype=x.dtype), jnp.array([0.0, 1.0, 0.0], dtype=x.dtype)
        logits = gamma * x * tilt + kappa * calm  # x [n, 1] -> [n, 3]
        log_w = logits - logsumexp(logits, axis=1, keepdims=True)
        numpyro.factor("y", jnp.sum(logsumexp(log_w + dist.Normal(mu, sigma).log_prob(y[:, None]), axis=1)))

    results = []
    # The f32 cases first: float64 needs jax_enable_x64, a process-wide switch (the scoped enable_x64 of older JAX
    # versions is gone from newer ones), turned on before the first f64 case.
    cases = sorted(manifest["cases"], key=lambda c: c.get("dtype", "f32") == "f64")
    for case in cases:
        f64 = case.get("dtype", "f32") == "f64"
        if f64:
            jax.config.update("jax_enable_x64", True)
        results += run_case(case, manifest["num_steps"], logistic if case.get("model") != "regime" else regime,
                            jnp.float64 if f64 else jnp.float32)
    with open(a.json, "w") as f:
        json.dump({"numpyro": numpyro.__version__, "jax": jax.__version__, "device": str(jax.devices()[0]),
                   "results": results}, f)
    return 0


def run_case(case, num_steps, model, dtype):
    """The results of one case's samplers (main checked that the imports work)."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax.scipy.special import ndtri
    from numpyro.diagnostics import effective_sample_size
    from numpyro.infer import HMC, MCMC, NUTS

    results = []
    xs, ys = read_csv(case["csv"])
    x, y = jnp.asarray(xs, dtype=dtype), jnp.asarray(ys, dtype=dtype)
    for sampler in case.get("samplers", ["hmc", "nuts"]):
        log(f"{case['id']}: {sampler}")
        kernel = HMC(model, num_steps=num_steps) if sampler == "hmc" else NUTS(model)
        mcmc = MCMC(kernel, num_warmup=case["warmup"], num_samples=case["samples"], num_chains=case["chains"],
                    chain_method="vectorized", progress_bar=False)
        key = jax.random.PRNGKey(0)
        start = time.perf_counter()
        mcmc.warmup(key, x, y, extra_fields=("num_steps",), collect_warmup=False)
        jax.block_until_ready(mcmc.last_state)
        sampling_start = time.perf_counter()
        mcmc.run(mcmc.post_warmup_state.rng_key, x, y, extra_fields=("num_steps",))
        samples = mcmc.get_samples(group_by_chain=True)
        jax.block_until_ready(samples)
        end = time.perf_counter()
        steps = mcmc.get_extra_fields()["num_steps"]
        # Every parameter's elements in declaration order (ours: alpha, beta / mu, gamma, sigma, kappa).
        columns = [np.asarray(v).reshape(v.shape[0], v.shape[1], -1) for v in samples.values()]
        names = list(samples.keys())
        order = [n for n in ("alpha", "beta", "mu", "gamma", "sigma", "kappa") if n in names]
        draws = np.concatenate([columns[names.index(n)] for n in order], axis=-1)
        # In f64: numpy sums a float32 array along axis 0 row by row in float32, which stagnates over 65536
        # chains x 500 draws (the bench's means check saw NumPyro's ~0.76 posterior sd from ours there).
        flat = draws.reshape(-1, draws.shape[-1]).astype(np.float64)
        results.append({"id": f"{case['id']}.{sampler}", "wall_s": end - start, "sampling_s": end - sampling_start,
                        "grad_evals": float(np.sum(np.asarray(steps, dtype=np.float64))),
                        "ess_bulk_min": bulk_ess_min(np, ndtri, effective_sample_size, draws),
                        "means": flat.mean(axis=0).tolist(), "sds": flat.std(axis=0, ddof=1).tolist()})
        r = results[-1]  # on stderr at once: a run cut short still leaves its numbers
        log(f"{r['id']}: wall {r['wall_s']:.3g} s, sampling {r['sampling_s']:.3g} s, {r['grad_evals']:.6g} grad "
            f"evals, min bulk ESS {r['ess_bulk_min']:.6g}")
    return results


if __name__ == "__main__":
    sys.exit(main())
