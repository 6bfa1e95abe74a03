// The GLSL spelling of dtypes in generated kernels: compute and buffer types, loads, stores and truncation to a
// dtype's width, integer limits, constants from push words, casts and reduction identities (shared by codegen.cpp's
// generators; each mirrors what the eager kernels in src/vulkan/kernels do, so that fused = eager bit for bit).
#pragma once
#include <string>

#include "nxv/dtype.hpp"
#include "vulkan/fusion/plan.hpp"

namespace nxv::vulkan::fusion {

// A dtype's compute type and buffer element type in GLSL (shared/dtypes.def).
const char* compute_type(DType t);
const char* store_type(DType t);
bool is_narrow(DType t);
// f16 and bf16: kept in uint16_t buffers, computed in float, converted by lib/half.glsl (round to nearest even).
// Generated kernels keep s8 and s16 in unsigned buffers (uint8_t, uint16_t) and sign-extend by hand: NVIDIA's
// compiler (driver 580) got the minimum value wrong when a fused kernel converted int8_t/int16_t loads (-128 became
// 128 in s8 -> s32, -32768 became 32768 in s16 -> u64), while the eager kernels' same conversions were right.
bool is_narrow_signed(DType t);
int bits_of(DType t);
std::string buffer_type(DType t);
// A buffer element `expr` (of buffer_type) as t's compute type.
std::string load_expr(DType t, const std::string& expr);
// A compute value `expr` as a buffer element of t (integer stores truncate).
std::string store_expr(DType t, const std::string& expr);
// `expr` truncated to t's width as the eager kernel's store would (u8 arithmetic wraps at 256, s8 at +-128; f16 and
// bf16 round).
std::string truncated(DType t, const std::string& expr);
// `expr` rounded to t when t is f16 or bf16 (a value a kernel stored, read back from a register), else `expr`.
std::string rounded_half(DType t, const std::string& expr);
// The largest (or smallest) value of integer dtype `t` as a GLSL constant of its compute type.
std::string integer_limit(DType t, bool largest);
// The body of cast.comp's convert() for one (source, destination) pair, with A_T/OUT_T spelled out.
std::string convert_body(DType from, DType to);
// A constant as a GLSL expression of its compute type, read from push-constant words `at` (and `at + 1`).
std::string push_constant(DType t, int at);
// The identity reduce.comp starts each lane from, for a reduction of `fn` over `in` accumulated in `acc`.
std::string reduce_identity(ReduceFn fn, DType in, const std::string& acc);
// src/vulkan/kernels/kernels.cmake's nxv_type_defines for prefix A.
std::string type_defines(DType t);

}  // namespace nxv::vulkan::fusion
