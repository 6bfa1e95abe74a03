// Implementation of the parity harness (tests/support/parity.hpp). Named *_test.cpp so that the suite's glob
// builds it into nxv_tests; it also prints the cell summary at the end of the run.
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

#include "support/parity.hpp"

namespace nxv::testing {

std::set<std::string>& parity_cells() {
  static std::set<std::string> cells;
  return cells;
}

namespace {

std::vector<std::byte> bytes_of(const Tensor& t) {
  std::vector<std::byte> b(static_cast<std::size_t>(t.size()) * size_of(t.dtype()));
  t.copy_to(b);
  return b;
}

template <class T>
std::string mismatch(const std::vector<std::byte>& e, const std::vector<std::byte>& a, std::int64_t n) {
  std::ostringstream out;
  int shown = 0;
  std::int64_t count = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    T x, y;
    std::memcpy(&x, e.data() + i * sizeof(T), sizeof(T));
    std::memcpy(&y, a.data() + i * sizeof(T), sizeof(T));
    bool same = std::memcmp(&x, &y, sizeof(T)) == 0;
    if constexpr (std::is_floating_point_v<T>) same = same || (std::isnan(x) && std::isnan(y));
    if constexpr (is_half_v<T>) same = same || (std::isnan(float(x)) && std::isnan(float(y)));
    if (same) continue;
    ++count;
    if (shown++ < 5) {
      if constexpr (is_half_v<T>) {
        out.precision(std::numeric_limits<float>::max_digits10);
        out << "  [" << i << "] reference " << float(x) << " (0x" << std::hex << x.bits << "), vulkan " << float(y)
            << " (0x" << y.bits << std::dec << ")\n";
      } else {
        out.precision(std::numeric_limits<T>::max_digits10);
        out << "  [" << i << "] reference " << +x << ", vulkan " << +y << "\n";
      }
    }
  }
  if (count == 0) return {};
  return std::to_string(count) + " of " + std::to_string(n) + " elements differ:\n" + out.str();
}

}  // namespace

std::string compare_exact(const Tensor& expected, const Tensor& actual) {
  if (expected.type() != actual.type())
    return "types differ: reference " + to_string(expected.type()) + ", vulkan " + to_string(actual.type());
  const auto e = bytes_of(expected), a = bytes_of(actual);
  const std::int64_t n = expected.size();
  switch (expected.dtype()) {
#define NXV_DTYPE(name, bytes, kind, bits, value, storage, ...) \
  case DType::name:                                             \
    return mismatch<storage>(e, a, n);
#include "shared/dtypes.def"
    case DType::c64:  // compared as their pairs of parts
    case DType::c128:
      return compare_exact(real_view(expected), real_view(actual));
  }
  return "unknown dtype";
}

bool vulkan_flushes_f32_denormals() {
  static const bool flushes = [] {
    const float tiny = std::numeric_limits<float>::denorm_min();
    const Tensor x = from_data<float>(std::span<const float>(&tiny, 1), Shape{1}, vulkan::backend());
    const bool result = add(x, x).to_vector<float>()[0] == 0.0f;
    if (result)
      std::cout << "[parity] " << vulkan::list_devices()[vulkan::pick_device()].name
                << " flushes f32 denormals: f32 inputs and results are compared with denormals as signed zeros\n";
    return result;
  }();
  return flushes;
}

Tensor flush_f32_denormals(const Tensor& t) {
  // bf16 has f32's exponent range: its subnormals are f32 subnormals once loaded, and flushed alike.
  if (t.dtype() == DType::bf16)
    return as_type(flush_f32_denormals(as_type(t.to_host(), DType::f32)), DType::bf16).to(t.backend());
  if (t.dtype() == DType::c64) return complex_view(flush_f32_denormals(real_view(t)));
  if (t.dtype() != DType::f32) return t;
  std::vector<float> v = t.to_vector<float>();
  for (float& x : v)
    if (std::fpclassify(x) == FP_SUBNORMAL) x = std::signbit(x) ? -0.0f : 0.0f;
  return from_data<float>(std::span<const float>(v), t.shape(), reference_backend()).to(t.backend());
}

void expect_parity(const std::string& cell, const OpFn& op, const std::vector<Tensor>& given_inputs) {
  parity_cells().insert(cell);
  const bool flush = vulkan_flushes_f32_denormals();
  std::vector<Tensor> inputs;
  for (const Tensor& t : given_inputs) inputs.push_back(flush ? flush_f32_denormals(t) : t);
  const Tensor expected = op(inputs);
  Backend& vk = vulkan::backend();
  std::vector<Tensor> on_device;
  for (const Tensor& t : inputs) on_device.push_back(t.to(vk));
  Tensor actual;
  // (Fallbacks of kernels that need a feature the device lacks are its tier's, expected: NXV_DEVICE_MASK=minimum.)
  const auto fallbacks = fallback::unexplained_by_device(fallback::count([&] {
    actual = op(on_device);
    vulkan::flush();
  }));
  EXPECT_TRUE(fallbacks.empty()) << cell << ": host fallbacks: " << fallbacks.begin()->first;
  ASSERT_EQ(&actual.backend(), &vk) << cell;
  const std::string diff = flush ? compare_exact(flush_f32_denormals(expected), flush_f32_denormals(actual.to_host()))
                                 : compare_exact(expected, actual.to_host());
  EXPECT_TRUE(diff.empty()) << cell << " on " << [&] {
    std::string s;
    for (const Tensor& t : inputs) s += to_string(t.type()) + " ";
    return s;
  }() << ": " << diff;
}

namespace {

template <class T>
std::vector<T> float_pool() {
  using L = std::numeric_limits<T>;
  return {T(0),
          -T(0),
          T(1),
          T(-1),
          T(0.5),
          T(-0.5),
          T(2.5),
          T(-2.5),
          T(3),
          T(1e-3),
          T(100),
          T(-100),
          T(1e30),
          T(-1e30),
          L::infinity(),
          -L::infinity(),
          L::quiet_NaN(),
          L::min(),
          -L::min(),
          L::max(),
          L::lowest(),
          L::denorm_min(),
          -L::denorm_min(),
          T(88.75),
          T(-103.5),
          T(709.5),
          T(-745.5),
          T(3.14159265358979),
          T(1e-8),
          T(20),
          T(-20),
          T(0.1)};
}

template <class T>
std::vector<T> int_pool() {
  using L = std::numeric_limits<T>;
  return {T(0), T(1), T(T(0) - T(1)), L::max(), L::min(), T(2), T(3), T(7), T(L::max() - 1), T(100)};
}

template <class T>
Tensor fill_values(const Shape& shape, std::uint64_t seed, bool special, double lo, double hi) {
  std::mt19937_64 rng(seed);
  const std::int64_t n = num_elements(shape);
  std::vector<T> values(static_cast<std::size_t>(n));
  std::vector<T> pool;
  if constexpr (std::is_floating_point_v<T>)
    pool = float_pool<T>();
  else
    pool = int_pool<T>();
  for (std::int64_t i = 0; i < n; ++i) {
    if (special && i < static_cast<std::int64_t>(pool.size()) * 2 && (rng() % 2 == 0)) {
      values[i] = pool[rng() % pool.size()];
    } else if constexpr (std::is_floating_point_v<T>) {
      values[i] = static_cast<T>(std::uniform_real_distribution<double>(lo, hi)(rng));
    } else {
      values[i] = static_cast<T>(static_cast<std::int64_t>(std::uniform_real_distribution<double>(lo, hi)(rng)));
    }
  }
  return from_data<T>(std::span<const T>(values), shape, reference_backend());
}

template <class T>
Tensor fill(const Shape& shape, std::uint64_t seed, bool special, double lo, double hi) {
  // f16 and bf16: the f32 data (with its special values) rounded to them, as as_type rounds.
  if constexpr (is_half_v<T>)
    return as_type(fill_values<float>(shape, seed, special, lo, hi), dtype_of_v<T>);
  else
    return fill_values<T>(shape, seed, special, lo, hi);
}

}  // namespace

std::vector<DType> numeric_dtypes() {
  std::vector<DType> out;
  for (DType t : real_dtypes)
    if (t != DType::pred) out.push_back(t);
  return out;
}

std::vector<DType> integer_dtypes() {
  std::vector<DType> out;
  for (DType t : real_dtypes)
    if (is_integer(t)) out.push_back(t);
  return out;
}

Tensor test_data(DType dtype, const Shape& shape, std::uint64_t seed, bool special) {
  switch (dtype) {
    case DType::pred:
      return not_equal(fill<std::uint8_t>(shape, seed, false, 0, 2), 0);
    case DType::u8:
      return fill<std::uint8_t>(shape, seed, special, 0, 256);
    case DType::s8:
      return fill<std::int8_t>(shape, seed, special, -128, 128);
    case DType::s16:
      return fill<std::int16_t>(shape, seed, special, -1000, 1000);
    case DType::u16:
      return fill<std::uint16_t>(shape, seed, special, 0, 2000);
    case DType::s32:
      return fill<std::int32_t>(shape, seed, special, -1000, 1000);
    case DType::u32:
      return fill<std::uint32_t>(shape, seed, special, 0, 2000);
    case DType::s64:
      return fill<std::int64_t>(shape, seed, special, -100000, 100000);
    case DType::u64:
      return fill<std::uint64_t>(shape, seed, special, 0, 200000);
    case DType::f32:
      return fill<float>(shape, seed, special, -10, 10);
    case DType::f64:
      return fill<double>(shape, seed, special, -10, 10);
    case DType::f16:
      return fill<Half>(shape, seed, special, -10, 10);
    case DType::bf16:
      return fill<BFloat16>(shape, seed, special, -10, 10);
    case DType::c64:  // each part its own draw of the part's pool (special values pair with finite ones and others)
    case DType::c128:
      return complex(test_data(real_part_type(dtype), shape, seed, special),
                     test_data(real_part_type(dtype), shape, seed ^ 0x9e3779b97f4a7c15ULL, special));
  }
  return {};
}

Tensor test_uniform(DType dtype, const Shape& shape, std::uint64_t seed, double low, double high) {
  if (dtype == DType::pred) return test_data(dtype, shape, seed, false);
  switch (dtype) {
#define NXV_DTYPE(name, bytes, kind, bits, value, storage, ...) \
  case DType::name:                                             \
    return fill<storage>(shape, seed, false, low, high);
#include "shared/dtypes.def"
    case DType::c64:
    case DType::c128:
      return complex(test_uniform(real_part_type(dtype), shape, seed, low, high),
                     test_uniform(real_part_type(dtype), shape, seed ^ 0x9e3779b97f4a7c15ULL, low, high));
  }
  return {};
}

namespace {
// Prints how many op × dtype cells the parity checks covered and the fallbacks seen over the whole run; those of
// kernels that need a feature the device lacks as one line per feature, with the ops (all dtypes) they cover.
class ParitySummary : public ::testing::EmptyTestEventListener {
  void OnTestProgramEnd(const ::testing::UnitTest&) override {
    std::uint64_t total = 0;
    std::string which;
    std::map<std::string, std::set<std::string>> ops_lacking;  // feature -> "op:dtype"
    std::uint64_t lacking_total = 0;
    for (const auto& [name, n] : fallback::totals()) {
      if (const std::size_t at = name.find(fallback::kDeviceLacks); at != std::string::npos) {
        const std::size_t from = at + std::string_view(fallback::kDeviceLacks).size();
        ops_lacking[name.substr(from, name.size() - from - 1)].insert(name.substr(0, at));
        lacking_total += n;
        continue;
      }
      total += n;
      which += " " + std::string(name) + ":" + std::to_string(n);
    }
    std::cout << "[parity] " << parity_cells().size() << " op x dtype cells compared with the reference; " << total
              << " host fallbacks in the whole run" << (which.empty() ? "" : " (" + which.substr(1) + ")") << "\n";
    if (ops_lacking.empty()) return;
    std::cout << "[parity] " << lacking_total
              << " more host fallbacks of kernels needing a feature the device lacks:\n";
    for (const auto& [feature, cells] : ops_lacking) {
      std::string list;
      for (const std::string& cell : cells) list += " " + cell;
      std::cout << "[parity]   " << feature << " (" << cells.size() << " op x dtype cells):" << list << "\n";
    }
  }
};
const bool registered = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new ParitySummary);
  return true;
}();
}  // namespace

}  // namespace nxv::testing
