// Creation ops on the device: iota and eye (src/vulkan/kernels/iota.comp), full (src/vulkan/kernels/fill.comp with the
// value converted here), random_uniform and random_normal (src/vulkan/kernels/random.comp, Philox-4x32-10 per element).
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "vulkan/kernels/kernels.hpp"
#include "vulkan/kernels/layout.hpp"

namespace nxv::vulkan::kernels {
namespace {

// The cast rule of reference/dtype_dispatch.hpp (convert) for a double source: NaN → 0, saturating, truncating.
template <class T>
T to_integer(double d) {
  if (std::isnan(d)) return 0;
  if (d <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  if (d >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(d);
}

template <class T>
std::uint64_t bits_of(T v) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof v);
  return bits;
}

struct IotaPush {
  std::uint32_t count, dim, inner;
};

struct RandomPush {
  std::uint32_t count, k0, k1, unused;
  double a, b;
};

bool index_fill(bool eye, std::int64_t axis, const TensorType& out, BufferPtr& result) {
  const int rank = out.shape.size();
  IotaPush push{static_cast<std::uint32_t>(num_elements(out.shape)), 1, 1};
  if (eye) {
    if (rank != 2) return false;
    push.dim = static_cast<std::uint32_t>(out.shape[0]);
    push.inner = static_cast<std::uint32_t>(out.shape[1]);
  } else if (rank > 0) {
    push.dim = static_cast<std::uint32_t>(out.shape[static_cast<int>(axis)]);
    for (int d = static_cast<int>(axis) + 1; d < rank; ++d) push.inner *= static_cast<std::uint32_t>(out.shape[d]);
  }
  static PipelineCache cache;
  const std::int32_t spec[] = {eye ? 1 : 0};
  const auto key = static_cast<std::uint64_t>(out.dtype) | static_cast<std::uint64_t>(eye) << 8;
  const Pipeline* p = cache.get(
      key, [&] { return "iota_" + std::string(name(out.dtype)); }, spec);
  result = allocate(out);
  if (push.count == 0 || push.dim == 0 || push.inner == 0) return true;
  const Grid g = grid_for_items(push.count);
  runtime().dispatch(p, {{&result, true}}, push_bytes(push), g.x, g.y);
  return true;
}

// random.comp's parameters a and b: low and high (uniform), or mean and stddev (normal).
RandomPush random_push(const OpCall& call, std::uint32_t count) {
  if (call.code == OpCode::random_normal) {
    const NormalAttrs& a = call.attrs_as<NormalAttrs>();
    return {count, a.key.k0, a.key.k1, 0, a.mean, a.stddev};
  }
  const UniformAttrs& a = call.attrs_as<UniformAttrs>();
  return {count, a.key.k0, a.key.k1, 0, a.low, a.high};
}

bool random(const OpCall& call, const TensorType& out, BufferPtr& result) {
  if (out.dtype != DType::f32 && out.dtype != DType::f64) return false;
  static PipelineCache cache;
  const bool normal = call.code == OpCode::random_normal;
  const std::int32_t spec[] = {normal ? 1 : 0};
  const auto key = static_cast<std::uint64_t>(out.dtype) | static_cast<std::uint64_t>(normal) << 8;
  const Pipeline* p = cache.get(
      key, [&] { return "random_" + std::string(name(out.dtype)); }, spec);
  result = allocate(out);
  const RandomPush push = random_push(call, static_cast<std::uint32_t>(num_elements(out.shape)));
  if (push.count == 0) return true;
  const Grid g = grid_for_items(push.count);
  runtime().dispatch(p, {{&result, true}}, push_bytes(push), g.x, g.y);
  return true;
}

}  // namespace

// The bits of `value` rounded to float storage type S (f16, bf16, f32, f64).
template <class S>
std::uint64_t float_bits(double value) {
  if constexpr (is_half_v<S>)
    return S(value).bits;
  else
    return bits_of(static_cast<S>(value));
}

std::uint64_t element_bits(double value, DType dtype) {
  if (dtype == DType::pred) return value != 0.0 ? 1 : 0;  // NaN != 0
  switch (dtype) {
#define NXV_DTYPE(name, bytes, kind, bits, value_type, storage, ...)       \
  case DType::name:                                                        \
    if constexpr (is_half_v<storage> || std::is_floating_point_v<storage>) \
      return float_bits<storage>(value);                                   \
    else                                                                   \
      return bits_of(to_integer<storage>(value));
#define NXV_COMPLEX_DTYPE(name, ...) case DType::name:
#include "shared/dtypes.def"
    break;  // never reached: the front end lowers complex ops to real ones
  }
  return 0;
}

bool creation(const OpCall& call, Inputs /*in*/, const TensorType& out, BufferPtr& result) {
  const std::int64_t count = num_elements(out.shape);
  if (!fits_u32(count)) return false;
  switch (call.code) {
    case OpCode::iota:
      return index_fill(false, call.attrs_as<AxisAttrs>().axis, out, result);
    case OpCode::eye:
      return index_fill(true, 0, out, result);
    case OpCode::full:
      result = allocate(out);
      fill(result, out.dtype, static_cast<std::uint64_t>(count),
           element_bits(call.attrs_as<FullAttrs>().value, out.dtype));
      return true;
    case OpCode::random_uniform:
    case OpCode::random_normal:
      return random(call, out, result);
    default:
      return false;
  }
}

}  // namespace nxv::vulkan::kernels
