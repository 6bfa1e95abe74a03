// Element types and the promotion rules between them (as in Nx/JAX).
#pragma once
#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nxv/half.hpp"

namespace nxv {

// The dtypes, in the order of the rows of src/shared/dtypes.def, the table of their facts (not installed: it also
// holds the shaders' types); src/core/dtype.cpp checks at compile time that this enum, kNumRealDTypes, the complex
// rows and dtype_of agree with it. The order is not a promotion order (see promote()).
// s8 ... u64 and f16, bf16 come after the first six so that the earlier dtypes keep their numbers (shader variants,
// files); the complex dtypes come last.
enum class DType : std::uint8_t { pred, u8, s32, s64, f32, f64, s8, s16, u16, u32, u64, f16, bf16, c64, c128 };

// The real dtypes: the ones backends compute in. Every kernel, shader variant and parity suite is per real dtype.
inline constexpr int kNumRealDTypes = 13;
inline constexpr std::array<DType, kNumRealDTypes> real_dtypes = [] {
  std::array<DType, kNumRealDTypes> all{};
  for (int i = 0; i < kNumRealDTypes; ++i) all[i] = static_cast<DType>(i);
  return all;
}();
// The complex dtypes: c64 is a pair of f32 (real, imaginary), c128 a pair of f64, stored interleaved as
// std::complex. Backends never compute in them: the front end lowers every op on a complex tensor to ops on its
// real view (src/ops/complex_lowering.cpp), so a complex tensor works wherever its component dtype does.
inline constexpr std::array<DType, 2> complex_dtypes = {DType::c64, DType::c128};
inline constexpr std::array<DType, kNumRealDTypes + 2> all_dtypes = [] {
  std::array<DType, kNumRealDTypes + 2> all{};
  for (int i = 0; i < kNumRealDTypes + 2; ++i) all[i] = static_cast<DType>(i);
  return all;
}();

enum class DTypeKind : std::uint8_t { boolean, unsigned_int, signed_int, floating, complex };

// A dtype's row of src/shared/dtypes.def, as far as the front end needs it: what an op needs to know of a dtype
// comes from here, so that a new dtype is a row (plus its conversions) rather than a change to every op.
struct DTypeInfo {
  std::string_view name;
  std::uint8_t bytes;
  DTypeKind kind;
  std::uint8_t bits;  // value bits, used for promotion: the wider wins within a kind
};

const DTypeInfo& info(DType t);
inline std::string_view name(DType t) { return info(t).name; }
inline std::size_t size_of(DType t) { return info(t).bytes; }
inline bool is_float(DType t) { return info(t).kind == DTypeKind::floating; }
inline bool is_integer(DType t) {  // pred is not an integer type
  return info(t).kind == DTypeKind::signed_int || info(t).kind == DTypeKind::unsigned_int;
}
inline bool is_complex(DType t) { return info(t).kind == DTypeKind::complex; }
// The dtype of a complex dtype's parts (c64: f32, c128: f64); a real dtype is its own.
DType real_part_type(DType t);
// The complex dtype holding values of `t`: f64 (and c128) give c128, every other dtype c64 (as Nx).
DType complex_type(DType t);
// f16 and bf16: stored in 16 bits, computed in f32 and rounded once (kernels widen them on load).
inline bool is_half_float(DType t) { return t == DType::f16 || t == DType::bf16; }
DType dtype_from_name(std::string_view name);  // throws nxv::Error on an unknown name

// The dtype two tensors are promoted to: a float beats an integer, the wider beats the narrower,
// a signed type wide enough to hold an unsigned one beats it; pred loses to everything.
// f16 with bf16 gives f32 (neither holds the other), as in Nx and JAX. A complex dtype beats every real one, and
// c64 with f64 gives c128.
DType promote(DType a, DType b);
// The smallest float type that holds `t` (integers and pred become f32; a complex dtype stays itself).
DType float_type(DType t);

template <class T>
struct dtype_of;
template <>
struct dtype_of<bool> {
  static constexpr DType value = DType::pred;
};
template <>
struct dtype_of<std::uint8_t> {
  static constexpr DType value = DType::u8;
};
template <>
struct dtype_of<std::int32_t> {
  static constexpr DType value = DType::s32;
};
template <>
struct dtype_of<std::int64_t> {
  static constexpr DType value = DType::s64;
};
template <>
struct dtype_of<float> {
  static constexpr DType value = DType::f32;
};
template <>
struct dtype_of<double> {
  static constexpr DType value = DType::f64;
};
template <>
struct dtype_of<std::int8_t> {
  static constexpr DType value = DType::s8;
};
template <>
struct dtype_of<std::int16_t> {
  static constexpr DType value = DType::s16;
};
template <>
struct dtype_of<std::uint16_t> {
  static constexpr DType value = DType::u16;
};
template <>
struct dtype_of<std::uint32_t> {
  static constexpr DType value = DType::u32;
};
template <>
struct dtype_of<std::uint64_t> {
  static constexpr DType value = DType::u64;
};
template <>
struct dtype_of<Half> {
  static constexpr DType value = DType::f16;
};
template <>
struct dtype_of<BFloat16> {
  static constexpr DType value = DType::bf16;
};
template <>
struct dtype_of<std::complex<float>> {
  static constexpr DType value = DType::c64;
};
template <>
struct dtype_of<std::complex<double>> {
  static constexpr DType value = DType::c128;
};
template <class T>
inline constexpr DType dtype_of_v = dtype_of<T>::value;

}  // namespace nxv
