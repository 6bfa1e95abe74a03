// Learning-rate schedules: plain host functions of the step; the trainer uploads each step's rate as a scalar.
#include <cmath>
#include <numbers>

#include "nxv/nn.hpp"

namespace nxv::nn {

Schedule constant_schedule(double lr) {
  return [lr](std::int64_t) { return lr; };
}

Schedule step_schedule(double lr, std::int64_t every, double factor) {
  NXV_CHECK(every > 0, "step_schedule", "got every = ", every, ", expected > 0");
  return [=](std::int64_t step) { return lr * std::pow(factor, static_cast<double>(step / every)); };
}

Schedule cosine_schedule(double lr, std::int64_t total_steps, double final_fraction) {
  NXV_CHECK(total_steps > 0, "cosine_schedule", "got total_steps = ", total_steps, ", expected > 0");
  return [=](std::int64_t step) {
    const double progress = static_cast<double>(std::min(step, total_steps)) / static_cast<double>(total_steps);
    return lr * (final_fraction + (1 - final_fraction) * (1 + std::cos(std::numbers::pi * progress)) / 2);
  };
}

}  // namespace nxv::nn
