// Stan's window adaptation for one chain (src/mcmc/adaptation.hpp): the window schedule on the host, the dual
// averaging, Welford variance and step-size search as ops.
#include "mcmc/adaptation.hpp"

#include <cmath>
#include <tuple>

#include "nxv/control_flow.hpp"
#include "nxv/nn.hpp"

namespace nxv::mcmc::detail {

namespace {

// Hoffman and Gelman (2014), section 3.2, with Stan's defaults.
constexpr double kGamma = 0.05, kT0 = 10.0, kKappa = 0.75;
// Stan's window sizes (windowed_adaptation).
constexpr std::int64_t kInitBuffer = 75, kTermBuffer = 50, kBaseWindow = 25;

}  // namespace

WindowSchedule window_schedule(std::int64_t warmup) {
  WindowSchedule w{std::vector<bool>(warmup, false), std::vector<bool>(warmup, false)};
  if (warmup < 20) return w;  // Stan: "No variance estimation is performed for num_warmup < 20"
  std::int64_t init = kInitBuffer, term = kTermBuffer, base = kBaseWindow;
  if (init + base + term > warmup) {
    init = static_cast<std::int64_t>(0.15 * warmup);
    term = static_cast<std::int64_t>(0.1 * warmup);
    base = warmup - (init + term);
  }
  // windowed_adaptation::restart, adaptation_window, end_adaptation_window and compute_next_window, step by step.
  std::int64_t size = base, next = init + size - 1;
  const std::int64_t last = warmup - term - 1;
  for (std::int64_t i = 0; i < warmup; ++i) {
    w.in_window[i] = i >= init && i < warmup - term;
    w.window_end[i] = i == next;
    if (i != next || next == last) continue;
    size *= 2;
    next = i + size;
    if (next != last && next + 2 * size >= warmup - term) next = last;
  }
  return w;
}

std::vector<Tensor> pack(const AdaptState& a) {
  return {a.step_size, a.mu, a.log_step_bar, a.h_bar, a.count, a.inverse_mass, a.mean, a.m2, a.n};
}

AdaptState unpack(std::span<const Tensor> f) {
  NXV_CHECK(f.size() == kAdaptFields, "mcmc::detail::unpack", "got ", f.size(), " fields, expected ", kAdaptFields);
  return {f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]};
}

AdaptState initial_adapt_state(std::int64_t chains, std::int64_t d, double eps0, DType dtype, Backend& backend) {
  const Tensor zero = zeros({chains}, dtype, backend);
  return {full({chains}, eps0, dtype, backend),
          full({chains}, std::log(10.0 * eps0), dtype, backend),
          zero,
          zero,
          zero,
          ones({chains, d}, dtype, backend),
          zeros({chains, d}, dtype, backend),
          zeros({chains, d}, dtype, backend),
          zero};
}

AdaptState adapt(const AdaptState& a, const Tensor& accept_stat, const Tensor& position, const AdaptFlags& flags,
                 double target_accept) {
  AdaptState b = a;
  // Dual averaging (Stan's stepsize_adaptation::learn_stepsize).
  const Tensor m = a.count + 1.0;
  const Tensor eta = 1.0 / (m + kT0);
  const Tensor h_bar = (1.0 - eta) * a.h_bar + eta * (target_accept - min(accept_stat, 1.0));
  const Tensor log_step = a.mu - h_bar * sqrt(m) / kGamma;
  const Tensor x_eta = exp(log(m) * -kKappa);
  const Tensor log_step_bar = (1.0 - x_eta) * a.log_step_bar + x_eta * log_step;
  b.count = select(flags.step_size, m, a.count);
  b.h_bar = select(flags.step_size, h_bar, a.h_bar);
  b.log_step_bar = select(flags.step_size, log_step_bar, a.log_step_bar);
  b.step_size = select(flags.step_size, exp(log_step), a.step_size);
  // Welford's update of the window's mean and sum of squared deviations.
  const Tensor n = a.n + 1.0;
  const Tensor delta = position - a.mean;
  const Tensor mean = a.mean + delta / n;
  const Tensor m2 = a.m2 + (position - mean) * delta;
  b.n = select(flags.in_window, n, a.n);
  b.mean = select(flags.in_window, mean, a.mean);
  b.m2 = select(flags.in_window, m2, a.m2);
  // At a window's end: the regularised variance (shrunk towards 1e-3, Stan's), and an empty estimator.
  const Tensor variance = b.m2 / (b.n - 1.0);
  const Tensor regularised = (b.n / (b.n + 5.0)) * variance + 1e-3 * (5.0 / (b.n + 5.0));
  b.inverse_mass = select(flags.window_end, regularised, a.inverse_mass);
  const Tensor zero = zeros({}, a.n.dtype(), a.n.backend());
  b.n = select(flags.window_end, zero, b.n);
  b.mean = select(flags.window_end, zero, b.mean);
  b.m2 = select(flags.window_end, zero, b.m2);
  return b;
}

AdaptState restart_step_size(const LogDensity& f, const ChainState& s, const AdaptState& a, const Tensor& key) {
  const DType dtype = s.position.dtype();
  Backend& backend = s.position.backend();
  const double log08 = std::log(0.8);
  // base_hmc::init_stepsize: the first momentum fixes the direction (up while one step's acceptance exceeds 0.8),
  // later ones move eps until the acceptance crosses 0.8. A step size that is not in (0, 1e7] is left alone.
  const Tensor valid = logical_and(greater(a.step_size, 0.0), less_equal(a.step_size, 1e7));
  const Tensor plus = scalar(1.0, dtype, backend), minus = scalar(-1.0, dtype, backend);
  using Carry = std::tuple<Tensor, Tensor, Tensor>;  // eps, direction (+1 or -1), done
  const auto trip = [&](const Tensor& i, const Carry& c) {
    const auto& [eps, direction, done] = c;
    Tensor p = draw_momentum(nn::fold_in(key, i), a.inverse_mass);
    const Tensor h0 = kinetic_energy(p, a.inverse_mass) - s.log_density;
    const ChainState next = leapfrog(f, s, p, eps, a.inverse_mass);
    const Tensor h = kinetic_energy(p, a.inverse_mass) - next.log_density;
    const Tensor dh = h0 - select(is_nan(h), scalar(INFINITY, dtype, backend), h);
    const Tensor first = equal(i, 0);
    const Tensor up = greater(dh, log08);
    const Tensor dir = select(first, select(up, plus, minus), direction);
    const Tensor going_up = greater(dir, 0.0);
    const Tensor crossed = select(going_up, logical_not(up), logical_not(less(dh, log08)));
    const Tensor now_done = logical_or(done, logical_and(logical_not(first), crossed));
    const Tensor moved = select(going_up, eps * 2.0, eps * 0.5);
    return Carry(select(logical_or(now_done, first), eps, moved), dir, now_done);
  };
  const Carry init(a.step_size, plus, logical_not(valid));
  const Tensor eps = std::get<0>(fori_loop(0, kStepSizeSearchTrips, trip, init));
  AdaptState b = a;
  b.step_size = eps;
  // stepsize_adaptation::set_mu and restart.
  b.mu = log(eps * 10.0);
  const Tensor zero = zeros({}, dtype, backend);
  b.log_step_bar = zero;
  b.h_bar = zero;
  b.count = zero;
  return b;
}

Tensor final_step_size(const AdaptState& a) { return exp(a.log_step_bar); }

}  // namespace nxv::mcmc::detail
