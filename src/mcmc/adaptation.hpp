// Stan's window adaptation, written for ONE chain with ops so that the sampler driver vectorizes it over chains and
// jits it into the per-iteration step: dual averaging of the log step size, the diagonal mass matrix from a Welford
// variance in doubling windows, and the initial step-size heuristic.
#pragma once
#include <cstdint>
#include <vector>

#include "nxv/mcmc_kernels.hpp"

namespace nxv::mcmc::detail {

// Which warm-up iterations feed the variance estimate and after which ones a window ends: Stan's
// windowed_adaptation (an initial buffer of 75 iterations, a terminal buffer of 50, slow windows of 25 doubling,
// the last one stretched to the terminal buffer; 15% / 75% / 10% of the warm-up when it is shorter than 150; no
// windows below 20 iterations).
struct WindowSchedule {
  std::vector<bool> in_window;   // [warmup]: the draw after iteration i joins the current window's estimate
  std::vector<bool> window_end;  // [warmup]: a window closes after iteration i (the mass matrix is updated)
};
WindowSchedule window_schedule(std::int64_t warmup);

// One chain's adaptation state. The sampler keeps each field with a leading chain axis.
struct AdaptState {
  Tensor step_size;     // []: the step size of the next transition
  Tensor mu;            // []: dual averaging's shrinkage target, log(10 eps) at the last restart
  Tensor log_step_bar;  // []: the weighted average of log step sizes (the final step size is its exp)
  Tensor h_bar;         // []: the averaged acceptance error target - accept_stat
  Tensor count;         // []: iterations since the last restart (a float, as every field)
  Tensor inverse_mass;  // [d]
  Tensor mean, m2;      // [d]: Welford's running mean and sum of squared deviations over the current window
  Tensor n;             // []: draws in the current window
};
inline constexpr std::size_t kAdaptFields = 9;
std::vector<Tensor> pack(const AdaptState& a);
AdaptState unpack(std::span<const Tensor> fields);

// The state of `chains` chains of dimension d at the start of warm-up: step size eps0, unit inverse mass.
AdaptState initial_adapt_state(std::int64_t chains, std::int64_t d, double eps0, DType dtype, Backend& backend);

// What the step does this iteration (pred scalars, inputs of the compiled step so that one executable serves all).
struct AdaptFlags {
  Tensor step_size;   // dual averaging is on
  Tensor in_window;   // add the new position to the variance estimate
  Tensor window_end;  // replace the inverse mass by the regularised estimate and start a new window
};

// One chain's update after a transition that reported `accept_stat` and moved to `position` (Hoffman and Gelman's
// dual averaging with gamma 0.05, t0 10, kappa 0.75 towards target_accept; Stan's regularisation of the variance,
// (n / (n + 5)) var + 1e-3 (5 / (n + 5))).
AdaptState adapt(const AdaptState& a, const Tensor& accept_stat, const Tensor& position, const AdaptFlags& flags,
                 double target_accept);

// Stan's initial step size: from a's step size, doubled (or halved) until the acceptance probability of one leapfrog
// step from s with a fresh momentum crosses 0.8; then dual averaging restarts around it (mu = log(10 eps)). A fixed
// trip count (kStepSizeSearchTrips momenta, so eps moves by at most 2^(trips - 1)) keeps it one loop on the device.
inline constexpr int kStepSizeSearchTrips = 24;
AdaptState restart_step_size(const LogDensity& f, const ChainState& s, const AdaptState& a, const Tensor& key);

// The step size for sampling after warm-up: exp(log_step_bar).
Tensor final_step_size(const AdaptState& a);

}  // namespace nxv::mcmc::detail
