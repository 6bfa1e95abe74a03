// Batching rules, part 1: the one switch over OpCode, and the rules of the elementwise, shape and reduction ops.
//
// How to add a rule for a new op (the switch has no `default:`, so -Wswitch names an OpCode without one):
//  1. Write `Tensor batch_<op>(const RuleContext& c)`: c.args are the node's inputs, each batched (axis 0 is the
//     batch axis) or shared; return the op's result for every example, batch axis first ([c.size] + c.out.shape).
//     Build the batched OpCall directly and apply() it, so that each example's arithmetic stays the unbatched op's
//     (the tests compare with the per-example calls bit for bit). An op that works on the trailing axes only
//     usually needs its axis attributes shifted by one (shifted()); an op with several inputs usually needs the
//     shared ones broadcast first (ensure_batched()). per_example_loop() is the exact, slow fallback.
//  2. Add its case below (a new family may go into its own batching_rules_<family>.cpp, declared in batching.hpp).
//  3. Add its row to the op table of tests/trace/batching_rules_test.cpp, with batched and shared inputs mixed.
// A node that holds subgraphs (control flow) batches its bodies with evaluate_batched() (batching.hpp). Where a
// loop's condition or a cond's predicate comes out batched, the examples diverge: as JAX's vmap does, a loop then
// runs while any example's condition holds and keeps finished examples' carries with select, and a cond evaluates
// both branches and selects per example.
#include "nxv/ops.hpp"
#include "ops/apply.hpp"
#include "trace/batching.hpp"

namespace nxv::batching {

Shape with_batch_dim(std::int64_t size, const Shape& shape) {
  Shape s{size};
  for (std::int64_t d : shape) s.push_back(d);
  return s;
}

TensorType batched_type(const RuleContext& c) { return {with_batch_dim(c.size, c.out.shape), c.out.dtype}; }

Tensor ensure_batched(const Batched& x, std::int64_t size) {
  if (x.batched) return x.value;
  Axes axes;
  for (int i = 0; i < x.value.rank(); ++i) axes.push_back(i + 1);
  return apply(OpCall{OpCode::broadcast, BroadcastAttrs{axes}}, {x.value},
               {with_batch_dim(size, x.value.shape()), x.value.dtype()});
}

Axes shifted(const Axes& axes, std::optional<std::int64_t> first) {
  Axes out;
  if (first) out.push_back(*first);
  for (std::int64_t a : axes) out.push_back(a + 1);
  return out;
}

Tensor move_axis(const Tensor& x, int from, int to) {
  if (from == to) return x;
  Axes perm;
  for (int i = 0; i < x.rank(); ++i)
    if (i != from) perm.push_back(i);
  perm.insert(to, from);
  return transpose(x, perm);
}

Tensor per_example_loop(const RuleContext& c) {
  std::vector<Tensor> rows;
  for (std::int64_t b = 0; b < c.size; ++b) {
    std::vector<Tensor> args;
    for (const Batched& a : c.args) {
      if (!a.batched) {
        args.push_back(a.value);
        continue;
      }
      Shape starts = Shape::filled(a.value.rank(), 0), lengths = a.value.shape();
      starts[0] = b;
      lengths[0] = 1;
      const Shape per_example(a.value.shape().begin() + 1, a.value.shape().end());
      args.push_back(reshape(slice(a.value, starts, lengths), per_example));
    }
    const Tensor row = args.empty() ? apply_on(c.backend, c.call, c.out) : apply(c.call, args, c.out);
    rows.push_back(reshape(row, with_batch_dim(1, c.out.shape)));
  }
  return rows.size() == 1 ? rows[0] : concatenate(rows, 0);
}

namespace {

// Elementwise ops broadcast their inputs right-aligned, so a batched input of lower per-example rank than the
// result gets size-1 axes after its batch axis; shared inputs broadcast as they are.
Tensor batch_elementwise(const RuleContext& c) {
  const int rank = c.out.shape.size();
  std::vector<Tensor> args;
  for (const Batched& a : c.args) {
    Tensor v = a.value;
    if (a.batched && v.rank() - 1 < rank) {
      Shape s{v.shape()[0]};
      for (int i = v.rank() - 1; i < rank; ++i) s.push_back(1);
      for (int i = 1; i < v.rank(); ++i) s.push_back(v.shape()[i]);
      v = reshape(v, s);
    }
    args.push_back(v);
  }
  return apply(c.call, args, batched_type(c));
}

// Ops of one input whose attributes name axes of it: the same op on axes shifted past the batch axis.
template <class Attrs, class Edit>
Tensor batch_attrs(const RuleContext& c, Edit edit) {
  Attrs attrs = c.call.attrs_as<Attrs>();
  edit(attrs);
  return apply(OpCall{c.call.code, attrs}, {c.args[0].value}, batched_type(c));
}

Tensor batch_arg_reduce(const RuleContext& c) {
  ArgReduceAttrs attrs = c.call.attrs_as<ArgReduceAttrs>();
  if (attrs.axis) {
    attrs.axis = *attrs.axis + 1;
    return apply(OpCall{c.call.code, attrs}, {c.args[0].value}, batched_type(c));
  }
  // Over all axes, each example flattened row-major: the rows of [size, example size].
  const Tensor& x = c.args[0].value;
  const std::int64_t n = num_elements(Shape(x.shape().begin() + 1, x.shape().end()));
  const ArgReduceAttrs rows{attrs.fn, 1, false};
  const Tensor r = apply(OpCall{c.call.code, rows}, {reshape(x, {c.size, n})}, {{c.size}, DType::s64});
  return reshape(r, batched_type(c).shape);
}

Tensor batch_concatenate(const RuleContext& c) {
  std::vector<Tensor> args;
  for (const Batched& a : c.args) args.push_back(ensure_batched(a, c.size));
  const AxisAttrs attrs{c.call.attrs_as<AxisAttrs>().axis + 1};
  return apply(OpCall{OpCode::concatenate, attrs}, args, batched_type(c));
}

Tensor batch_one_input(const RuleContext& c) { return apply(c.call, {c.args[0].value}, batched_type(c)); }

// Ops batched over their leading axes already (linear algebra): every input batched, the call unchanged.
Tensor batch_every_input(const RuleContext& c) {
  std::vector<Tensor> args;
  for (const Batched& a : c.args) args.push_back(ensure_batched(a, c.size));
  return apply(c.call, args, batched_type(c));
}

[[noreturn]] Tensor no_inputs(const RuleContext& c) {
  detail::fail("vectorize: ", describe(c.call), " has no inputs, so it cannot be batched (a bug in vectorize)");
}

}  // namespace

Tensor batch_op(const RuleContext& c) {
  // An empty batch: nothing to compute (and some rules would build invalid calls, e.g. zero feature groups).
  if (c.size == 0) return full(batched_type(c).shape, 0.0, c.out.dtype, c.backend);
  switch (c.call.code) {
    case OpCode::unary:
    case OpCode::unary_test:
    case OpCode::binary:
    case OpCode::binary_test:
    case OpCode::select:
    case OpCode::clip:
    case OpCode::cast:
      return batch_elementwise(c);
    case OpCode::reduce:
      return batch_attrs<ReduceAttrs>(c, [](ReduceAttrs& a) { a.axes = shifted(a.axes); });
    case OpCode::arg_reduce:
      return batch_arg_reduce(c);
    case OpCode::reshape:
      return batch_one_input(c);
    case OpCode::transpose:
      return batch_attrs<TransposeAttrs>(c, [](TransposeAttrs& a) { a.permutation = shifted(a.permutation, 0); });
    case OpCode::broadcast:
      return batch_attrs<BroadcastAttrs>(c, [](BroadcastAttrs& a) { a.axes = shifted(a.axes, 0); });
    case OpCode::slice:
      return batch_attrs<SliceAttrs>(c, [](SliceAttrs& a) {
        a.starts.insert(0, 0);
        if (!a.strides.empty()) a.strides.insert(0, 1);
      });
    case OpCode::pad:
      return batch_attrs<PadAttrs>(c, [](PadAttrs& a) {
        a.low.insert(0, 0);
        a.high.insert(0, 0);
        a.interior.insert(0, 0);
      });
    case OpCode::concatenate:
      return batch_concatenate(c);
    case OpCode::reverse:
      return batch_attrs<ReverseAttrs>(c, [](ReverseAttrs& a) { a.axes = shifted(a.axes); });
    case OpCode::dot:
      return batch_dot(c);
    case OpCode::iota:
    case OpCode::eye:
    case OpCode::full:
    case OpCode::random_uniform:
    case OpCode::random_normal:
      return no_inputs(c);
    case OpCode::conv:
      return batch_conv(c);
    case OpCode::window_reduce:
      return batch_window_reduce(c);
    case OpCode::window_scatter:
      return batch_window_scatter(c);
    case OpCode::take:
      return batch_take(c);
    case OpCode::take_along_axis:
      return batch_take_along_axis(c);
    case OpCode::gather:
      return batch_gather(c);
    case OpCode::indexed_add:
    case OpCode::indexed_put:
      return batch_indexed_update(c);
    case OpCode::put_slice:
      return batch_put_slice(c);
    case OpCode::sort:
    case OpCode::argsort:
      return batch_attrs<SortAttrs>(c, [](SortAttrs& a) { ++a.axis; });
    case OpCode::cumulative:
      return batch_attrs<CumulativeAttrs>(c, [](CumulativeAttrs& a) { ++a.axis; });
    case OpCode::bitcast:    // elementwise: the batched bits reinterpreted alike
    case OpCode::real_view:  // the pairs' axis is the last, the batch axis the first
    case OpCode::complex_view:
      return batch_one_input(c);
    case OpCode::cholesky:
    case OpCode::triangular_solve:
    case OpCode::lu:
    case OpCode::qr:
    case OpCode::eigh:
    case OpCode::svd:
    case OpCode::fft:
      return batch_every_input(c);
  }
  detail::fail("vectorize: no batching rule for ", describe(c.call));
}

}  // namespace nxv::batching
