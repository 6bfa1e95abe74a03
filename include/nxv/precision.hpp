// The precision contract of the contractions (dot, and everything built on it: nn's dense layers, matmul-shaped
// gradients). Two modes, both deterministic (the same inputs give the same bits run after run on one device):
//
//   exact  every output is acc = acc + a_k * b_k for k = 0 .. K-1 in order, the product and the sum each rounded:
//          the reference backend's loop, bit for bit on every Vulkan device.
//   fast   the same order, each step one fused multiply-add (acc = fma(a_k, b_k, acc)) where the device fuses
//          (NVIDIA does; lavapipe may split it into the rounded product and sum), and whichever kernel variant
//          (tiling, register blocking, vector loads) is fastest for the shape; a long K over few output tiles is
//          split into chunks summed in k order each, then added up by a fixed tree (chosen by the shape alone,
//          src/vulkan/kernels/dot.hpp's dot_k_splits). Every output is within
//          gamma(K) * sum_k |a_k * b_k| of the exact value, gamma(K) = K u / (1 - K u), u = 2^-24 (f32) or 2^-53
//          (f64); never TF32 or any accumulation narrower than the dtype. f16 and bf16 accumulate in f32 (u =
//          2^-24; they never split) and round the result once: within that bound plus their own unit roundoff
//          (2^-11, 2^-8) of the result, plus half their smallest subnormal. f16 on tensor cores (the `tensor`
//          kernel, src/vulkan/kernels/dot.hpp) sums in the hardware's order, whose alignment truncates: u = 2^-22. From
//          inf and NaN inputs, inf and NaN come out where exact's do; but a product that overflows is not inf inside an
//          fma (fma(2^100, 2^100, -inf) is -inf where exact's rounded 2^200 + -inf is NaN in f32), so with huge finite
//          inputs the two may differ in which non-finite value they give.
//
// The mode of a dot is fixed when the dot is called (or traced, inside jit): the `precision` argument of the call,
// else the thread's innermost PrecisionScope (jit opens one while tracing, with JitOptions::precision or, unset, the
// mode current at the jitted call), else the process default: `NXV_PRECISION` (README, "Environment variables"),
// `fast` unless set, as in PyTorch and JAX.
// Integer dots are exact in both modes. conv follows the same contract over its own summation order
// (include/nxv/conv.hpp): fast is one fma per term, within gamma(K) * sum_k |x_k w_k|.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace nxv {

enum class Precision : std::uint8_t { exact, fast };

const char* to_string(Precision precision);                       // "exact", "fast"
std::optional<Precision> parse_precision(std::string_view name);  // nullopt for anything else

// The mode a dot called now on this thread gets: the innermost PrecisionScope, else the process default.
Precision current_precision();
// The process default (initially NXV_PRECISION's); set_default_precision changes it for every thread.
Precision default_precision();
void set_default_precision(Precision precision);

// Sets the mode of this thread's dots while it lives (nests; restores the previous one when destroyed).
class PrecisionScope {
 public:
  explicit PrecisionScope(Precision precision);
  ~PrecisionScope();
  PrecisionScope(const PrecisionScope&) = delete;
  PrecisionScope& operator=(const PrecisionScope&) = delete;

 private:
  std::optional<Precision> previous_;
};

}  // namespace nxv
