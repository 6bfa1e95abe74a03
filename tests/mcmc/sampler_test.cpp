// The sampler driver: Vulkan equals the reference backend bit for bit, chain c's draws do not depend on the number
// of chains, one compiled step serves every iteration, Stan's window schedule, mis-specified runs are flagged, and
// bad options and models are clear errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "mcmc/adaptation.hpp"
#include "mcmc/posterior_models.hpp"
#include "nxv/nn.hpp"
#include "nxv/vulkan.hpp"
#include "support/env.hpp"
#include "support/parity.hpp"

namespace nxv::mcmc_test {
namespace {

// A small model with a constrained parameter: mu ~ N(0, 1), sigma ~ HalfNormal(1) by exp, y_i ~ N(mu, sigma).
mcmc::Model small_model() {
  mcmc::Model m;
  m.param("mu").param("sigma", {}, dist::exp_bijection());
  m.log_density = [](const Params& p) {
    const Tensor &mu = p.at("mu"), &sigma = p.at("sigma");
    return dist::Normal(like(mu, 0.0), like(mu, 1.0)).log_prob(mu) + dist::HalfNormal(like(mu, 1.0)).log_prob(sigma) +
           sum(dist::Normal(mu, sigma).log_prob(like(mu, {0.3, -0.5, 1.2, 0.8})));
  };
  return m;
}

mcmc::SampleOptions small_run(mcmc::Sampler sampler, Backend& backend, std::int64_t chains = 8) {
  mcmc::SampleOptions o;
  o.sampler = sampler;
  o.chains = chains;
  o.warmup = 40;  // >= 20: the mass matrix adapts (windows scaled to 15% / 75% / 10%)
  o.samples = 12;
  o.seed = 5;
  o.num_steps = 6;
  o.step_size_jitter = 0.3;
  o.backend = &backend;
  if (sampler == mcmc::Sampler::nuts) {
    // Shorter and shallower: each NUTS leapfrog step is a while-loop iteration of ~250 ops (lavapipe runs them as
    // ~1,700 dispatches per transition), and these tests check the machinery, not the sampler's efficiency.
    o.warmup = 20;  // still >= 20: the mass-matrix windows run
    o.samples = 6;
    o.max_tree_depth = 5;
  }
  return o;
}

// On a device that flushes f32 denormals (NVIDIA's), both sides' f32 denormals count as zero (README, "Status").
void expect_same_bits(const Tensor& a, const Tensor& b, const std::string& what) {
  const bool flush = a.dtype() == DType::f32 && testing::vulkan_flushes_f32_denormals();
  const Tensor x = a.to_host(), y = b.to_host();
  EXPECT_EQ(flush ? testing::compare_exact(testing::flush_f32_denormals(x), testing::flush_f32_denormals(y))
                  : testing::compare_exact(x, y),
            "")
      << what;
}

class Sampler : public ::testing::TestWithParam<mcmc::Sampler> {};

TEST_P(Sampler, VulkanDrawsEqualReferenceDrawsBitForBit) {
  NXV_REQUIRE_VULKAN();
  const test::EnvGuard chain_shaders("NXV_CHAIN_SHADERS", "1");
  for (const DType dtype : {DType::f64, DType::f32}) {
    mcmc::SampleOptions o = small_run(GetParam(), reference_backend());
    o.dtype = dtype;
    const mcmc::Samples ref = mcmc::sample(small_model(), o);
    o.backend = &vulkan::backend();
    const mcmc::Samples vk = mcmc::sample(small_model(), o);
    const std::string d(name(dtype));
    // Through the chain shaders (NXV_CHAIN_SHADERS=1): one invocation per chain, the same bits.
    EXPECT_TRUE(vk.chain_shaders) << d;
    EXPECT_FALSE(ref.chain_shaders) << d;
    expect_same_bits(ref.unconstrained, vk.unconstrained, "unconstrained draws " + d);
    expect_same_bits(ref.log_density, vk.log_density, "log density " + d);
    expect_same_bits(ref.accept_stat, vk.accept_stat, "accept_stat " + d);
    expect_same_bits(ref.step_size, vk.step_size, "step size " + d);
    expect_same_bits(ref.inverse_mass, vk.inverse_mass, "inverse mass " + d);
  }
}

TEST_P(Sampler, ChainShadersAndTheVectorizedPathGiveTheSameDraws) {
  NXV_REQUIRE_VULKAN();
  const mcmc::SampleOptions o = small_run(GetParam(), vulkan::backend());
  mcmc::Samples shader, vectorized;
  {
    const test::EnvGuard on("NXV_CHAIN_SHADERS", "1");
    shader = mcmc::sample(small_model(), o);
  }
  {
    const test::EnvGuard off("NXV_CHAIN_SHADERS", "0");
    vectorized = mcmc::sample(small_model(), o);
  }
  EXPECT_TRUE(shader.chain_shaders);
  EXPECT_FALSE(vectorized.chain_shaders);
  expect_same_bits(vectorized.unconstrained, shader.unconstrained, "unconstrained draws");
  expect_same_bits(vectorized.energy, shader.energy, "energy");
  expect_same_bits(vectorized.num_steps, shader.num_steps, "leapfrog steps");
  expect_same_bits(vectorized.inverse_mass, shader.inverse_mass, "inverse mass");
}

TEST_P(Sampler, ChainDrawsDoNotDependOnTheNumberOfChains) {
  for (Backend* backend : {&reference_backend(), vulkan::available() ? &vulkan::backend() : nullptr}) {
    if (!backend) continue;
    const mcmc::Samples four = mcmc::sample(small_model(), small_run(GetParam(), *backend, 4));
    const mcmc::Samples nine = mcmc::sample(small_model(), small_run(GetParam(), *backend, 9));
    const auto chain2 = [](const Tensor& t) {
      Shape starts = Shape::filled(t.rank(), 0), lengths = t.shape();
      starts[0] = 2;
      lengths[0] = 1;
      return slice(t, starts, lengths);
    };
    expect_same_bits(chain2(four.unconstrained), chain2(nine.unconstrained),
                     "chain 2 on " + std::string(backend->name()));
    expect_same_bits(chain2(four.step_size), chain2(nine.step_size),
                     "chain 2's step size on " + std::string(backend->name()));
  }
}

TEST_P(Sampler, OneCompiledStepServesEveryIteration) {
  // The dispatch count is reported for HMC; NUTS's traces are counted on the reference backend (lavapipe: minutes).
  const bool on_vulkan = vulkan::available() && GetParam() == mcmc::Sampler::hmc;
  Backend& backend = on_vulkan ? vulkan::backend() : reference_backend();
  mcmc::SampleOptions o = small_run(GetParam(), backend);
  const auto run = [&](std::uint64_t& traces, vulkan::Counters& work) {
    const std::uint64_t t0 = trace_count();
    const vulkan::Counters c0 = on_vulkan ? vulkan::counters() : vulkan::Counters{};
    mcmc::sample(small_model(), o);
    traces = trace_count() - t0;
    if (!on_vulkan) return;
    const vulkan::Counters c1 = vulkan::counters();
    work.dispatches = c1.dispatches - c0.dispatches;
    work.submits = c1.submits - c0.submits;
  };
  std::uint64_t short_traces = 0, long_traces = 0;
  vulkan::Counters short_work, long_work;
  run(short_traces, short_work);
  const std::int64_t short_iterations = o.warmup + o.samples;
  o.warmup *= 3;
  o.samples *= 3;
  run(long_traces, long_work);
  // The same traces for three times the iterations: none is made per iteration.
  EXPECT_EQ(long_traces, short_traces);
  EXPECT_LE(short_traces, 3u);  // the initial points, the step-size search, the step
  if (on_vulkan) {
    // For the report: the marginal cost of an iteration (both runs make two step-size searches; the difference
    // also holds the longer run's extra stacking of draws, a few dispatches per 16 iterations).
    const double per = 1.0 / (o.warmup + o.samples - short_iterations);
    std::printf("  per iteration on Vulkan (%d leapfrog steps): %.1f dispatches, %.2f submits\n", o.num_steps,
                (long_work.dispatches - short_work.dispatches) * per, (long_work.submits - short_work.submits) * per);
  }
}

TEST_P(Sampler, HugeFixedStepSizeIsFlaggedByDivergences) {
  mcmc::SampleOptions o = small_run(GetParam(), reference_backend(), 16);
  o.step_size = 50;
  o.adapt_step_size = false;
  o.adapt_mass_matrix = false;
  const mcmc::Samples s = mcmc::sample(correlated_gaussian(0.5), o);
  const std::int64_t n = s.diverging.size();
  // With eps = 50 on unit scales every trajectory blows up (energy error >> 1000), so nearly all are divergent.
  EXPECT_GE(mcmc::count_divergences(s.diverging), n * 9 / 10) << "of " << n;
  EXPECT_EQ(s.summary().divergences, mcmc::count_divergences(s.diverging));
}

TEST_P(Sampler, NealsFunnelIsFlagged) {
  // Centred: v ~ N(0, 3), x_i ~ N(0, exp(v / 2)), i = 1..9 (d = 10). The neck's curvature defeats a step size
  // adapted in the mouth.
  mcmc::Model m;
  m.param("v").param("x", {9});
  m.log_density = [](const Params& p) {
    const Tensor &v = p.at("v"), &x = p.at("x");
    return dist::Normal(like(v, 0.0), like(v, 3.0)).log_prob(v) +
           sum(dist::Normal(like(v, 0.0), exp(v * 0.5)).log_prob(x));
  };
  // NUTS on the reference backend: the funnel's deep trees cost lavapipe minutes (the draws are the same bits).
  const bool on_vulkan = vulkan::available() && GetParam() == mcmc::Sampler::hmc;
  mcmc::SampleOptions o =
      small_run(GetParam(), on_vulkan ? vulkan::backend() : reference_backend(), on_vulkan ? 64 : 16);
  o.warmup = 150;
  o.samples = 100;
  o.num_steps = 8;
  const mcmc::Samples s = mcmc::sample(m, o);
  const std::int64_t divergences = mcmc::count_divergences(s.diverging);
  const double rhat_v = mcmc::split_rhat(s.draws.at("v")).item();
  std::printf("  funnel: %lld divergences in %lld transitions, R-hat(v) = %.3f\n", static_cast<long long>(divergences),
              static_cast<long long>(s.diverging.size()), rhat_v);
  EXPECT_GT(divergences, 0);
}

INSTANTIATE_TEST_SUITE_P(Samplers, Sampler, ::testing::ValuesIn(kSamplers),
                         [](const auto& info) { return sampler_name(info.param); });

TEST(McmcAdaptation, WindowsFollowStan) {
  // Stan's 1000-iteration warm-up: buffer 75, windows 25, 50, 100, 200, 500, buffer 50.
  const mcmc::detail::WindowSchedule w = mcmc::detail::window_schedule(1000);
  std::vector<std::int64_t> ends;
  for (std::int64_t i = 0; i < 1000; ++i)
    if (w.window_end[i]) ends.push_back(i);
  EXPECT_EQ(ends, (std::vector<std::int64_t>{99, 149, 249, 449, 949}));
  EXPECT_FALSE(w.in_window[74]);
  EXPECT_TRUE(w.in_window[75]);
  EXPECT_TRUE(w.in_window[949]);
  EXPECT_FALSE(w.in_window[950]);
  // Shorter than 150: 15% / 75% / 10%, one window.
  const mcmc::detail::WindowSchedule s = mcmc::detail::window_schedule(100);
  EXPECT_FALSE(s.in_window[14]);
  EXPECT_TRUE(s.in_window[15]);
  EXPECT_TRUE(s.window_end[89]);
  EXPECT_FALSE(s.in_window[90]);
  EXPECT_EQ(std::count(s.window_end.begin(), s.window_end.end(), true), 1);
  // Below 20 iterations: no windows (Stan's rule).
  const mcmc::detail::WindowSchedule none = mcmc::detail::window_schedule(19);
  EXPECT_EQ(std::count(none.in_window.begin(), none.in_window.end(), true), 0);
}

TEST(McmcAdaptation, StepSizeSearchCrossesAcceptanceOfEightTenths) {
  // On N(0, 1) in 1-D one leapfrog step of size eps from a typical point has acceptance ~exp(-eps^4 / 8 ...): the
  // search from 1e-3 must grow eps by doubling and stop in the band where a single step's acceptance crosses 0.8.
  const mcmc::LogDensity f = [](const Tensor& q) { return sum(square(q)) * -0.5; };
  const mcmc::ChainState s = mcmc::init_state(f, tensor<double>({0.8}, {1}));
  // One chain's state: the batched initial state with its chain axis dropped.
  mcmc::detail::AdaptState a = mcmc::detail::initial_adapt_state(1, 1, 1e-3, DType::f64, reference_backend());
  for (Tensor* t : {&a.step_size, &a.mu, &a.log_step_bar, &a.h_bar, &a.count, &a.n}) *t = reshape(*t, {});
  a.inverse_mass = reshape(a.inverse_mass, {1});
  a.mean = reshape(a.mean, {1});
  a.m2 = reshape(a.m2, {1});
  const mcmc::detail::AdaptState b = mcmc::detail::restart_step_size(f, s, a, nn::key_tensor(key(9)));
  const double eps = b.step_size.item();
  // A power-of-two multiple of the start, grown (not shrunk), and large enough to have left the tiny-step regime.
  const double doublings = std::log2(eps / 1e-3);
  EXPECT_NEAR(doublings, std::round(doublings), 1e-9);
  EXPECT_GE(eps, 0.25);
  EXPECT_LE(eps, 8.0);
  EXPECT_NEAR(b.mu.item(), std::log(10 * eps), 1e-12);
  EXPECT_EQ(b.count.item(), 0);
}

// ---- errors ------------------------------------------------------------------------------------------------------
void expect_error(const mcmc::Model& m, const mcmc::SampleOptions& o, const std::string& needle) {
  try {
    mcmc::sample(m, o);
    FAIL() << "no error; expected one containing '" << needle << "'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("mcmc"), std::string::npos) << e.what();
  }
}

TEST(McmcSampleErrors, BadOptionsNameTheOption) {
  const mcmc::Model m = small_model();
  const auto with = [](auto change) {
    mcmc::SampleOptions o;
    o.sampler = mcmc::Sampler::hmc;
    o.warmup = 0;
    o.samples = 1;
    change(o);
    return o;
  };
  expect_error(m, with([](auto& o) { o.chains = 0; }), "chains");
  expect_error(m, with([](auto& o) { o.warmup = -1; }), "warmup");
  expect_error(m, with([](auto& o) { o.samples = 0; }), "samples");
  expect_error(m, with([](auto& o) { o.dtype = DType::s32; }), "dtype");
  expect_error(m, with([](auto& o) { o.num_steps = 0; }), "num_steps");
  expect_error(m, with([](auto& o) { o.max_tree_depth = 31; }), "max_tree_depth");
  expect_error(m, with([](auto& o) { o.max_tree_depth = 0; }), "max_tree_depth");
  expect_error(m, with([](auto& o) { o.target_accept = 1.0; }), "target_accept");
  expect_error(m, with([](auto& o) { o.step_size = -1; }), "step_size");
  expect_error(m, with([](auto& o) { o.progress_every = 0; }), "progress_every");
  expect_error(m, with([](auto& o) { o.step_size_jitter = 1.5; }), "step_size_jitter");
  expect_error(m, with([](auto& o) { o.init = {{"nope", scalar(1.0, DType::f64)}}; }), "nope");
  expect_error(mcmc::Model{}, with([](auto&) {}), "without parameters");
}

TEST(McmcSampleErrors, ANonScalarModelIsAnError) {
  mcmc::Model m;
  m.param("x", {3});
  m.log_density = [](const Params& p) { return p.at("x"); };
  mcmc::SampleOptions o;
  o.sampler = mcmc::Sampler::hmc;
  expect_error(m, o, "rank-0");
}

TEST(McmcSampleErrors, MinusInfinityEverywhereNamesTheParameter) {
  mcmc::Model m;
  m.param("scale");
  // HalfNormal of a negative value: -inf at every initial point (and a zero gradient: the message names the
  // parameter by its value).
  m.log_density = [](const Params& p) {
    return dist::HalfNormal(like(p.at("scale"), 1.0)).log_prob(-1.0 - square(p.at("scale")));
  };
  mcmc::SampleOptions o;
  o.sampler = mcmc::Sampler::hmc;
  o.chains = 3;
  expect_error(m, o, "'scale'");
  expect_error(m, o, "-inf");
  // Given initial values: the same error without retries.
  o.init = {{"scale", scalar(1.0, DType::f64)}};
  expect_error(m, o, "'scale'");
}

TEST(McmcSampleErrors, ANanGradientNamesItsParameter) {
  mcmc::Model m;
  m.param("mu").param("b");
  // sqrt(0 * b^2) is 0, its derivative inf * 0 = NaN: a finite density with a NaN gradient in b only.
  m.log_density = [](const Params& p) {
    return -0.5 * (square(p.at("mu")) + square(p.at("b"))) + sqrt(square(p.at("b")) * 0.0);
  };
  mcmc::SampleOptions o;
  o.sampler = mcmc::Sampler::hmc;
  o.chains = 2;
  try {
    mcmc::sample(m, o);
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("gradient of parameter 'b'"), std::string::npos) << what;
    EXPECT_EQ(what.find("'mu'"), std::string::npos) << what;
  }
}

TEST(McmcSampleErrors, ProgressIsReported) {
  mcmc::SampleOptions o = small_run(mcmc::Sampler::hmc, reference_backend(), 2);
  o.progress_every = 10;
  std::vector<std::int64_t> seen;
  o.on_progress = [&](const mcmc::Progress& p) {
    seen.push_back(p.iteration);
    EXPECT_EQ(p.total, 52);
    EXPECT_EQ(p.warmup, p.iteration <= 40);
  };
  mcmc::sample(small_model(), o);
  EXPECT_EQ(seen, (std::vector<std::int64_t>{10, 20, 30, 40, 50, 52}));
}

// The phases partition the call's wall time: none negative, none missing (each of these runs has every phase),
// and together no more than the whole call. Not a speed test: it checks which clock each phase reads.
// HMC's transitions take num_steps leapfrog steps each: the warm-up's count is warmup x chains x num_steps. NUTS's
// count is at least one step per transition and chain, and the sampling phase's equals sum(num_steps).
TEST(McmcSampleErrors, WarmupGradientEvaluationsAreCounted) {
  const mcmc::SampleOptions hmc = small_run(mcmc::Sampler::hmc, reference_backend(), 3);
  const mcmc::Samples h = mcmc::sample(small_model(), hmc);
  EXPECT_EQ(h.warmup_gradient_evaluations, hmc.warmup * hmc.chains * hmc.num_steps);
  const mcmc::SampleOptions nuts = small_run(mcmc::Sampler::nuts, reference_backend(), 2);
  const mcmc::Samples n = mcmc::sample(small_model(), nuts);
  EXPECT_GE(n.warmup_gradient_evaluations, nuts.warmup * nuts.chains);
  EXPECT_LE(n.warmup_gradient_evaluations, nuts.warmup * nuts.chains * ((std::int64_t{1} << nuts.max_tree_depth) - 1));
  mcmc::SampleOptions none = nuts;
  none.warmup = 0;
  EXPECT_EQ(mcmc::sample(small_model(), none).warmup_gradient_evaluations, 0);
}

TEST(McmcSampleErrors, TimingSplitsTheRunIntoItsPhases) {
  const mcmc::SampleOptions o = small_run(mcmc::Sampler::nuts, reference_backend(), 2);
  const auto start = std::chrono::steady_clock::now();
  const mcmc::Samples r = mcmc::sample(small_model(), o);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const mcmc::Timing& t = r.timing;
  for (double phase : {t.setup, t.first_iteration, t.warmup, t.sampling}) EXPECT_GT(phase, 0.0);
  EXPECT_LE(t.setup + t.first_iteration + t.warmup + t.sampling, wall);
}

}  // namespace
}  // namespace nxv::mcmc_test
