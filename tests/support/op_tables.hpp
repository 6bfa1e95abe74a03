// The elementwise front-end ops as tables (name, function, integers only), for the tests that run every one of
// them: the eager parity suite (tests/parity/elementwise_parity_test.cpp) and the fused one (tests/vulkan/fusion/).
#pragma once
#include "nxv/ops.hpp"

namespace nxv::testing {

struct UnaryOp {
  const char* name;
  Tensor (*fn)(const Tensor&);
  bool int_only = false;
};
inline const UnaryOp k_unary[] = {{"negate", negate},
                                  {"abs", abs},
                                  {"sign", sign},
                                  {"floor", floor},
                                  {"ceil", ceil},
                                  {"round", round},
                                  {"square", square},
                                  {"exp", exp},
                                  {"expm1", expm1},
                                  {"log", log},
                                  {"log1p", log1p},
                                  {"sqrt", sqrt},
                                  {"rsqrt", rsqrt},
                                  {"sigmoid", sigmoid},
                                  {"tanh", tanh},
                                  {"sin", sin},
                                  {"cos", cos},
                                  {"erf", erf},
                                  {"reciprocal", reciprocal},
                                  {"bitwise_not", bitwise_not, true},
                                  {"is_nan", is_nan},
                                  {"is_infinity", is_infinity},
                                  {"logical_not", logical_not}};

struct BinaryOp {
  const char* name;
  Tensor (*fn)(const Tensor&, const Tensor&);
  bool int_only = false;
};
inline const BinaryOp k_binary[] = {{"add", add},
                                    {"subtract", subtract},
                                    {"multiply", multiply},
                                    {"divide", divide},
                                    {"pow", pow},
                                    {"max", max},
                                    {"min", min},
                                    {"remainder", remainder},
                                    {"quotient", quotient, true},
                                    {"atan2", atan2},
                                    {"bitwise_and", bitwise_and, true},
                                    {"bitwise_or", bitwise_or, true},
                                    {"bitwise_xor", bitwise_xor, true},
                                    {"left_shift", left_shift, true},
                                    {"right_shift", right_shift, true},
                                    {"equal", equal},
                                    {"not_equal", not_equal},
                                    {"less", less},
                                    {"less_equal", less_equal},
                                    {"greater", greater},
                                    {"greater_equal", greater_equal},
                                    {"logical_and", logical_and},
                                    {"logical_or", logical_or},
                                    {"logical_xor", logical_xor}};

}  // namespace nxv::testing
