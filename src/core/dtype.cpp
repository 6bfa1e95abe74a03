#include "nxv/dtype.hpp"

#include "nxv/error.hpp"

namespace nxv {

namespace {
constexpr DTypeInfo k_infos[kNumDTypes] = {
    {"pred", 1, DTypeKind::boolean, 1},    {"u8", 1, DTypeKind::unsigned_int, 8}, {"s32", 4, DTypeKind::signed_int, 32},
    {"s64", 8, DTypeKind::signed_int, 64}, {"f32", 4, DTypeKind::floating, 32},   {"f64", 8, DTypeKind::floating, 64},
};
}  // namespace

const DTypeInfo& info(DType t) { return k_infos[static_cast<int>(t)]; }

DType dtype_from_name(std::string_view n) {
  for (DType t : all_dtypes)
    if (name(t) == n) return t;
  detail::fail("dtype: unknown dtype name '", n, "' (expected pred, u8, s32, s64, f32 or f64)");
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
