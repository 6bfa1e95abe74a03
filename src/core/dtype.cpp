#include "nxv/dtype.hpp"

#include <iterator>
#include <string>

#include "nxv/error.hpp"

namespace nxv {

namespace {
constexpr DTypeInfo k_infos[] = {
#define NXV_DTYPE(name, bytes, kind, bits, ...) {#name, bytes, DTypeKind::kind, bits},
#include "shared/dtypes.def"
};

// include/nxv/dtype.hpp writes the enum and dtype_of out rather than installing the table: they must agree with it.
constexpr DType k_rows[] = {
#define NXV_DTYPE(name, ...) DType::name,
#include "shared/dtypes.def"
};
static_assert(std::size(k_rows) == std::size(all_dtypes),
              "kNumDTypes (include/nxv/dtype.hpp) is not the rows of dtypes.def");
constexpr bool enum_in_row_order() {
  for (int i = 0; i < kNumDTypes; ++i)
    if (static_cast<int>(k_rows[i]) != i) return false;
  return true;
}
static_assert(enum_in_row_order(), "DType (include/nxv/dtype.hpp) does not list dtypes.def's rows in their order");
#define NXV_DTYPE(name, bytes, kind, bits, value, storage, ...)                                                  \
  static_assert(dtype_of_v<value> == DType::name, "dtype_of<" #value "> (include/nxv/dtype.hpp) is not " #name); \
  static_assert(sizeof(storage) == bytes && sizeof(value) == bytes, #name ": its C++ types are not `bytes` wide");
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
  if (x.kind == DTypeKind::floating || y.kind == DTypeKind::floating) {
    if (x.kind != y.kind) return x.kind == DTypeKind::floating ? a : b;
    return x.bits >= y.bits ? a : b;
  }
  // Both integers: a signed type holds an unsigned one when it is wider (all our signed types are wider than u8).
  return x.bits >= y.bits ? (x.kind == DTypeKind::unsigned_int && y.kind == DTypeKind::signed_int ? b : a)
                          : (y.kind == DTypeKind::unsigned_int && x.kind == DTypeKind::signed_int ? a : b);
}

DType float_type(DType t) { return is_float(t) ? t : DType::f32; }

}  // namespace nxv
