// Creation ops: from host data, constants, iota/eye, and the counter-based random numbers.
#include <cstring>

#include "core/checked_math.hpp"
#include "ops/apply.hpp"
#include "shared/philox.hpp"

namespace nxv {

namespace {
// Negative dimensions and element counts past int64 (checked before anything is sized by them).
void check_shape(const Shape& shape, std::string_view op) { checked_num_elements(shape, op); }
}  // namespace

Tensor from_bytes(std::span<const std::byte> bytes, const TensorType& type, Backend& backend) {
  const auto expected = static_cast<std::size_t>(
      checked_bytes(checked_num_elements(type.shape, "from_data"), size_of(type.dtype), "from_data"));
  NXV_CHECK(bytes.size() == expected, "from_data", "got ", bytes.size(), " bytes for ", to_string(type), ", expected ",
            expected);
  return Tensor(type, backend, backend.upload(bytes, type));
}

template <class T>
Tensor from_data(std::span<const T> data, const Shape& shape, Backend& backend) {
  const std::int64_t count = checked_num_elements(shape, "from_data");
  NXV_CHECK(static_cast<std::int64_t>(data.size()) == count, "from_data", "got ", data.size(), " values for shape ",
            to_string(shape), ", expected ", count);
  if constexpr (std::is_same_v<T, bool>) {
    std::vector<std::uint8_t> bytes(data.begin(), data.end());
    return from_bytes(std::as_bytes(std::span<const std::uint8_t>(bytes)), {shape, DType::pred}, backend);
  } else {
    return from_bytes(std::as_bytes(data), {shape, dtype_of_v<T>}, backend);
  }
}
// One instantiation per dtype's value type (shared/dtypes.def).
#define NXV_DTYPE(name, bytes, kind, bits, value, ...) \
  template Tensor from_data<value>(std::span<const value>, const Shape&, Backend&);
#define NXV_COMPLEX_DTYPE(name, bytes, bits, value, part) \
  template Tensor from_data<value>(std::span<const value>, const Shape&, Backend&);
#include "shared/dtypes.def"

Tensor full(const Shape& shape, double value, DType dtype, Backend& backend) {
  check_shape(shape, "full");
  const OpCall call{OpCode::full, FullAttrs{value}};
  return apply_on(backend, call, {shape, dtype});
}
Tensor scalar(double value, DType dtype, Backend& backend) { return full({}, value, dtype, backend); }
Tensor zeros(const Shape& shape, DType dtype, Backend& backend) { return full(shape, 0.0, dtype, backend); }
Tensor ones(const Shape& shape, DType dtype, Backend& backend) { return full(shape, 1.0, dtype, backend); }

Tensor iota(const Shape& shape, std::optional<int> axis, DType dtype, Backend& backend) {
  check_shape(shape, "iota");
  // No axis: the row-major count is a count along one axis of the flattened shape, viewed as `shape`.
  if (!axis) return reshape(iota(Shape{num_elements(shape)}, 0, dtype, backend), shape);
  const OpCall call{OpCode::iota, AxisAttrs{shape.empty() ? 0 : normalize_axis(*axis, shape.size(), "iota")}};
  return apply_on(backend, call, {shape, dtype});
}

Tensor eye(std::int64_t n, std::int64_t m, DType dtype, Backend& backend) {
  if (m < 0) m = n;
  NXV_CHECK(n >= 0, "eye", "negative size ", n);
  OpCall call{OpCode::eye, {}};
  return apply_on(backend, call, {{n, m}, dtype});
}

Tensor eye(const Shape& shape, DType dtype, Backend& backend) {
  NXV_CHECK(shape.size() >= 2, "eye", "got the shape ", to_string(shape),
            ", expected rank 2 or more ([..., n, m]: a batch of n×m identities)");
  check_shape(shape, "eye");
  const int r = shape.size();
  const Tensor one = eye(shape[r - 2], shape[r - 1], dtype, backend);
  return r == 2 ? one : broadcast(one, shape);
}

Tensor uniform(Key k, const Shape& shape, DType dtype, double low, double high, Backend& backend) {
  check_shape(shape, "uniform");
  NXV_CHECK(dtype == DType::f32 || dtype == DType::f64, "uniform", "got dtype ", name(dtype),
            ", expected f32 or f64 (draw 16-bit floats in f32 and cast them)");
  const OpCall call{OpCode::random_uniform, UniformAttrs{k, low, high}};
  return apply_on(backend, call, {shape, dtype});
}

Tensor normal(Key k, const Shape& shape, DType dtype, double mean, double stddev, Backend& backend) {
  check_shape(shape, "normal");
  NXV_CHECK(dtype == DType::f32 || dtype == DType::f64, "normal", "got dtype ", name(dtype),
            ", expected f32 or f64 (draw 16-bit floats in f32 and cast them)");
  const OpCall call{OpCode::random_normal, NormalAttrs{k, mean, stddev}};
  return apply_on(backend, call, {shape, dtype});
}

Key key(std::uint64_t seed) { return {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}; }

// The counter (0, 0, ~0, ~0) is never used for data (element counters have zero high words), so the derived
// keys are independent of every stream drawn from `k`.
std::array<Key, 2> split(Key k) {
  const auto w = philox::philox4x32_10({0u, 0u, 0xFFFFFFFFu, 0xFFFFFFFFu}, {k.k0, k.k1});
  return {Key{w[0], w[1]}, Key{w[2], w[3]}};
}

}  // namespace nxv
