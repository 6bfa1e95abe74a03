// The elementwise front-end ops as tables (name, function, integers only), for the tests that run every one of
// them: the eager parity suite (tests/parity/elementwise_parity_test.cpp) and the fused one (tests/vulkan/fusion/).
#pragma once
#include "nxv/ops.hpp"

namespace nxv::testing {

// Generated from the op table: a row added to shared/elementwise.def is tested by every suite that walks these.
struct UnaryOp {
  const char* name;
  Tensor (*fn)(const Tensor&);
  bool int_only = false;
};
struct BinaryOp {
  const char* name;
  Tensor (*fn)(const Tensor&, const Tensor&);
  bool int_only = false;
};

namespace op_table_detail {
enum Class { NUM, FLOAT, INT, TEST };
}  // namespace op_table_detail

#define NXV_UNARY(id, op, cls, expression) {#op, ::nxv::op, op_table_detail::cls == op_table_detail::INT},
#define NXV_BINARY(id, op, cls, expression)
inline const UnaryOp k_unary[] = {
#include "shared/elementwise.def"
};
#define NXV_UNARY(id, op, cls, expression)
#define NXV_BINARY(id, op, cls, expression) {#op, ::nxv::op, op_table_detail::cls == op_table_detail::INT},
inline const BinaryOp k_binary[] = {
#include "shared/elementwise.def"
};

}  // namespace nxv::testing
