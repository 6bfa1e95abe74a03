#include "nxv/dtype.hpp"

#include <algorithm>
#include <iterator>
#include <string>

#include "nxv/error.hpp"

namespace nxv {

namespace {
constexpr DTypeInfo k_infos[] = {
#define NXV_DTYPE(name, bytes, kind, bits, ...) {#name, bytes, DTypeKind::kind, bits},
#define NXV_COMPLEX_DTYPE(name, bytes, bits, ...) {#name, bytes, DTypeKind::complex, bits},
#include "shared/dtypes.def"
};
static_assert(std::size(k_infos) == std::size(all_dtypes),
              "DType (include/nxv/dtype.hpp) is not the rows of dtypes.def");

// include/nxv/dtype.hpp writes the enum and dtype_of out rather than installing the table: they must agree with it.
constexpr DType k_rows[] = {
#define NXV_DTYPE(name, ...) DType::name,
#include "shared/dtypes.def"
};
static_assert(std::size(k_rows) == std::size(real_dtypes),
              "kNumRealDTypes (include/nxv/dtype.hpp) is not the rows of dtypes.def");
constexpr bool enum_in_row_order() {
  for (int i = 0; i < kNumRealDTypes; ++i)
    if (static_cast<int>(k_rows[i]) != i) return false;
  return true;
}
static_assert(enum_in_row_order(), "DType (include/nxv/dtype.hpp) does not list dtypes.def's rows in their order");
#define NXV_DTYPE(name, bytes, kind, bits, value, storage, ...)                                                  \
  static_assert(dtype_of_v<value> == DType::name, "dtype_of<" #value "> (include/nxv/dtype.hpp) is not " #name); \
  static_assert(sizeof(storage) == bytes && sizeof(value) == bytes, #name ": its C++ types are not `bytes` wide");
#include "shared/dtypes.def"
#define NXV_COMPLEX_DTYPE(name, bytes, bits, value, part)                                                        \
  static_assert(dtype_of_v<value> == DType::name, "dtype_of<" #value "> (include/nxv/dtype.hpp) is not " #name); \
  static_assert(sizeof(value) == bytes && 2 * sizeof(value::value_type) == bytes, #name ": not two parts wide"); \
  static_assert(static_cast<int>(DType::name) >= kNumRealDTypes, #name ": listed among the real dtypes");
#include "shared/dtypes.def"

// "pred, u8, ... or f64", for the error on an unknown name.
std::string known_names() {
  std::string s;
  for (DType t : all_dtypes) {
    s += s.empty() ? "" : t == all_dtypes.back() ? " or " : ", ";
    s += name(t);
  }
  return s;
}
}  // namespace

const DTypeInfo& info(DType t) { return k_infos[static_cast<int>(t)]; }

DType dtype_from_name(std::string_view n) {
  for (DType t : all_dtypes)
    if (name(t) == n) return t;
  detail::fail("dtype: unknown dtype name '", n, "' (expected ", known_names(), ")");
}

DType promote(DType a, DType b) {
  if (a == b) return a;
  const DTypeInfo& x = info(a);
  const DTypeInfo& y = info(b);
  if (x.kind == DTypeKind::boolean) return b;
  if (y.kind == DTypeKind::boolean) return a;
  // Complex beats real; its parts are the promotion of both sides' real dtypes (c64 with f64 is c128).
  if (x.kind == DTypeKind::complex || y.kind == DTypeKind::complex)
    return complex_type(promote(real_part_type(a), real_part_type(b)));
  if (x.kind == DTypeKind::floating || y.kind == DTypeKind::floating) {
    if (x.kind != y.kind) return x.kind == DTypeKind::floating ? a : b;
    if (x.bits == y.bits) return DType::f32;  // f16 and bf16 (a != b)
    return x.bits >= y.bits ? a : b;
  }
  if (x.kind == y.kind) return x.bits >= y.bits ? a : b;
  // A signed and an unsigned integer (Nx.Type.merge): the signed type of at least twice the unsigned one's width,
  // capped at 64 bits (so u64 with any signed type is s64, which cannot hold all of u64: Nx's choice too).
  const DTypeInfo& s = x.kind == DTypeKind::signed_int ? x : y;
  const DTypeInfo& u = x.kind == DTypeKind::signed_int ? y : x;
  const int bits = std::min(64, std::max<int>(s.bits, 2 * u.bits));
  return bits <= 8 ? DType::s8 : bits <= 16 ? DType::s16 : bits <= 32 ? DType::s32 : DType::s64;
}

DType float_type(DType t) { return is_float(t) || is_complex(t) ? t : DType::f32; }

DType real_part_type(DType t) {
  switch (t) {
#define NXV_COMPLEX_DTYPE(name, bytes, bits, value, part) \
  case DType::name:                                       \
    return DType::part;
#include "shared/dtypes.def"
    default:
      return t;
  }
}

DType complex_type(DType t) { return real_part_type(t) == DType::f64 ? DType::c128 : DType::c64; }

}  // namespace nxv
