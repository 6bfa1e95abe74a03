#include "ops/op.hpp"

#include <sstream>

namespace nxv {

const char* op_name(OpCode code) {
  switch (code) {
    case OpCode::unary: return "unary";
    case OpCode::unary_test: return "unary_test";
    case OpCode::binary: return "binary";
    case OpCode::binary_test: return "binary_test";
    case OpCode::select: return "select";
    case OpCode::clip: return "clip";
    case OpCode::cast: return "as_type";
    case OpCode::reduce: return "reduce";
    case OpCode::arg_reduce: return "arg_reduce";
    case OpCode::reshape: return "reshape";
    case OpCode::transpose: return "transpose";
    case OpCode::broadcast: return "broadcast";
    case OpCode::slice: return "slice";
    case OpCode::pad: return "pad";
    case OpCode::concatenate: return "concatenate";
    case OpCode::reverse: return "reverse";
    case OpCode::dot: return "dot";
    case OpCode::iota: return "iota";
    case OpCode::eye: return "eye";
    case OpCode::full: return "full";
    case OpCode::random_uniform: return "random_uniform";
    case OpCode::random_normal: return "random_normal";
    case OpCode::conv: return "conv";
    case OpCode::window_reduce: return "window_reduce";
    case OpCode::window_scatter: return "window_scatter";
    case OpCode::take: return "take";
    case OpCode::take_along_axis: return "take_along_axis";
    case OpCode::gather: return "gather";
    case OpCode::indexed_add: return "indexed_add";
    case OpCode::indexed_put: return "indexed_put";
    case OpCode::put_slice: return "put_slice";
    case OpCode::sort: return "sort";
    case OpCode::argsort: return "argsort";
    case OpCode::cumulative: return "cumulative";
  }
  return "?";
}

const char* fn_name(UnaryFn f) {
  switch (static_cast<int>(f)) {
#define NXV_UNARY(id, name, cls, expr) \
  case id:                             \
    return #name;
#define NXV_BINARY(id, name, cls, expr)
#include "shared/elementwise.def"
  }
  return "?";
}

const char* fn_name(BinaryFn f) {
  switch (static_cast<int>(f)) {
#define NXV_UNARY(id, name, cls, expr)
#define NXV_BINARY(id, name, cls, expr) \
  case id:                              \
    return #name;
#include "shared/elementwise.def"
  }
  return "?";
}

const char* fn_name(ReduceFn f) {
  static const char* const names[] = {"sum", "product", "max", "min", "all", "any"};
  return names[static_cast<int>(f)];
}

std::string describe(const OpCall& call) {
  std::ostringstream s;
  switch (call.code) {
    case OpCode::unary:
    case OpCode::unary_test: return fn_name(static_cast<UnaryFn>(call.attrs.fn));
    case OpCode::binary:
    case OpCode::binary_test: return fn_name(static_cast<BinaryFn>(call.attrs.fn));
    case OpCode::reduce: return fn_name(static_cast<ReduceFn>(call.attrs.fn));
    case OpCode::arg_reduce: return call.attrs.fn == 0 ? "argmax" : "argmin";
    case OpCode::window_reduce: return std::string("window_") + fn_name(static_cast<ReduceFn>(call.attrs.fn));
    case OpCode::window_scatter: return std::string("window_scatter_") + fn_name(static_cast<ReduceFn>(call.attrs.fn));
    case OpCode::cumulative: return std::string("cumulative_") + fn_name(static_cast<ReduceFn>(call.attrs.fn));
    default: return op_name(call.code);
  }
}

}  // namespace nxv
