// The GLSL spelling of dtypes in generated kernels (design in glsl_types.hpp).
#include "vulkan/fusion/glsl_types.hpp"

#include <cctype>
#include <cmath>
#include <sstream>

#include "vulkan/kernels/layout.hpp"

namespace nxv::vulkan::fusion {

// A dtype's compute type and buffer element type in GLSL (shared/dtypes.def).
const char* compute_type(DType t) { return kernels::glsl_type(t).compute; }
const char* store_type(DType t) { return kernels::glsl_type(t).store; }
bool is_narrow(DType t) {
  return size_of(t) < 4;
}  // stored in fewer bits than its compute type (pred, u8, s8, s16, u16)

// Generated kernels keep s8 and s16 in unsigned buffers (uint8_t, uint16_t) and sign-extend by hand: NVIDIA's
// compiler (driver 580) got the minimum value wrong when a fused kernel converted int8_t/int16_t loads (-128 became
// 128 in s8 -> s32, -32768 became 32768 in s16 -> u64), while the eager kernels' same conversions were right.
bool is_narrow_signed(DType t) { return is_narrow(t) && info(t).kind == DTypeKind::signed_int; }
int bits_of(DType t) { return 8 * static_cast<int>(size_of(t)); }
std::string buffer_type(DType t) {
  if (!is_narrow_signed(t)) return store_type(t);
  return size_of(t) == 1 ? "uint8_t" : "uint16_t";
}
namespace {
std::string half_fn(DType t, const char* direction) { return "nxv_" + std::string(name(t)) + direction; }
}  // namespace

// A buffer element `expr` (of buffer_type) as t's compute type.
std::string load_expr(DType t, const std::string& expr) {
  if (is_half_float(t)) return half_fn(t, "_to_float") + "(" + expr + ")";
  if (is_narrow_signed(t)) return "bitfieldExtract(int(uint(" + expr + ")), 0, " + std::to_string(bits_of(t)) + ")";
  return std::string(compute_type(t)) + "(" + expr + ")";
}
// A compute value `expr` as a buffer element of t (integer stores truncate).
std::string store_expr(DType t, const std::string& expr) {
  if (is_half_float(t)) return half_fn(t, "_from_float") + "(" + expr + ")";
  if (is_narrow_signed(t)) return buffer_type(t) + "(uint(" + expr + "))";
  return std::string(store_type(t)) + "(" + expr + ")";
}

// `expr` truncated to t's width as the eager kernel's store would (u8 arithmetic wraps at 256, s8 at +-128; f16 and
// bf16 round).
std::string truncated(DType t, const std::string& expr) {
  if (is_half_float(t)) return load_expr(t, store_expr(t, expr));
  if (is_narrow_signed(t)) return "bitfieldExtract(int(" + expr + "), 0, " + std::to_string(bits_of(t)) + ")";
  return is_narrow(t) ? std::string(compute_type(t)) + "(" + store_type(t) + "(" + expr + "))" : expr;
}

std::string rounded_half(DType t, const std::string& expr) { return is_half_float(t) ? truncated(t, expr) : expr; }

// The largest (or smallest) value of integer dtype `t` as a GLSL constant of its compute type.
std::string integer_limit(DType t, bool largest) {
  const int bits = 8 * static_cast<int>(size_of(t));
  const std::string c = compute_type(t);
  if (info(t).kind == DTypeKind::unsigned_int) {
    if (!largest) return c + "(0)";
    return bits == 64 ? "~uint64_t(0)" : bits == 32 ? "0xffffffffu" : std::to_string((1u << bits) - 1) + "u";
  }
  if (bits == 64) return largest ? "int64_t(0x7fffffffffffffffl)" : "int64_t(0x8000000000000000ul)";
  if (bits == 32) return largest ? "0x7fffffff" : "int(0x80000000u)";
  const std::int64_t half = std::int64_t{1} << (bits - 1);
  return std::to_string(largest ? half - 1 : -half);
}

// The body of cast.comp's convert() for one (source, destination) pair, with A_T/OUT_T spelled out.
std::string convert_body(DType from, DType to) {
  const std::string a = compute_type(from);
  std::ostringstream s;
  if (to == DType::pred) {
    s << "  return nxv_nonzero(x);\n";
  } else if (is_float(from) && is_integer(to)) {
    // Saturating and truncating, NaN -> 0 (reference/dtype_dispatch.hpp's convert): values at or beyond 2^(bits-1)
    // (signed) or 2^bits (unsigned) saturate; those in between truncate to the same end, so powers of two suffice
    // as bounds, and they are exact in every float type.
    const std::string c = compute_type(to);
    const int bits = 8 * static_cast<int>(size_of(to));
    const bool is_signed = info(to).kind == DTypeKind::signed_int;
    const std::string high = a + "(" + std::to_string(std::ldexp(1.0, is_signed ? bits - 1 : bits)) + ")";
    s << "  if (isnan(x)) return " << c << "(0);\n"
      << "  if (x >= " << high << ") return " << integer_limit(to, true) << ";\n"
      << "  if (x <= " << (is_signed ? "-" + high : a + "(0)") << ") return " << integer_limit(to, false) << ";\n";
    s << "  return " << c << "(x);\n";
  } else if (info(from).kind == DTypeKind::signed_int && to == DType::u64 && size_of(from) < 8) {
    // Sign-extend to 64 bits first: NVIDIA's compiler (driver 580) turned uint64_t(int) of a value loaded from an
    // int16_t buffer into a zero extension of the 16 bits (as_type s16 -> u64 of -32768 gave 32768).
    s << "  return uint64_t(int64_t(x));\n";
  } else if (from == DType::u32 && (is_float(to) || to == DType::u64)) {
    // Widened by hand (high word 0): NVIDIA's compiler (driver 580) converted a u32 that a fused kernel had computed
    // from a sign-extended s8/s16 as if it were signed (as_type s8 -> u32 -> f64 of -126 gave -126.0, not
    // 4294967170), through double(x) and through uint64_t(x) alike.
    s << "  return " << compute_type(to) << "(pack64(uvec2(x, 0u)));\n";
  } else {
    s << "  return " << compute_type(to) << "(x);\n";
  }
  return s.str();
}

// A constant as a GLSL expression of its compute type, read from push-constant words `at` (and `at + 1`).
std::string push_constant(DType t, int at) {
  const std::string lo = "pc.w[" + std::to_string(at) + "]", hi = "pc.w[" + std::to_string(at + 1) + "]";
  switch (t) {
    case DType::pred:
    case DType::u8:
      return "(" + lo + " & 0xffu)";
    case DType::u16:
      return "(" + lo + " & 0xffffu)";
    case DType::u32:
      return lo;
    case DType::s8:  // the word holds the element's bits: sign-extend them
      return "bitfieldExtract(int(" + lo + "), 0, 8)";
    case DType::s16:
      return "bitfieldExtract(int(" + lo + "), 0, 16)";
    case DType::s32:
      return "int(" + lo + ")";
    case DType::s64:
      return "int64_t(pack64(uvec2(" + lo + ", " + hi + ")))";
    case DType::u64:
      return "pack64(uvec2(" + lo + ", " + hi + "))";
    case DType::f32:
      return "uintBitsToFloat(" + lo + ")";
    case DType::f64:
      return "packDouble2x32(uvec2(" + lo + ", " + hi + "))";
    case DType::f16:
    case DType::bf16:  // the word holds the element's 16 bits
      return load_expr(t, "uint16_t(" + lo + " & 0xffffu)");
    case DType::c64:  // never reached: the front end lowers complex ops to real ones
    case DType::c128:
      break;
  }
  return "?";
}

// The identity reduce.comp starts each lane from, for a reduction of `fn` over `in` accumulated in `acc`.
std::string reduce_identity(ReduceFn fn, DType in, const std::string& acc) {
  if (fn == ReduceFn::all) return "1u";
  if (fn == ReduceFn::any) return "0u";
  if (fn == ReduceFn::sum) return acc + "(0)";
  if (fn == ReduceFn::product) return acc + "(1)";
  const bool max = fn == ReduceFn::max;
  if (is_float(in)) return (max ? "-" : "") + acc + "(uintBitsToFloat(0x7f800000u))";
  // min's identity is the type's highest value: 1 for pred (reduce.comp's UINT_HIGHEST), the dtype's own otherwise.
  if (in == DType::pred) return max ? "0u" : "1u";
  return integer_limit(in, !max);
}

// src/vulkan/kernels/kernels.cmake's nxv_type_defines for prefix A.
std::string type_defines(DType t) {
  std::string upper(name(t));
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return std::string("#define A_STORE ") + store_type(t) + "\n#define A_T " + compute_type(t) + "\n#define A_IS_" +
         kernels::glsl_type(t).kind + " 1\n#define A_" + upper + " 1\n#define A_BITS " +
         std::to_string(8 * size_of(t)) + "\n";
}

}  // namespace nxv::vulkan::fusion
