// Batching rules, part 2: dot, conv, the window ops and the indexing ops (their cases are in batching_rules.cpp).
//
// The indexing ops address the examples with a batch coordinate: indices of every example get its number prepended
// as one more coordinate, so one gather or scatter over the batched operand reads (or writes) each example's own
// elements; reads clamp and writes drop out-of-range coordinates exactly as they did per example, since the
// batch coordinate is always in range.
#include "nxv/ops.hpp"
#include "ops/apply.hpp"
#include "trace/batching.hpp"

namespace nxv::batching {

namespace {

// indices [size, ..., k] -> [size, ..., k + 1], the example's number first.
Tensor with_batch_coordinate(const Tensor& indices, const RuleContext& c) {
  Shape s = indices.shape();
  s.back() = 1;
  const Tensor b = iota(s, 0, indices.dtype(), c.backend);
  return concatenate({b, indices}, indices.rank() - 1);
}

WindowAttrs batched_window(const WindowAttrs& at) {
  WindowAttrs a = at;
  a.window.insert(0, 1);
  a.strides.insert(0, 1);
  a.pad_low.insert(0, 0);
  a.pad_high.insert(0, 0);
  a.window_dilation.insert(0, 1);
  return a;
}

Shape dropped_front(const Shape& s, int n) { return Shape(s.begin() + n, s.end()); }

}  // namespace

// Both batched: a dot with one more batch axis. One side batched: its batch axis is a free axis of the dot, which
// the result places after the batch axes (and, for b, after a's free axes); it is then moved to the front.
Tensor batch_dot(const RuleContext& c) {
  const DotAttrs& at = c.call.attrs_as<DotAttrs>();
  const Batched& a = c.args[0];
  const Batched& b = c.args[1];
  if (a.batched && b.batched) {
    const DotAttrs d{shifted(at.contract_a), shifted(at.batch_a, 0), shifted(at.contract_b), shifted(at.batch_b, 0),
                     at.precision};
    return apply(OpCall{OpCode::dot, d}, {a.value, b.value}, batched_type(c));
  }
  // Only b batched and all of b contracted (a matrix or tensor times a vector, as a model's X @ beta): the dot
  // with its operands swapped puts the batch axis first and a's free axes after it, which is the result as it
  // must be laid out, so no transpose follows and whatever reads the result reads it row by row. Each element is
  // the same sum of the same products in the same order (products commute exactly), so nothing changes but the
  // layout the kernel writes.
  if (b.batched && at.batch_a.empty() && b.value.rank() == 1 + static_cast<int>(at.contract_b.size())) {
    const DotAttrs swapped{shifted(at.contract_b), {}, at.contract_a, {}, at.precision};
    return apply(OpCall{OpCode::dot, swapped}, {b.value, a.value}, batched_type(c));
  }
  DotAttrs d = at;
  int position = at.batch_a.size();
  if (a.batched) {
    d.contract_a = shifted(at.contract_a);
    d.batch_a = shifted(at.batch_a);
  } else {
    d.contract_b = shifted(at.contract_b);
    d.batch_b = shifted(at.batch_b);
    position += a.value.rank() - at.contract_a.size() - at.batch_a.size();
  }
  Shape out = c.out.shape;
  out.insert(position, c.size);
  return move_axis(apply(OpCall{OpCode::dot, d}, {a.value, b.value}, {out, c.out.dtype}), position, 0);
}

namespace {

// Batch groups G split each example's N into G runs of N / G: the examples' runs of group g are put side by side
// (batch [G, B, N / G]), so that group g of the folded batch holds exactly every example's group g.
Tensor batch_grouped_conv(const RuleContext& c) {
  const ConvAttrs& at = c.call.attrs_as<ConvAttrs>();
  const Tensor& x = c.args[0].value;  // [B, N, C, spatial...]
  const std::int64_t groups = at.batch_groups, n = x.shape()[1];
  Shape split{c.size, groups, n / groups};
  for (std::int64_t d : dropped_front(x.shape(), 2)) split.push_back(d);
  Shape folded{c.size * n};
  for (std::int64_t d : dropped_front(x.shape(), 2)) folded.push_back(d);
  const Tensor grouped = reshape(move_axis(reshape(x, split), 1, 0), folded);
  Shape folded_out{c.size * c.out.shape[0]};
  for (std::int64_t d : dropped_front(c.out.shape, 1)) folded_out.push_back(d);
  const Tensor r = apply(c.call, {grouped, c.args[1].value}, {folded_out, c.out.dtype});
  return reshape(r, batched_type(c).shape);  // the result's batch is [B, N / G] already
}

// A batched kernel with batch groups G: the examples become batch groups too (group b * G + g is example b's group
// g, which is where the folded batch [B, N] already has it), and example b's output channels are b * O + o.
Tensor batch_grouped_conv_kernel(const RuleContext& c) {
  const ConvAttrs& at = c.call.attrs_as<ConvAttrs>();
  const Tensor x = ensure_batched(c.args[0], c.size);  // [B, N, C, spatial...]
  const Tensor& k = c.args[1].value;                   // [B, O, C, kernel...]
  Shape folded_x{x.shape()[0] * x.shape()[1]};
  for (std::int64_t d : dropped_front(x.shape(), 2)) folded_x.push_back(d);
  Shape folded_k{k.shape()[0] * k.shape()[1]};
  for (std::int64_t d : dropped_front(k.shape(), 2)) folded_k.push_back(d);
  const Shape& out = c.out.shape;  // [N / G, O, spatial...]
  Shape folded_out{out[0], c.size * out[1]};
  for (std::int64_t d : dropped_front(out, 2)) folded_out.push_back(d);
  ConvAttrs grouped = at;
  grouped.batch_groups = at.batch_groups * c.size;
  const Tensor r =
      apply(OpCall{OpCode::conv, grouped}, {reshape(x, folded_x), reshape(k, folded_k)}, {folded_out, c.out.dtype});
  Shape split{out[0], c.size};
  for (std::int64_t d : dropped_front(out, 1)) split.push_back(d);
  return move_axis(reshape(r, split), 1, 0);
}

}  // namespace

// A batched input alone: the examples' batches side by side in N. A batched kernel: the examples become feature
// groups (example b's channels are group b of B * groups), the input's examples moved into its channels; with
// batch groups, they become batch groups instead.
Tensor batch_conv(const RuleContext& c) {
  const ConvAttrs& at = c.call.attrs_as<ConvAttrs>();
  const Batched& x = c.args[0];
  const Batched& k = c.args[1];
  if (at.batch_groups != 1) return k.batched ? batch_grouped_conv_kernel(c) : batch_grouped_conv(c);
  const Shape& out = c.out.shape;  // [N, O, spatial...]
  if (!k.batched) {
    Shape folded_x{x.value.shape()[0] * x.value.shape()[1]};
    for (std::int64_t d : dropped_front(x.value.shape(), 2)) folded_x.push_back(d);
    Shape folded_out{c.size * out[0]};
    for (std::int64_t d : dropped_front(out, 1)) folded_out.push_back(d);
    const Tensor r = apply(c.call, {reshape(x.value, folded_x), k.value}, {folded_out, c.out.dtype});
    return reshape(r, batched_type(c).shape);
  }
  const Tensor xs = move_axis(ensure_batched(x, c.size), 0, 1);  // [N, B, C, spatial...]
  Shape grouped_x{xs.shape()[0], xs.shape()[1] * xs.shape()[2]};
  for (std::int64_t d : dropped_front(xs.shape(), 3)) grouped_x.push_back(d);
  const Shape& ks = k.value.shape();  // [B, O, I, kernel...]
  Shape grouped_k{ks[0] * ks[1]};
  for (std::int64_t d : dropped_front(ks, 2)) grouped_k.push_back(d);
  Shape grouped_out{out[0], c.size * out[1]};
  for (std::int64_t d : dropped_front(out, 2)) grouped_out.push_back(d);
  ConvAttrs grouped = at;
  grouped.feature_groups = at.feature_groups * c.size;
  const Tensor r = apply(OpCall{OpCode::conv, grouped}, {reshape(xs, grouped_x), reshape(k.value, grouped_k)},
                         {grouped_out, c.out.dtype});
  Shape split{out[0], c.size};
  for (std::int64_t d : dropped_front(out, 1)) split.push_back(d);
  return move_axis(reshape(r, split), 1, 0);
}

Tensor batch_window_reduce(const RuleContext& c) {
  return apply(OpCall{c.call.code, batched_window(c.call.attrs_as<WindowAttrs>())}, {c.args[0].value}, batched_type(c));
}

// (x, source, init): init is a scalar the op adds into every element, so a batched one has no loop-free form.
Tensor batch_window_scatter(const RuleContext& c) {
  if (c.args[2].batched) return per_example_loop(c);
  return apply(OpCall{c.call.code, batched_window(c.call.attrs_as<WindowAttrs>())},
               {ensure_batched(c.args[0], c.size), ensure_batched(c.args[1], c.size), c.args[2].value},
               batched_type(c));
}

// out = x.shape[:axis] + indices.shape + x.shape[axis+1:].
Tensor batch_take(const RuleContext& c) {
  const std::int64_t axis = c.call.attrs_as<AxisAttrs>().axis;
  const Batched& x = c.args[0];
  const Batched& indices = c.args[1];
  if (!indices.batched)
    return apply(OpCall{OpCode::take, AxisAttrs{axis + 1}}, {x.value, indices.value}, batched_type(c));
  const int a = static_cast<int>(axis);
  if (!x.batched) {
    Shape out = c.out.shape;
    out.insert(a, c.size);
    return move_axis(apply(c.call, {x.value, indices.value}, {out, c.out.dtype}), a, 0);
  }
  // Both batched: a gather of (example, index) pairs from x with the taken axis moved next to the batch axis,
  // giving [B, indices..., x[:axis], x[axis+1:]], then x's leading axes moved back before the indices' axes.
  const Tensor moved = move_axis(x.value, a + 1, 1);
  Shape one_coordinate = indices.value.shape();
  one_coordinate.push_back(1);
  const Tensor coords = with_batch_coordinate(reshape(indices.value, one_coordinate), c);
  const int ni = indices.value.rank() - 1;
  Shape gathered = indices.value.shape();
  for (std::int64_t d : dropped_front(moved.shape(), 2)) gathered.push_back(d);
  const Tensor g = apply(OpCall{OpCode::gather, NoAttrs{}}, {moved, coords}, {gathered, c.out.dtype});
  Axes perm{0};
  for (int i = 0; i < a; ++i) perm.push_back(1 + ni + i);
  for (int i = 0; i < ni; ++i) perm.push_back(1 + i);
  for (int i = 1 + ni + a; i < g.rank(); ++i) perm.push_back(i);
  return transpose(g, perm);
}

Tensor batch_take_along_axis(const RuleContext& c) {
  const AxisAttrs attrs{c.call.attrs_as<AxisAttrs>().axis + 1};
  return apply(OpCall{OpCode::take_along_axis, attrs},
               {ensure_batched(c.args[0], c.size), ensure_batched(c.args[1], c.size)}, batched_type(c));
}

// (x, indices[..., k]): batched indices alone already give the batched result (their leading axes lead it); a
// batched x is addressed through the batch coordinate.
Tensor batch_gather(const RuleContext& c) {
  const Batched& x = c.args[0];
  const Batched& indices = c.args[1];
  if (!x.batched) return apply(c.call, {x.value, indices.value}, batched_type(c));
  const Tensor coords = with_batch_coordinate(ensure_batched(indices, c.size), c);
  return apply(c.call, {x.value, coords}, batched_type(c));
}

// (x, indices[n, k], updates[n, ...]): the examples' updates in one list of size * n, example by example, so
// each target element still folds its updates in the per-example order (indexed_add's sum, indexed_put's last).
Tensor batch_indexed_update(const RuleContext& c) {
  const Tensor x = ensure_batched(c.args[0], c.size);
  const Tensor indices = with_batch_coordinate(ensure_batched(c.args[1], c.size), c);
  const Tensor updates = ensure_batched(c.args[2], c.size);
  const std::int64_t n = indices.shape()[1];
  const Tensor flat_indices = reshape(indices, {c.size * n, indices.shape()[2]});
  Shape flat_updates{c.size * n};
  for (std::int64_t d : dropped_front(updates.shape(), 2)) flat_updates.push_back(d);
  return apply(c.call, {x, flat_indices, reshape(updates, flat_updates)}, batched_type(c));
}

// The per-example starts were clamped already; the batch axis is written whole.
Tensor batch_put_slice(const RuleContext& c) {
  PutSliceAttrs attrs = c.call.attrs_as<PutSliceAttrs>();
  attrs.starts.insert(0, 0);
  return apply(OpCall{OpCode::put_slice, attrs}, {ensure_batched(c.args[0], c.size), ensure_batched(c.args[1], c.size)},
               batched_type(c));
}

}  // namespace nxv::batching
