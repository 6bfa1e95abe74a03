// The op table and OpCall's attributes: every op takes one attribute struct, attrs_as reads it or throws naming
// the op, and describe/format_call print each family's attributes as NXV_DEBUG, fallback counters and plans show them.
#include <gtest/gtest.h>

#include "ops/op.hpp"
#include "trace/graph.hpp"

namespace nxv {
namespace {

TEST(OpTable, EveryOpHasANameAndAnAttributeStruct) {
  for (int c = 0; c <= static_cast<int>(OpCode::bitcast); ++c) {  // bitcast is the last op code
    const OpInfo info = op_info(static_cast<OpCode>(c));
    EXPECT_STRNE(info.name, "?") << "op code " << c;
    EXPECT_LT(info.attrs, std::variant_size_v<OpAttrs>) << info.name;
  }
}

TEST(OpCallAttrs, ReadsTheStructItsOpTakes) {
  const OpCall call{OpCode::argsort, SortAttrs{.axis = 1, .descending = true}};
  EXPECT_EQ(call.attrs_as<SortAttrs>().axis, 1);
  EXPECT_TRUE(call.attrs_as<SortAttrs>().descending);
}

// Expects reading `call` as A to throw nxv::Error with every one of `parts` in its message.
template <class A>
void expect_mismatch(const OpCall& call, std::initializer_list<const char*> parts) {
  try {
    call.attrs_as<A>();
    ADD_FAILURE() << "expected an nxv::Error reading " << op_name(call.code) << "'s attributes";
  } catch (const Error& e) {
    const std::string msg = e.what();
    for (const char* p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "message: " << msg << "\nmissing: " << p;
  }
}

TEST(OpCallAttrs, ReadingAnotherStructIsAnErrorNamingTheOp) {
  expect_mismatch<SortAttrs>({OpCode::reduce, ReduceAttrs{}}, {"reduce: ", "takes ReduceAttrs", "read as SortAttrs"});
  expect_mismatch<ReduceAttrs>({OpCode::reduce, {}}, {"reduce: ", "takes ReduceAttrs", "holds NoAttrs"});
  // A call holding the struct asked for is still wrong when its op takes another.
  expect_mismatch<AxisAttrs>({OpCode::sort, AxisAttrs{1}}, {"sort: ", "takes SortAttrs", "holds AxisAttrs"});
}

TEST(OpCallAttrs, DescribeAndFormatCallPrintEveryFamily) {
  const Key key{7, 4000000000u};
  const struct {
    OpCall call;
    const char* described;
    const char* formatted;
  } cases[] = {
      {{OpCode::unary, UnaryAttrs{UnaryFn::exp}}, "exp", "unary(exp)"},
      {{OpCode::binary_test, BinaryAttrs{BinaryFn::less}}, "less", "binary_test(less)"},
      {{OpCode::reduce, ReduceAttrs{ReduceFn::max, {0, 2}, true}}, "max", "reduce(max, axes=[0, 2], keep_axes)"},
      {{OpCode::arg_reduce, ArgReduceAttrs{.fn = ArgReduceFn::argmin, .axis = 3}},
       "argmin",
       "arg_reduce(argmin, axes=[3])"},
      {{OpCode::arg_reduce, ArgReduceAttrs{.keep_axes = true}}, "argmax", "arg_reduce(argmax, axes=[], keep_axes)"},
      {{OpCode::cast, {}}, "as_type", "as_type"},
      {{OpCode::transpose, TransposeAttrs{{2, 0, 1}}}, "transpose", "transpose(axes=[2, 0, 1])"},
      {{OpCode::broadcast, BroadcastAttrs{{1, 3}}}, "broadcast", "broadcast(axes=[1, 3])"},
      {{OpCode::reverse, ReverseAttrs{{0}}}, "reverse", "reverse(axes=[0])"},
      {{OpCode::slice, SliceAttrs{{1, 2}, {1, 3}}}, "slice", "slice(starts=[1, 2], strides=[1, 3])"},
      {{OpCode::pad, PadAttrs{{1, -2}, {0, 3}, {2, 0}, 1.5}},
       "pad",
       "pad(low=[1, -2], high=[0, 3], interior=[2, 0], value=1.5)"},
      {{OpCode::concatenate, AxisAttrs{2}}, "concatenate", "concatenate(axis=2)"},
      {{OpCode::iota, AxisAttrs{1}}, "iota", "iota(axis=1)"},
      {{OpCode::take_along_axis, AxisAttrs{0}}, "take_along_axis", "take_along_axis(axis=0)"},
      {{OpCode::dot, DotAttrs{{1}, {0}, {2}, {0}}}, "dot", "dot(contract=[1]x[2], batch=[0]x[0])"},
      {{OpCode::full, FullAttrs{-0.0}}, "full", "full(-0)"},
      {{OpCode::random_uniform, UniformAttrs{key, -3, 5}},
       "random_uniform",
       "random_uniform(key=(7, 4000000000), -3, 5)"},
      {{OpCode::random_normal, NormalAttrs{key, 1.5, 0.25}},
       "random_normal",
       "random_normal(key=(7, 4000000000), 1.5, 0.25)"},
      {{OpCode::conv, ConvAttrs{{1, 2}, {0, 1}, {2, 1}, {1, 1}, {2, 1}, 2, 1}},
       "conv",
       "conv(strides=[1, 2], low=[0, 1], high=[2, 1], input_dilation=[1, 1], kernel_dilation=[2, 1], groups=2x1)"},
      {{OpCode::window_reduce, WindowAttrs{ReduceFn::max, {2, 2}, {2, 1}, {0, 1}, {1, 0}, {1, 2}}},
       "window_max",
       "window_reduce(max, window=[2, 2], strides=[2, 1], low=[0, 1], high=[1, 0])"},
      {{OpCode::window_scatter, WindowAttrs{.fn = ReduceFn::min, .window = {3}, .strides = {1}}},
       "window_scatter_min",
       "window_scatter(min, window=[3], strides=[1], low=[], high=[])"},
      {{OpCode::put_slice, PutSliceAttrs{{0, 3}}}, "put_slice", "put_slice(starts=[0, 3])"},
      {{OpCode::sort, SortAttrs{1, true}}, "sort", "sort(axis=1, descending)"},
      {{OpCode::argsort, SortAttrs{0, false}}, "argsort", "argsort(axis=0)"},
      {{OpCode::cumulative, CumulativeAttrs{ReduceFn::product, 0, true}},
       "cumulative_product",
       "cumulative(product, axis=0, reverse)"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(describe(c.call), c.described);
    EXPECT_EQ(format_call(c.call), c.formatted);
  }
}

}  // namespace
}  // namespace nxv
