// Tracing: graphs recorded from functions of tensors, captured constants, nesting, printing, containers.
#include <gtest/gtest.h>

#include "nxv/defn.hpp"
#include "nxv/grad.hpp"
#include "nxv/ops.hpp"
#include "trace/graph.hpp"
#include "trace/tracer.hpp"

namespace nxv {
namespace {

Tensor vec(std::vector<float> v) { return tensor(v, {static_cast<std::int64_t>(v.size())}, reference_backend()); }

TEST(Trace, RecordsOneNodePerOpInTopologicalOrder) {
  const TracedFunction f = trace([](const Tensor& x, const Tensor& y) { return sum(exp(x) * y, Axes{1}); },
                                 zeros({32, 128}), zeros({32, 128}));
  const Graph& g = *f.graph;
  ASSERT_EQ(g.parameters.size(), 2u);
  ASSERT_EQ(g.outputs.size(), 1u);
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    for (NodeId in : g.nodes[i].inputs) EXPECT_LT(in, static_cast<NodeId>(i));
  EXPECT_EQ(to_string(g),
            "%0 = parameter(0) : f32[32, 128]\n"
            "%1 = parameter(1) : f32[32, 128]\n"
            "%2 = unary(exp) %0 : f32[32, 128]\n"
            "%3 = binary(multiply) %2, %1 : f32[32, 128]\n"
            "%4 = reduce(sum, axes=[1]) %3 : f32[32]\n"
            "outputs: %4\n");
}

TEST(Trace, CapturedTensorsBecomeConstants) {
  const Tensor w = vec({1, 2, 3});
  const TracedFunction f = trace([&](const Tensor& x) { return x * w + 2.0; }, zeros({3}));
  const Graph& g = *f.graph;
  int constants = 0, fulls = 0;
  for (const Node& n : g.nodes) {
    constants += n.kind == NodeKind::constant;
    fulls += n.kind == NodeKind::op && n.call.code == OpCode::full;
  }
  EXPECT_EQ(constants, 1) << to_string(g);
  EXPECT_EQ(fulls, 1) << "the literal 2.0 is a full node on the tracer\n" << to_string(g);
  EXPECT_NE(to_string(g).find("constant([1, 2, 3])"), std::string::npos) << to_string(g);
}

TEST(Trace, HostDataCreatedOnTheTracerIsAConstant) {
  const TracedFunction f = trace(
      [](const Tensor& x) {
        return x + tensor<float>({1, 2}, {2}, x.backend());  // x.backend() is the tracer
      },
      zeros({2}));
  EXPECT_EQ(f.graph->nodes[1].kind, NodeKind::constant) << to_string(*f.graph);
}

TEST(Trace, ReadingValuesOfATracedTensorThrows) {
  try {
    trace(
        [](const Tensor& x) {
          (void)x.item();
          return x;
        },
        zeros({}));
    FAIL() << "expected nxv::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot read the values of a traced tensor"), std::string::npos) << e.what();
  }
}

TEST(Trace, EscapedTracedTensorThrowsWhenUsedLater) {
  Tensor leaked;
  trace(
      [&](const Tensor& x) {
        leaked = x * 2.0;
        return x;
      },
      zeros({2}));
  EXPECT_THROW(leaked + 1.0, Error);
  EXPECT_THROW(leaked + zeros({2}), Error);
}

TEST(Trace, OuterTracedTensorsAreConstantsOfTheInnerTrace) {
  std::string inner_graph;
  trace(
      [&](const Tensor& y) {
        const TracedFunction inner = trace([&](const Tensor& x) { return x * y; }, zeros({2}));
        inner_graph = to_string(*inner.graph);
        return y;
      },
      zeros({2}));
  EXPECT_NE(inner_graph.find("constant(traced by an enclosing trace)"), std::string::npos) << inner_graph;
  EXPECT_NE(inner_graph.find("binary(multiply) %0, %1"), std::string::npos) << inner_graph;
}

TEST(Trace, PrintsAttributesOfEveryOpFamily) {
  const TracedFunction f = trace(
      [](const Tensor& x) {
        const Tensor t = transpose(x, Axes{1, 0});
        const Tensor s = slice(t, {0, 0}, {2, 2}, Axes{1, 2});
        const Tensor p = pad(s, 0.0, {{1, 0, 1}, {0, 0, 0}});
        return dot(p, {0}, {}, t, {0}, {});
      },
      zeros({3, 4}));
  const std::string text = to_string(*f.graph);
  for (const char* expected :
       {"transpose(axes=[1, 0])", "slice(starts=[0, 0], strides=[1, 2])",
        "pad(low=[1, 0], high=[0, 0], interior=[1, 0], value=0)", "dot(contract=[0]x[0], batch=[]x[])"})
    EXPECT_NE(text.find(expected), std::string::npos) << expected << " in\n" << text;
}

TEST(TraceContainers, FlattenAndUnflattenNestedContainers) {
  using Tree = std::tuple<Tensor, std::vector<Tensor>, std::map<std::string, std::pair<Tensor, Tensor>>>;
  const Tree tree{vec({1}), {vec({2}), vec({3})}, {{"b", {vec({4}), vec({5})}}, {"a", {vec({6}), vec({7})}}}};
  std::vector<Tensor> leaves;
  const Structure s = flatten(tree, leaves);
  ASSERT_EQ(leaves.size(), 7u);
  EXPECT_EQ(s.leaf_count(), 7u);
  EXPECT_EQ(to_string(s), "(Tensor, [Tensor, Tensor], {a: (Tensor, Tensor), b: (Tensor, Tensor)})");
  EXPECT_EQ(leaves[3].item(), 6.0) << "map entries flatten in key order";
  const Tree back = unflatten<Tree>(s, leaves);
  EXPECT_EQ(std::get<2>(back).at("b").second.item(), 5.0);
  EXPECT_EQ(std::get<1>(back)[1].item(), 3.0);
}

TEST(TraceContainers, UnflattenRejectsTheWrongNumberOfLeaves) {
  std::vector<Tensor> leaves;
  const Structure s = flatten(std::vector<Tensor>{vec({1}), vec({2})}, leaves);
  leaves.pop_back();
  EXPECT_THROW(unflatten<std::vector<Tensor>>(s, leaves), Error);
  std::vector<Tensor> one{vec({1})};
  using Two = std::tuple<Tensor, Tensor>;
  EXPECT_THROW(unflatten<Two>(Structure{}, one), Error);
}

TEST(TraceContainers, TracesFunctionsOfContainersReturningContainers) {
  const Params p{{"w", zeros({3, 2})}, {"b", zeros({2})}};
  const TracedFunction f =
      trace([](const Params& p,
               const Tensor& x) { return std::make_pair(dot(x, p.at("w")) + p.at("b"), std::vector<Tensor>{x}); },
            p, zeros({4, 3}));
  EXPECT_EQ(to_string(f.inputs), "({b: Tensor, w: Tensor}, Tensor)");
  EXPECT_EQ(to_string(f.outputs), "(Tensor, [Tensor])");
  EXPECT_EQ(f.graph->outputs[1], f.graph->parameters[2]) << "an input returned as is is its parameter node";
}

}  // namespace
}  // namespace nxv
