#include "ops/op.hpp"

#include <iterator>

namespace nxv {

namespace {

// The attribute structs in the order of OpAttrs, for attrs_mismatch's message.
constexpr const char* kAttrsNames[] = {"NoAttrs",        "UnaryAttrs",      "BinaryAttrs",
                                       "ReduceAttrs",    "ArgReduceAttrs",  "TransposeAttrs",
                                       "BroadcastAttrs", "SliceAttrs",      "PadAttrs",
                                       "AxisAttrs",      "ReverseAttrs",    "DotAttrs",
                                       "FullAttrs",      "UniformAttrs",    "NormalAttrs",
                                       "ConvAttrs",      "WindowAttrs",     "PutSliceAttrs",
                                       "SortAttrs",      "CumulativeAttrs", "TriangularSolveAttrs",
                                       "QrAttrs",        "FftAttrs"};
static_assert(std::size(kAttrsNames) == std::variant_size_v<OpAttrs>, "one name per alternative of OpAttrs");

}  // namespace

void attrs_mismatch(const OpCall& call, std::size_t wanted) {
  detail::fail(op_name(call.code), ": takes ", kAttrsNames[op_info(call.code).attrs], ", but the call holds ",
               kAttrsNames[call.attrs.index()], " and was read as ", kAttrsNames[wanted],
               " (an OpCall built or read with the wrong attribute struct)");
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

const char* fn_name(ArgReduceFn f) { return f == ArgReduceFn::argmax ? "argmax" : "argmin"; }

std::string describe(const OpCall& call) {
  switch (call.code) {
    case OpCode::unary:
    case OpCode::unary_test:
      return fn_name(call.attrs_as<UnaryAttrs>().fn);
    case OpCode::binary:
    case OpCode::binary_test:
      return fn_name(call.attrs_as<BinaryAttrs>().fn);
    case OpCode::reduce:
      return fn_name(call.attrs_as<ReduceAttrs>().fn);
    case OpCode::arg_reduce:
      return fn_name(call.attrs_as<ArgReduceAttrs>().fn);
    case OpCode::window_reduce:
      return std::string("window_") + fn_name(call.attrs_as<WindowAttrs>().fn);
    case OpCode::window_scatter:
      return std::string("window_scatter_") + fn_name(call.attrs_as<WindowAttrs>().fn);
    case OpCode::cumulative:
      return std::string("cumulative_") + fn_name(call.attrs_as<CumulativeAttrs>().fn);
    default:
      return op_name(call.code);
  }
}

}  // namespace nxv
