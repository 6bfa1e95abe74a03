// mcmc::sample: every chain at once, one jitted step per iteration (the vectorized transition and adaptation),
// Stan's warm-up, and the draws assembled into Samples at the end.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

#include "core/settings.hpp"
#include "mcmc/adaptation.hpp"
#include "mcmc/dist_support.hpp"
#include "nxv/grad.hpp"
#include "nxv/mcmc.hpp"
#include "nxv/nn.hpp"
#include "nxv/vectorize.hpp"
#include "trace/jit_map.hpp"

namespace nxv::mcmc {

namespace {

constexpr const char* kOp = "mcmc::sample";
// Stan's limit on initialisation attempts.
constexpr int kInitAttempts = 100;
// Key streams of a chain besides its iterations t >= 0 (fold_in(chain key, t)): initial point attempt a is
// fold_in(chain key, -1 - a), the step-size search after window w is fold_in(chain key, kSearchStream - w).
constexpr std::int64_t kSearchStream = -1000;
// NXV_CHAIN_SHADERS=auto runs chain shaders below this many chains, where the backend generates them with a
// workgroup per chain and every value in shared memory (the instance compiler declines the other forms in auto).
// On the H100 (bench/RESULTS.md, 2026-12-07): logistic 8 x 200 at 1024 chains sampled 1.6x (HMC) and 2.1x (NUTS)
// faster so than vectorized, but NUTS at 65536 chains was slower (the group mapping fills the GPU at ~1024 chains
// and then scales linearly, while the vectorized path still gains), as were one invocation per chain at 1024 chains
// (3-5x slower) and the regime model, whose values spill to scratch memory (5.5x slower).
constexpr std::int64_t kChainShaderMaxChains = 16384;
// Per-iteration outputs are stacked on the device this many at a time before they are copied to the host.
constexpr std::size_t kStackChunk = 16;

Tensor is_finite(const Tensor& x) { return logical_not(logical_or(is_nan(x), is_infinity(x))); }

void check_options(const Model& model, const SampleOptions& o) {
  NXV_CHECK(o.chains >= 1, kOp, "got chains = ", o.chains, ", expected at least 1");
  NXV_CHECK(o.warmup >= 0, kOp, "got warmup = ", o.warmup, ", expected at least 0");
  NXV_CHECK(o.samples >= 1, kOp, "got samples = ", o.samples, ", expected at least 1");
  NXV_CHECK(o.dtype == DType::f32 || o.dtype == DType::f64, kOp, "got dtype ", name(o.dtype), ", expected f32 or f64");
  NXV_CHECK(o.num_steps >= 1, kOp, "got num_steps = ", o.num_steps, ", expected at least 1");
  NXV_CHECK(o.max_tree_depth >= 1 && o.max_tree_depth <= 30, kOp, "got max_tree_depth = ", o.max_tree_depth,
            ", expected 1 to 30");
  NXV_CHECK(o.target_accept > 0 && o.target_accept < 1, kOp, "got target_accept = ", o.target_accept,
            ", expected a value in (0, 1)");
  NXV_CHECK(std::isfinite(o.step_size) && o.step_size > 0, kOp, "got step_size = ", o.step_size,
            ", expected a finite positive value");
  NXV_CHECK(o.step_size_jitter >= 0 && o.step_size_jitter <= 1, kOp, "got step_size_jitter = ", o.step_size_jitter,
            ", expected a value in [0, 1]");
  NXV_CHECK(o.max_energy_error > 0, kOp, "got max_energy_error = ", o.max_energy_error, ", expected > 0");
  NXV_CHECK(std::isfinite(o.init_radius) && o.init_radius >= 0, kOp, "got init_radius = ", o.init_radius,
            ", expected a finite value >= 0");
  NXV_CHECK(o.progress_every >= 1, kOp, "got progress_every = ", o.progress_every, ", expected at least 1");
  NXV_CHECK(!model.params.empty(), kOp, "got a model without parameters", ", expected at least one (Model::param)");
  NXV_CHECK(static_cast<bool>(model.log_density), kOp, "got a model without a log density",
            ", expected Model::log_density to be set");
  for (const auto& [name, value] : o.init) {
    bool declared = false;
    for (const ParamSpec& p : model.params) declared = declared || p.name == name;
    NXV_CHECK(declared, kOp, "got an initial value for '", name, "'", ", expected only declared parameters");
  }
}

// The chain-major stack of per-iteration [C, ...] tensors: [C, n, ...] on the host.
Tensor stack_iterations(const std::vector<Tensor>& xs) {
  std::vector<Tensor> chunks;
  for (std::size_t i = 0; i < xs.size(); i += kStackChunk) {
    const std::vector<Tensor> part(xs.begin() + i, xs.begin() + std::min(xs.size(), i + kStackChunk));
    chunks.push_back(stack(part, 1).to_host());
  }
  return chunks.size() == 1 ? chunks[0] : concatenate(chunks, 1);
}

std::string describe(const Tensor& x) {
  std::ostringstream s;
  const std::vector<double> v = as_type(x, DType::f64).to_vector<double>();
  s << (x.rank() == 0 ? "" : "[");
  for (std::size_t i = 0; i < v.size() && i < 8; ++i) s << (i ? ", " : "") << v[i];
  s << (v.size() > 8 ? ", ..." : "") << (x.rank() == 0 ? "" : "]");
  return s.str();
}

// Why chain c's candidate (q, lp, g) is not a valid start: the parameters whose constrained value or gradient is not
// finite, or, when the log density alone is, every parameter's value.
[[noreturn]] void fail_init(const Model& model, const Tensor& q, const Tensor& lp, const Tensor& g, bool from_init) {
  const Params x = constrain(model, q);
  std::ostringstream why;
  why << kOp << ": "
      << (from_init ? "the initial values give" : "no initial point found in 100 attempts: the last gave")
      << " log density " << lp.item();
  std::string blamed;
  std::int64_t offset = 0;
  for (const ParamSpec& p : model.params) {
    const std::int64_t n = num_elements(p.unconstrained_shape());
    const Tensor gp = slice(g, {offset}, {n});
    const bool value_ok = all(is_finite(x.at(p.name))).item() != 0, grad_ok = all(is_finite(gp)).item() != 0;
    if (!value_ok) blamed += "; parameter '" + p.name + "' is not finite: " + describe(x.at(p.name));
    if (!grad_ok) blamed += "; the gradient of parameter '" + p.name + "' is not finite: " + describe(gp);
    offset += n;
  }
  if (blamed.empty())
    for (const ParamSpec& p : model.params) blamed += "; parameter '" + p.name + "' = " + describe(x.at(p.name));
  why << blamed << ", expected a finite log density and gradient";
  throw Error(why.str());
}

struct Start {
  Tensor q, lp, g;  // [C, d], [C], [C, d]
};

Start initial_points(const Model& model, const LogDensity& f, const SampleOptions& o, const Tensor& chain_keys,
                     Backend& be) {
  const std::int64_t d = model.dimension();
  const auto evaluate = [&](const Tensor& q) {
    auto [lp, g] = value_and_grad(f)(q);
    return std::make_tuple(q, lp, g, logical_and(is_finite(lp), all(is_finite(g))));
  };
  if (!o.init.empty()) {
    Params init;
    for (const auto& [k, v] : o.init) init.emplace(k, as_type(v.to(be), o.dtype));
    const Tensor q0 = unconstrain(model, init);
    const auto [q, lp, g, ok] = evaluate(q0);
    if (ok.item() == 0) fail_init(model, q.to_host(), lp.to_host(), g.to_host(), true);
    return {broadcast(q, {o.chains, d}), broadcast(lp, {o.chains}), broadcast(g, {o.chains, d})};
  }
  const double r = o.init_radius;
  const auto candidate = jit([&](const Tensor& keys, const Tensor& attempt) {
    return vectorize(
        [&](const Tensor& k, const Tensor& a) {
          const Tensor u = dist::detail::uniform_open(nn::fold_in(k, -1 - a), {d}, o.dtype, 0);
          return evaluate((u * 2.0 - 1.0) * r);
        },
        {0, not_batched})(keys, attempt);
  });
  Start s;
  Tensor ok;
  for (int a = 0; a < kInitAttempts; ++a) {
    const auto [q, lp, g, good] = candidate(chain_keys, scalar(a, DType::s64, be));
    if (a == 0) {
      s = {q, lp, g};
      ok = good;
    } else {
      // Chains that already have a start keep it; the others take this attempt's point.
      const Tensor take = logical_and(good, logical_not(ok));
      const Tensor take2 = expand_dims(take, 1);
      s = {select(take2, q, s.q), select(take, lp, s.lp), select(take2, g, s.g)};
      ok = logical_or(ok, good);
    }
    if (all(ok).item() != 0) return s;
    if (a + 1 == kInitAttempts) {
      const auto c = static_cast<std::int64_t>(argmin(as_type(ok, DType::s64)).item());
      const auto row = [&](const Tensor& t) { return reshape(slice(t.to_host(), {c, 0}, {1, d}), {d}); };
      fail_init(model, row(q), reshape(slice(lp.to_host(), {c}, {1}), {}), row(g), false);
    }
  }
  return s;
}

}  // namespace

Samples sample(const Model& model, const SampleOptions& o) {
  check_options(model, o);
  using Clock = std::chrono::steady_clock;
  Clock::time_point phase_start = Clock::now();
  // The seconds since the last phase ended, after `done` is on the host (so the phase's GPU work is in it).
  const auto end_phase = [&](const Tensor& done) {
    (void)done.to_host();
    const Clock::time_point now = Clock::now();
    const double s = std::chrono::duration<double>(now - phase_start).count();
    phase_start = now;
    return s;
  };
  Timing timing;
  Backend& be = o.backend ? *o.backend : default_backend();
  const LogDensity f = unconstrained_log_density(model);
  const std::int64_t C = o.chains, d = model.dimension();
  // Chain c's key: fold_in(key(seed), c); its key at iteration t: fold_in(that, t). Neither depends on C.
  const Tensor seed_key = nn::key_tensor(key(o.seed), be);
  const Tensor chain_keys =
      vectorize([&](const Tensor& c) { return nn::fold_in(seed_key, c); })(iota({C}, 0, DType::s64, be));

  Start start = initial_points(model, f, o, chain_keys, be);
  std::vector<Tensor> state = {start.q, start.lp, start.g};
  for (const Tensor& t : detail::pack(detail::initial_adapt_state(C, d, o.step_size, o.dtype, be))) state.push_back(t);

  // The one-chain step: the transition, then the adaptation as the control flags say. control = s64 [4]:
  // (iteration, dual averaging on, in a variance window, a window ends).
  const auto one_step = [&](const Tensor& chain_key, const std::vector<Tensor>& st, const Tensor& control) {
    const auto at = [&](std::int64_t i) { return reshape(slice(control, {i}, {1}), {}); };
    const Tensor k = nn::fold_in(chain_key, at(0));
    const ChainState s{st[0], st[1], st[2]};
    const detail::AdaptState a = detail::unpack(std::span(st).subspan(3));
    // Kernels draw from the non-negative streams of k (fold_in(k, 0), ...); the jitter takes stream -1.
    const Tensor jitter =
        dist::detail::uniform_open(nn::fold_in(k, scalar(-1, DType::s64, k.backend())), {}, o.dtype, 0) * 2.0 - 1.0;
    const KernelParams kp{a.step_size * (1.0 + o.step_size_jitter * jitter), a.inverse_mass};
    const Transition t = o.sampler == Sampler::hmc ? hmc_transition(f, s, kp, k, o.num_steps, o.max_energy_error)
                                                   : nuts_transition(f, s, kp, k, o.max_tree_depth, o.max_energy_error);
    const detail::AdaptFlags flags{not_equal(at(1), 0), not_equal(at(2), 0), not_equal(at(3), 0)};
    const detail::AdaptState b = detail::adapt(a, t.stats.accept_stat, t.state.position, flags, o.target_accept);
    std::vector<Tensor> out = {t.state.position, t.state.log_density, t.state.gradient};
    for (const Tensor& x : detail::pack(b)) out.push_back(x);
    for (const Tensor& x :
         {t.stats.accept_stat, t.stats.diverging, t.stats.num_steps, t.stats.tree_depth, t.stats.energy})
      out.push_back(x);
    return out;
  };
  // Every chain's step: a chain shader (one invocation per chain runs its whole transition) where the backend can
  // generate it, else jit(vectorize(one_step)). Inputs: the chain keys, the state, the control (shared).
  const std::string chain_shader_mode = settings::value(settings::Id::CHAIN_SHADERS);
  const bool chain_shaders = chain_shader_mode != "0" && (chain_shader_mode != "auto" || C < kChainShaderMaxChains);
  std::vector<bool> per_chain(1 + state.size() + 1, true);
  per_chain.back() = false;
  nxv::detail::JitMap step_map(
      [&](std::span<const Tensor> in) {
        return one_step(in[0], std::vector<Tensor>(in.begin() + 1, in.end() - 1), in.back());
      },
      per_chain, chain_shaders, chain_shader_mode == "auto");
  // [keys, state..., last]: the flat inputs both maps take.
  const auto inputs = [](const Tensor& keys, const std::vector<Tensor>& st, const Tensor& last) {
    std::vector<Tensor> in = {keys};
    in.insert(in.end(), st.begin(), st.end());
    in.push_back(last);
    return in;
  };
  const auto step = [&](const Tensor& keys, const std::vector<Tensor>& st, const Tensor& control) {
    return step_map(inputs(keys, st, control));
  };
  nxv::detail::JitMap search_map(
      [&](std::span<const Tensor> in) {
        const std::vector<Tensor> s(in.begin() + 1, in.end() - 1);
        const detail::AdaptState a = detail::unpack(std::span(s).subspan(3));
        return detail::pack(
            detail::restart_step_size(f, {s[0], s[1], s[2]}, a, nn::fold_in(in[0], kSearchStream - in.back())));
      },
      per_chain, chain_shaders, chain_shader_mode == "auto");
  const auto search = [&](const Tensor& keys, const std::vector<Tensor>& st, const Tensor& window) {
    return search_map(inputs(keys, st, window));
  };
  const auto restart = [&](std::int64_t window) {
    const std::vector<Tensor> a = search(chain_keys, state, scalar(window, DType::s64, be));
    std::copy(a.begin(), a.end(), state.begin() + 3);
  };

  const detail::WindowSchedule windows = detail::window_schedule(o.warmup);
  const std::int64_t total = o.warmup + o.samples;
  std::vector<Tensor> q, lp, accept, diverging, steps, depth, energy, warmup_diverging, warmup_steps;
  std::int64_t divergences = 0, window = 0;
  bool every_step_per_chain = true;
  std::size_t counted = 0;  // sampling iterations whose divergences `divergences` holds
  if (o.warmup > 0 && o.adapt_step_size) restart(window++);
  timing.setup = end_phase(state[3]);
  for (std::int64_t i = 0; i < total; ++i) {
    const bool warm = i < o.warmup;
    const bool in_window = warm && o.adapt_mass_matrix && windows.in_window[i];
    const bool window_end = warm && o.adapt_mass_matrix && windows.window_end[i];
    const Tensor control = tensor<std::int64_t>({i, warm && o.adapt_step_size, in_window, window_end}, {4}, be);
    std::vector<Tensor> out = step(chain_keys, state, control);
    every_step_per_chain = every_step_per_chain && step_map.per_instance();
    std::copy(out.begin(), out.begin() + state.size(), state.begin());
    const std::size_t s = state.size();
    if (i == 0) timing.first_iteration = end_phase(state[3]);
    if (warm) {
      warmup_diverging.push_back(out[s + 1]);
      warmup_steps.push_back(out[s + 2]);
      if (window_end && o.adapt_step_size) restart(window++);
      if (i + 1 == o.warmup && o.adapt_step_size)
        state[3] = detail::final_step_size(detail::unpack(std::span(state).subspan(3)));
      if (i + 1 == o.warmup && i > 0) timing.warmup = end_phase(state[3]);
    } else {
      q.push_back(out[0]);
      lp.push_back(out[1]);
      accept.push_back(out[s]);
      diverging.push_back(out[s + 1]);
      steps.push_back(out[s + 2]);
      depth.push_back(out[s + 3]);
      energy.push_back(out[s + 4]);
    }
    if (o.on_progress && ((i + 1) % o.progress_every == 0 || i + 1 == total)) {
      if (counted < diverging.size()) {
        const std::vector<Tensor> recent(diverging.begin() + counted, diverging.end());
        divergences += sum(as_type(stack(recent), DType::s64)).item();
        counted = diverging.size();
      }
      o.on_progress({i + 1, total, i + 1 <= o.warmup, divergences});
    }
  }

  Samples r;
  r.log_density = stack_iterations(lp);  // the last draws on the host: the sampling phase's end
  timing.sampling = end_phase(r.log_density);
  r.timing = timing;
  r.chain_shaders = every_step_per_chain;
  for (const ParamSpec& p : model.params) r.names.push_back(p.name);
  r.unconstrained = stack_iterations(q);
  r.draws = constrain(model, r.unconstrained);
  r.accept_stat = stack_iterations(accept);
  r.energy = stack_iterations(energy);
  r.diverging = stack_iterations(diverging);
  r.num_steps = stack_iterations(steps);
  r.tree_depth = stack_iterations(depth);
  r.step_size = state[3].to_host();
  r.inverse_mass = state[3 + 5].to_host();
  if (!warmup_diverging.empty()) r.warmup_divergences = count_divergences(stack_iterations(warmup_diverging));
  if (!warmup_steps.empty())
    r.warmup_gradient_evaluations =
        static_cast<std::int64_t>(sum(as_type(stack_iterations(warmup_steps), DType::s64)).item());
  return r;
}

Summary Samples::summary() const {
  std::vector<std::pair<std::string, Tensor>> named;
  for (const std::string& n : names) named.emplace_back(n, draws.at(n));
  return summarize(named, count_divergences(diverging));
}

}  // namespace nxv::mcmc
