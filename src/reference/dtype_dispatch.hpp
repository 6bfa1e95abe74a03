// Dtype dispatch for the reference kernels: each dtype's storage type (how an element sits in memory) and
// compute type (what the shaders compute in, see shared/dtypes.def), element loads/stores, and the one
// conversion rule shared by cast, full, pad and iota.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "nxv/dtype.hpp"
#include "nxv/error.hpp"

namespace nxv::reference {

// Calls f.template operator()<Storage, Compute>() for `type`, with the types of its row of shared/dtypes.def: pred
// and u8 are stored as one byte and computed in uint32_t (stores truncate back to 8 bits), f16 and bf16 are stored
// as nxv::Half / nxv::BFloat16 and computed in float (stores round to nearest even), s32/s64/f32/f64 compute in
// themselves. Use with a template lambda: visit_dtype(t, [&]<class S, class C>() { ... }).
template <class F>
decltype(auto) visit_dtype(DType type, F&& f) {
  switch (type) {
#define NXV_DTYPE(name, bytes, kind, bits, value, storage, compute, ...) \
  case DType::name:                                                      \
    return f.template operator()<storage, compute>();
#define NXV_COMPLEX_DTYPE(name, ...) case DType::name:
#include "shared/dtypes.def"
    detail::fail("reference: a complex dtype reached a kernel (the front end lowers complex ops to real ones)");
  }
  detail::fail("reference: unknown dtype ", static_cast<int>(type));
}

// Element `i` of a row-major array of S, converted to the compute type C. memcpy: the bytes of a Storage
// carry no alignment promise.
template <class S, class C>
C load(const std::byte* base, std::int64_t i) {
  S s;
  std::memcpy(&s, base + i * static_cast<std::int64_t>(sizeof(S)), sizeof(S));
  return static_cast<C>(s);
}

// Stores compute value `v` as element `i`; integer stores truncate (u8 keeps the low 8 bits of a uint).
template <class S, class C>
void store(std::byte* base, std::int64_t i, C v) {
  const S s = static_cast<S>(v);
  std::memcpy(base + i * static_cast<std::int64_t>(sizeof(S)), &s, sizeof(S));
}

// The cast rule (as_type): float→int truncates toward zero, NaN→0, out-of-range saturates to the int type's
// range; int→float and f64→f32 round to nearest-even (a plain C++ conversion); int→int wraps. `To` and `From`
// are storage types (u8 for pred); conversions *to* pred go through to_pred() instead. f16 and bf16 convert through
// float both ways (include/nxv/half.hpp).
template <class To, class From>
To convert(From x) {
  if constexpr (is_half_v<From>) {
    return convert<To>(static_cast<float>(x));
  } else if constexpr (is_half_v<To>) {
    return To(convert<float>(x));
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    const double d = static_cast<double>(x);  // exact for f32, so one comparison rule serves both widths
    if (std::isnan(d)) return 0;
    // double(max) is max + 1 for s64 (2^63), so `>=` also catches values that round up to it.
    if (d <= static_cast<double>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
    if (d >= static_cast<double>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    return static_cast<To>(d);
  } else {
    return static_cast<To>(x);  // integer narrowing is modular since C++20
  }
}

// Anything → pred: x != 0 (NaN → 1).
template <class From>
std::uint8_t to_pred(From x) {
  if constexpr (is_half_v<From>)
    return to_pred(static_cast<float>(x));
  else
    return x != From(0) ? 1 : 0;
}

// `x` converted to `type` by the cast rule and stored as element `i` of `dst` (full, pad and iota use this).
template <class From>
void store_converted(DType type, std::byte* dst, std::int64_t i, From x) {
  visit_dtype(type, [&]<class S, class C>() {
    const S s = type == DType::pred ? convert<S>(to_pred(x)) : convert<S>(x);
    store<S, S>(dst, i, s);
  });
}

}  // namespace nxv::reference
