// Creation reference kernels: iota, eye, full, and the Philox-based random_uniform / random_normal.
//
// Random values depend only on (key, element index, dtype, the two scalars): element i (row-major) uses the
// Philox-4x32-10 block at counter (uint32(i), uint32(i >> 32), 0, 0) under key (k0, k1). The bit recipes below
// are normative for the Vulkan kernels; their double arithmetic is evaluated without contraction (the library
// builds with -ffp-contract=off, the shaders mark it `precise`).
#include <cmath>

#include "reference/dtype_dispatch.hpp"
#include "reference/indexing.hpp"
#include "reference/kernels.hpp"
#include "shared/math.hpp"
#include "shared/philox.hpp"

namespace nxv::reference {

// Counts along attrs.axis, converted to the dtype as by cast (u8 wraps past 255).
void iota(const AxisAttrs& attrs, const TensorType& out, std::byte* dst) {
  const int axis = static_cast<int>(attrs.axis);
  std::int64_t i = 0;
  for_each_index(out.shape, [&](const Shape& index) {
    const std::int64_t value = out.shape.size() == 0 ? 0 : index[axis];
    store_converted(out.dtype, dst, i++, value);
  });
}

void eye(const TensorType& out, std::byte* dst) {
  std::int64_t i = 0;
  for_each_index(out.shape, [&](const Shape& index) {
    store_converted(out.dtype, dst, i++, std::int64_t{index[0] == index[1] ? 1 : 0});
  });
}

// attrs.value converted to the dtype as by cast (NaN → 0 for integers, saturating).
void full(const FullAttrs& attrs, const TensorType& out, std::byte* dst) {
  const std::int64_t n = num_elements(out.shape);
  for (std::int64_t i = 0; i < n; ++i) store_converted(out.dtype, dst, i, attrs.value);
}

namespace {

std::array<std::uint32_t, 4> philox_for_element(const Key& key, std::int64_t i) {
  const auto index = static_cast<std::uint64_t>(i);
  return philox::philox4x32_10({static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(index >> 32), 0, 0},
                               {key.k0, key.k1});
}

// The top 53 bits of the 64-bit word (hi, lo), as an exact double in [0, 2^53).
double top53(std::uint32_t hi, std::uint32_t lo) {
  return static_cast<double>(((static_cast<std::uint64_t>(hi) << 32) | lo) >> 11);
}

// Stores a value computed in double, rounded once to the float dtype.
void store_float(DType type, std::byte* dst, std::int64_t i, double value) {
  if (type == DType::f32)
    store<float, float>(dst, i, static_cast<float>(value));
  else
    store<double, double>(dst, i, value);
}

void check_float(const char* op, const TensorType& out) {
  NXV_CHECK(is_float(out.dtype), op, "the reference backend draws floats only, got ", to_string(out));
}

}  // namespace

// u in [0, 1): f32: (w0 >> 8) * 2^-24; f64: top53(w0, w1) * 2^-53. Value: low + (high - low) * u in double.
void random_uniform(const UniformAttrs& attrs, const TensorType& out, std::byte* dst) {
  check_float("random_uniform", out);
  const double low = attrs.low, high = attrs.high;
  const std::int64_t n = num_elements(out.shape);
  for (std::int64_t i = 0; i < n; ++i) {
    const auto w = philox_for_element(attrs.key, i);
    const double u = out.dtype == DType::f32 ? static_cast<double>(w[0] >> 8) * 0x1p-24 : top53(w[0], w[1]) * 0x1p-53;
    store_float(out.dtype, dst, i, low + (high - low) * u);
  }
}

// Box–Muller on one block: u1 = (top53(w0, w1) + 1) * 2^-53 in (0, 1] (so the log is finite),
// u2 = top53(w2, w3) * 2^-53 in [0, 1); z = sqrt(-2 log u1) * cos(2 pi u2) with nxv::math's log and cos (the
// functions the shaders run, not std::log). Value: mean + stddev * z in double.
void random_normal(const NormalAttrs& attrs, const TensorType& out, std::byte* dst) {
  check_float("random_normal", out);
  const double mean = attrs.mean, stddev = attrs.stddev;
  const std::int64_t n = num_elements(out.shape);
  for (std::int64_t i = 0; i < n; ++i) {
    const auto w = philox_for_element(attrs.key, i);
    const double u1 = (top53(w[0], w[1]) + 1.0) * 0x1p-53;
    const double u2 = top53(w[2], w[3]) * 0x1p-53;
    const double z = std::sqrt(-2.0 * math::nxv_log(u1)) * math::nxv_cos(6.283185307179586 * u2);
    store_float(out.dtype, dst, i, mean + stddev * z);
  }
}

}  // namespace nxv::reference
