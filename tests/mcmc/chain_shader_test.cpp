// Chain shaders (NXV_CHAIN_SHADERS: mcmc::sample's step as one invocation per chain, src/trace/jit_map.hpp) at the
// scaling edges issue 17 names — dimension 1 to 10^4, observations 0 to 10^6, 1 and 10^5 chains, a model using every
// distribution — each run on Vulkan equal to the reference backend's draws bit for bit, and through the chain
// shaders wherever the device lets one invocation run that long (lavapipe stops an invocation's loops after 65535
// trips: there the large ones run vectorized, which the run reports; and a model past one dispatch's work budget
// runs vectorized everywhere).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "mcmc/adaptation.hpp"
#include "mcmc/nuts_tree.hpp"
#include "mcmc/posterior_models.hpp"
#include "nxv/grad.hpp"
#include "nxv/vulkan.hpp"
#include "support/env.hpp"
#include "support/parity.hpp"
#include "trace/jit_map.hpp"
#include "vulkan/runtime/runtime.hpp"

namespace nxv::mcmc_test {
namespace {

mcmc::SampleOptions tiny_run(mcmc::Sampler sampler, std::int64_t chains = 3) {
  mcmc::SampleOptions o;
  o.sampler = sampler;
  o.chains = chains;
  o.warmup = 3;
  o.samples = 3;
  o.seed = 17;
  o.num_steps = 2;
  o.max_tree_depth = 3;
  return o;
}

// Samples on both backends; Vulkan's must be the reference's bits. Returns whether Vulkan ran the chain shaders.
// `mapping`: NXV_CHAIN_SHADERS's value (1: the mapping by size; invocation or workgroup forced).
bool expect_reference_bits(const mcmc::Model& model, mcmc::SampleOptions o, const std::string& what,
                           const char* mapping = "1") {
  const test::EnvGuard chain_shaders("NXV_CHAIN_SHADERS", mapping);
  using Clock = std::chrono::steady_clock;
  const Clock::time_point t0 = Clock::now();
  o.backend = &reference_backend();
  const mcmc::Samples ref = mcmc::sample(model, o);
  const Clock::time_point t1 = Clock::now();
  o.backend = &vulkan::backend();
  const mcmc::Samples vk = mcmc::sample(model, o);
  // For the report (no assertion on time): where a case's seconds went.
  std::printf("  %-24s reference %.1f s, vulkan %.1f s (first iteration %.1f s), %s\n", what.c_str(),
              std::chrono::duration<double>(t1 - t0).count(), std::chrono::duration<double>(Clock::now() - t1).count(),
              vk.timing.first_iteration, vk.chain_shaders ? "chain shaders" : "vectorized");
  EXPECT_EQ(testing::compare_exact(ref.unconstrained, vk.unconstrained.to_host()), "") << what << ": draws";
  EXPECT_EQ(testing::compare_exact(ref.energy, vk.energy.to_host()), "") << what << ": energy";
  EXPECT_EQ(testing::compare_exact(ref.step_size, vk.step_size.to_host()), "") << what << ": step size";
  return vk.chain_shaders;
}

bool trips_capped() { return vulkan::runtime().features().loop_trips_capped; }

// mu ~ N(0, 1), y_i ~ N(mu, 1.5) for n observations.
mcmc::Model observations(std::int64_t n) {
  std::vector<double> y(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) y[i] = std::sin(0.37 * static_cast<double>(i)) + 0.5;
  mcmc::Model m;
  m.param("mu");
  m.log_density = [y](const Params& p) {
    const Tensor& mu = p.at("mu");
    return dist::Normal(like(mu, 0.0), like(mu, 1.0)).log_prob(mu) +
           sum(dist::Normal(mu, like(mu, 1.5)).log_prob(like(mu, y)));
  };
  return m;
}

TEST(ChainShaders, EveryDimensionFromOneToTenThousand) {
  NXV_REQUIRE_VULKAN();
  // 13/14: the original's push-block cap; 256/257: past the local arrays into scratch memory; 10^4: large.
  for (const std::int64_t d : {1, 13, 14, 256, 257, 10000}) {
    std::vector<double> scales;
    for (std::int64_t i = 0; i < d; ++i) scales.push_back(0.5 + 0.25 * static_cast<double>(i % 7));
    for (const mcmc::Sampler sampler : {mcmc::Sampler::hmc, mcmc::Sampler::nuts}) {
      // NUTS at d = 1 only: its kernel unrolls its tree's arrays on lavapipe, which then compiles for tens of seconds
      // at d = 13 (the samplers' and posteriors' tests run NUTS's chain shaders at d = 2 too).
      if (d > 1 && sampler == mcmc::Sampler::nuts) continue;
      const bool shader = expect_reference_bits(iid_gaussian(scales), tiny_run(sampler), "d = " + std::to_string(d));
      // lavapipe lets an invocation run 65535 loop trips: a transition over 256 elements is past that.
      if (d <= 14 || !trips_capped()) EXPECT_TRUE(shader) << "d = " << d;
    }
  }
}

TEST(ChainShaders, ObservationsFromNoneToAMillion) {
  NXV_REQUIRE_VULKAN();
  // 600: the observation count that crashed the original chain shaders.
  for (const std::int64_t n : {0, 1, 600, 1000000}) {
    const bool shader =
        expect_reference_bits(observations(n), tiny_run(mcmc::Sampler::hmc), "observations = " + std::to_string(n));
    // 10^6: lavapipe stops it at its trip cap and runs it vectorized; a GPU runs it per chain (the H100 did, in 15 s).
    if (n <= 600 || !trips_capped()) EXPECT_TRUE(shader) << "observations = " << n;
  }
}

TEST(ChainShaders, AWorkgroupPerChainGivesTheReferenceDraws) {
  NXV_REQUIRE_VULKAN();
  // The mapping a GPU takes for models with observations or many parameters, forced here so that lavapipe runs it
  // too: spread values, cooperative reductions over the observations, the gradient's sums one per invocation.
  for (const mcmc::Sampler sampler : {mcmc::Sampler::hmc, mcmc::Sampler::nuts})
    EXPECT_TRUE(
        expect_reference_bits(observations(600), tiny_run(sampler), "workgroup, 600 observations", "workgroup"));
  std::vector<double> scales;
  for (int i = 0; i < 257; ++i) scales.push_back(0.5 + 0.25 * static_cast<double>(i % 7));
  EXPECT_TRUE(
      expect_reference_bits(iid_gaussian(scales), tiny_run(mcmc::Sampler::hmc), "workgroup, d = 257", "workgroup"));
}

TEST(ChainShaders, OneChainAndAHundredThousandChains) {
  NXV_REQUIRE_VULKAN();
  for (const std::int64_t chains : {1, 100000}) {
    mcmc::SampleOptions o = tiny_run(mcmc::Sampler::hmc, chains);
    o.warmup = 2;
    o.samples = 2;
    EXPECT_TRUE(expect_reference_bits(iid_gaussian({1.5}), o, "chains = " + std::to_string(chains)));
  }
}

TEST(ChainShaders, AutoModeTakesAWorkgroupPerChainBelowSixteenThousandChains) {
  NXV_REQUIRE_VULKAN();
  const test::EnvGuard automatic("NXV_CHAIN_SHADERS", std::nullopt);  // the default, auto
  // auto takes only a workgroup per chain with every value in shared memory, which a GPU gets for a model with 100
  // observations (a CPU device never takes the group mapping by itself), and only below 16384 chains; a model of one
  // parameter gets one invocation per chain, which auto declines.
  const bool gpu = !vulkan::runtime().features().loop_trips_capped;
  for (const std::int64_t chains : {100, 16384}) {
    mcmc::SampleOptions o = tiny_run(mcmc::Sampler::hmc, chains);
    o.warmup = 2;
    o.samples = 2;
    o.backend = &vulkan::backend();
    EXPECT_EQ(mcmc::sample(observations(100), o).chain_shaders, gpu && chains < 16384) << chains << " chains";
    EXPECT_FALSE(mcmc::sample(iid_gaussian({1.0}), o).chain_shaders) << chains << " chains";
  }
}

// A model that calls every distribution's log density: each parameter under the priors of its support, the
// discrete ones on observed data.
mcmc::Model every_distribution() {
  mcmc::Model m;
  m.param("a")
      .param("s", {}, dist::exp_bijection())
      .param("p", {}, dist::sigmoid_bijection())
      .param("t", {}, dist::interval(scalar(-1.0, DType::f64), scalar(2.0, DType::f64)))
      .param("v", {2})
      .param("w", {3}, dist::stick_breaking());
  m.log_density = [](const Params& q) {
    const Tensor &a = q.at("a"), &s = q.at("s"), &p = q.at("p"), &t = q.at("t"), &v = q.at("v"), &w = q.at("w");
    const auto c = [&](double x) { return like(a, x); };
    Tensor lp = dist::Normal(c(0), c(1)).log_prob(a) + dist::Cauchy(c(0), c(2)).log_prob(a) +
                dist::Laplace(c(0), c(1)).log_prob(a) + dist::Logistic(c(0), c(1)).log_prob(a) +
                dist::StudentT(c(3), c(0), c(1)).log_prob(a);
    lp = lp + dist::HalfNormal(c(1)).log_prob(s) + dist::HalfCauchy(c(1)).log_prob(s) +
         dist::Exponential(c(1)).log_prob(s) + dist::LogNormal(c(0), c(1)).log_prob(s) +
         dist::Weibull(c(1), c(1.5)).log_prob(s) + dist::Gamma(c(2), c(2)).log_prob(s) +
         dist::InverseGamma(c(3), c(2)).log_prob(s);
    lp = lp + dist::Beta(c(2), c(3)).log_prob(p) + dist::Uniform(c(0), c(1)).log_prob(p) +
         sum(dist::BernoulliProbs(p).log_prob(like(a, {1, 0, 1}))) + dist::Binomial(c(10), p).log_prob(c(4)) +
         sum(dist::BernoulliLogits(a).log_prob(like(a, {0, 1}))) + sum(dist::Poisson(s).log_prob(like(a, {2, 3}))) +
         dist::NegativeBinomial(c(4), p).log_prob(c(5));
    lp = lp + dist::TruncatedNormal(c(0), c(1), c(-1), c(2)).log_prob(t) +
         dist::MultivariateNormalDiag(like(a, {0, 1}), like(a, {1, 2})).log_prob(v) +
         dist::Dirichlet(like(a, {1, 2, 3})).log_prob(w) + sum(dist::Categorical(log(w)).log_prob(like(a, {0, 2})));
    return lp;
  };
  return m;
}

TEST(ChainShaders, AModelUsingEveryDistribution) {
  NXV_REQUIRE_VULKAN();
  {
    const mcmc::LogDensity f = mcmc::unconstrained_log_density(every_distribution());
    const auto grad_fn = [&](std::span<const Tensor> x) {
      auto [v, g] = value_and_grad(f)(x[0]);
      return std::vector<Tensor>{v, g};
    };
    nxv::detail::JitMap on_ref(grad_fn, {true}, false), on_vk(grad_fn, {true});
    const Tensor q = reshape(as_type(iota({16}, 0, DType::f64) * 0.1 - 0.5, DType::f64), {2, 8});
    const std::vector<Tensor> r = on_ref(std::vector<Tensor>{q});
    const std::vector<Tensor> v = on_vk(std::vector<Tensor>{q.to(vulkan::backend())});
    for (std::size_t i = 0; i < r.size(); ++i)
      EXPECT_EQ(testing::compare_exact(r[i], v[i].to_host()), "") << "every distribution's density, output " << i;
  }
  for (const mcmc::Sampler sampler : {mcmc::Sampler::hmc, mcmc::Sampler::nuts}) {
    // NUTS's kernel of this model takes lavapipe's LLVM ~2 minutes to compile (its tree's arrays unrolled so that it
    // fits the loop-trip cap): GPUs run it, lavapipe runs the HMC arm, whose kernel holds the same densities.
    if (sampler == mcmc::Sampler::nuts && trips_capped()) continue;
    mcmc::SampleOptions o = tiny_run(sampler, 2);
    const bool shader = expect_reference_bits(every_distribution(), o, "every distribution");
    if (!trips_capped()) EXPECT_TRUE(shader);
  }
}

}  // namespace
}  // namespace nxv::mcmc_test

namespace nxv::mcmc_test {
namespace {

void expect_map_equal(const nxv::detail::JitMap::Fn& fn, const std::vector<Tensor>& in, const std::vector<bool>& b,
                      const std::string& what) {
  nxv::detail::JitMap ref(fn, b, false), vk(fn, b);
  std::vector<Tensor> ri, vi;
  for (const Tensor& t : in) {
    ri.push_back(t.to(reference_backend()));
    vi.push_back(t.to(vulkan::backend()));
  }
  const std::vector<Tensor> r = ref(ri), v = vk(vi);
  EXPECT_TRUE(vk.per_instance()) << what << ": " << vk.why_not();
  for (std::size_t i = 0; i < r.size(); ++i)
    EXPECT_EQ(testing::compare_exact(r[i], v[i].to_host()), "") << what << ": output " << i;
}

TEST(ChainShaders, PiecesOfTheStep) {
  NXV_REQUIRE_VULKAN();
  const mcmc::LogDensity f = [](const Tensor& q) { return sum(square(q)) * -0.5; };
  std::vector<std::int64_t> keys;
  for (int i = 0; i < 6; ++i) keys.push_back((i * 2654435761LL + 12345) & 0xffffffffLL);
  const Tensor k = tensor(keys, {3, 2});
  const Tensor q = tensor(std::vector<double>{0.3, -1.2, 0.7}, {3, 1});
  const auto grad_fn = [&](std::span<const Tensor> x) {
    auto [v, g] = value_and_grad(f)(x[0]);
    return std::vector<Tensor>{v, g};
  };
  expect_map_equal(grad_fn, {q}, {true}, "value_and_grad");
  const auto hmc = [&](std::span<const Tensor> x) {
    auto [v, g] = value_and_grad(f)(x[0]);
    const mcmc::Transition t = mcmc::hmc_transition(
        f, {x[0], v, g}, {scalar(0.5, DType::f64, x[0].backend()), ones({1}, DType::f64, x[0].backend())}, x[1], 2);
    return std::vector<Tensor>{t.state.position, t.state.log_density, t.stats.accept_stat, t.stats.energy};
  };
  expect_map_equal(hmc, {q, k}, {true, true}, "hmc_transition");
  {
    // add_leaf over checkpoints [3, 2]; leaf counts 0..5.
    const auto leaf = [&](std::span<const Tensor> x) {
      const auto [saved, turning] = mcmc::detail::add_leaf({x[0], x[1], x[2]}, x[3], x[4], x[5], x[6], x[7]);
      return std::vector<Tensor>{saved.momentum, saved.momentum_sum, saved.previous, turning};
    };
    std::vector<Tensor> in;
    for (int i = 0; i < 3; ++i)
      in.push_back(tensor(std::vector<double>{0.1 * i, -0.4, 0.9, 0.3 * i, -1.1, 0.5, 0.2, 0.8 - i, -0.3, 0.25, 0.6,
                                              -0.7, 0.45, 0.1, -0.2, 0.33, 0.9, -0.5},
                          {6, 3, 1}));
    in.push_back(tensor(std::vector<std::int64_t>{0, 1, 2, 3, 4, 5}, {6}));
    for (int i = 0; i < 3; ++i)
      in.push_back(tensor(std::vector<double>{0.5, -0.2 * i, 0.3, 1.0, -0.8, 0.1 * i}, {6, 1}));
    in.push_back(tensor(std::vector<double>{1.0, 1.0, 1.0, 1.0, 1.0, 1.0}, {6, 1}));
    expect_map_equal(leaf, in, std::vector<bool>(in.size(), true), "add_leaf");
  }
  for (int depth = 1; depth <= 3; ++depth) {
    const auto nuts = [&](std::span<const Tensor> x) {
      auto [v, g] = value_and_grad(f)(x[0]);
      const mcmc::Transition t = mcmc::nuts_transition(
          f, {x[0], v, g}, {scalar(0.5, DType::f64, x[0].backend()), ones({1}, DType::f64, x[0].backend())}, x[1],
          depth);
      return std::vector<Tensor>{t.state.position,  t.state.log_density, t.stats.accept_stat, t.stats.energy,
                                 t.stats.num_steps, t.stats.tree_depth,  t.stats.diverging};
    };
    expect_map_equal(nuts, {q, k}, {true, true}, "nuts_transition depth " + std::to_string(depth));
  }
  const auto search = [&](std::span<const Tensor> x) {
    auto [v, g] = value_and_grad(f)(x[0]);
    const mcmc::detail::AdaptState a = mcmc::detail::unpack(std::vector<Tensor>(x.begin() + 2, x.end()));
    return mcmc::detail::pack(mcmc::detail::restart_step_size(f, {x[0], v, g}, a, x[1]));
  };
  std::vector<Tensor> in = {q, k};
  for (const Tensor& t :
       mcmc::detail::pack(mcmc::detail::initial_adapt_state(3, 1, 1.0, DType::f64, reference_backend())))
    in.push_back(t);
  expect_map_equal(search, in, std::vector<bool>(in.size(), true), "restart_step_size");
}

}  // namespace
}  // namespace nxv::mcmc_test
