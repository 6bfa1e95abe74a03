// Reductions, dots, scans and indexed adds of the per-instance kernels, in the reference backend's order
// (instance_generator.hpp).
#include <cmath>

#include "nxv/shape.hpp"
#include "vulkan/fusion/codegen.hpp"
#include "vulkan/fusion/glsl_types.hpp"
#include "vulkan/fusion/instance_generator.hpp"

namespace nxv::vulkan::fusion::instance {

std::string InstanceGenerator::combine(ReduceFn fn, const std::string& type, const std::string& a,
                                       const std::string& b) {
  switch (fn) {
    case ReduceFn::sum:
      return "nxv_reduce_add(" + a + ", " + b + ")";
    case ReduceFn::product:
      return "nxv_ieee_multiply(" + a + ", " + b + ")";
    case ReduceFn::max:
      return "nxv_max(" + a + ", " + b + ")";
    case ReduceFn::min:
      return "nxv_min(" + a + ", " + b + ")";
    case ReduceFn::all:
      return "(" + a + " & " + b + ")";
    case ReduceFn::any:
      return "(" + a + " | " + b + ")";
  }
  (void)type;
  return "";
}

void InstanceGenerator::define_reduce_add(const std::string& type) {
  helpers_.emplace("nxv_reduce_add_" + type, type + " nxv_reduce_add(" + type + " a, " + type + " b) { precise " +
                                                 type + " r = a + b; return r; }\n");
}

std::string InstanceGenerator::ordered_reduce(std::int64_t n,
                                              const std::function<std::string(const std::string&)>& value, ReduceFn fn,
                                              const std::string& type, const std::string& identity) {
  if (fn == ReduceFn::sum) define_reduce_add(type);
  const std::string r = fresh("r");
  if (n <= kStaticLanes) {
    // Unrolled: lane j holds value j; lanes past n hold the identity, and identity op identity is the identity,
    // so only lanes below n are ever computed.
    for (std::int64_t j = 0; j < n; ++j)
      line(type + " " + r + "_" + std::to_string(j) + " = " + combine(fn, type, identity, value(u(j))) + ";");
    for (std::int64_t step = kLanes / 2; step >= 1; step /= 2)
      for (std::int64_t i = 0; i < std::min(step, n); ++i) {
        const std::string lane = r + "_" + std::to_string(i);
        const std::string other = i + step < n ? r + "_" + std::to_string(i + step) : identity;
        line(lane + " = " + combine(fn, type, lane, other) + ";");
      }
    if (n == 0) line(type + " " + r + "_0 = " + identity + ";");
    line(type + " " + r + " = " + r + "_0;");
    return r;
  }
  if (n <= kChunk) {
    chunk_reduce(r, u(0), u(n), value, fn, type, identity);
    return r;
  }
  chunks_then_partials(
      r, n,
      [&](const std::string& part, const std::string& first, const std::string& length) {
        chunk_reduce(part, first, length, value, fn, type, identity);
      },
      fn, type, identity);
  return r;
}

void InstanceGenerator::chunks_then_partials(
    const std::string& r, std::int64_t n,
    const std::function<void(const std::string&, const std::string&, const std::string&)>& chunk, ReduceFn fn,
    const std::string& type, const std::string& identity) {
  const std::int64_t chunks = (n + kChunk - 1) / kChunk;
  const std::string partial = fresh("partial");
  line(type + " " + partial + "[" + std::to_string(chunks) + "];");
  for_each(chunks, [&](const std::string& k) {
    const std::string first = "(" + k + " * " + u(kChunk) + ")";
    const std::string length = "min(" + u(kChunk) + ", " + u(n) + " - " + first + ")";
    const std::string part = fresh("r");
    chunk(part, first, length);
    line(partial + "[" + k + "] = " + part + ";");
  });
  const std::string total = ordered_reduce(
      chunks, [&](const std::string& j) { return partial + "[" + j + "]"; }, fn, type, identity);
  line(type + " " + r + " = " + total + ";");
}

void InstanceGenerator::chunk_reduce(const std::string& r, const std::string& first, const std::string& length,
                                     const std::function<std::string(const std::string&)>& value, ReduceFn fn,
                                     const std::string& type, const std::string& identity) {
  const std::string lanes = fresh("lanes");
  line(type + " " + lanes + "[" + std::to_string(kLanes) + "];");
  const std::string l = fresh("l"), j = fresh("j"), step = fresh("s");
  const std::string more = cap_ ? " && !nxv_stop" : "";
  line("for (uint " + l + " = 0u; " + l + " < " + u(kLanes) + more + "; ++" + l + ") " + lanes + "[" + l +
       "] = " + identity + ";");
  line("for (uint " + j + " = 0u; " + j + " < " + length + more + "; ++" + j + ") {");
  ++indent_;
  repeated(static_cast<double>(kChunk), [&] {
    count_trip();
    line(lanes + "[" + j + " % " + u(kLanes) + "] = " +
         combine(fn, type, lanes + "[" + j + " % " + u(kLanes) + "]", value("(" + first + " + " + j + ")")) + ";");
  });
  --indent_;
  line("}");
  line("for (uint " + step + " = " + u(kLanes / 2) + "; " + step + " > 0u" + more + "; " + step + " >>= 1) {");
  ++indent_;
  line("for (uint " + l + " = 0u; " + l + " < " + step + "; ++" + l + ") " + lanes + "[" + l +
       "] = " + combine(fn, type, lanes + "[" + l + "]", lanes + "[" + l + " + " + step + "]") + ";");
  --indent_;
  line("}");
  line(type + " " + r + " = " + lanes + "[0];");
}

std::string InstanceGenerator::group_reduce(std::int64_t n, const std::function<std::string(const std::string&)>& value,
                                            ReduceFn fn, const std::string& type, const std::string& identity) {
  if (fn == ReduceFn::sum) define_reduce_add(type);
  const std::string r = fresh("r");
  if (n <= kChunk) {
    group_chunk(r, u(0), u(n), n, value, fn, type, identity);
    return r;
  }
  chunks_then_partials(
      r, n,
      [&](const std::string& part, const std::string& first, const std::string& length) {
        group_chunk(part, first, length, kChunk, value, fn, type, identity);
      },
      fn, type, identity);
  return r;
}

void InstanceGenerator::group_chunk(const std::string& r, const std::string& first, const std::string& length,
                                    std::int64_t most, const std::function<std::string(const std::string&)>& value,
                                    ReduceFn fn, const std::string& type, const std::string& identity) {
  static_assert(kLanes == kGroupLanes, "lane l of the reference's order is invocation l");
  const std::string lane = fresh("lane");
  line(type + " " + lane + " = " + identity + ";");
  owner_loop(length, most, [&](const std::string& j) {
    line(lane + " = " + combine(fn, type, lane, value("(" + first + " + " + j + ")")) + ";");
  });
  const std::string lanes = group_scratch("nxv_lanes_" + type, type, kLanes);
  sync();  // the last reduction has read the lanes
  line(lanes + "[lid] = " + lane + ";");
  sync();
  for (std::int64_t step = kLanes / 2; step >= 1; step /= 2) {
    line("if (lid < " + u(step) + ") " + lanes +
         "[lid] = " + combine(fn, type, lanes + "[lid]", lanes + "[lid + " + u(step) + "]") + ";");
    sync();
  }
  line(type + " " + r + " = " + lanes + "[0];");
}

void InstanceGenerator::emit_reduce(const Graph& g, const Node& n) {
  const ReduceAttrs& a = n.call.attrs_as<ReduceAttrs>();
  const Node& x = g.nodes[n.inputs[0]];
  const Value& in = values_.at(&x);
  const DType it = x.type.dtype;
  const bool logical = a.fn == ReduceFn::all || a.fn == ReduceFn::any;
  const std::string acc_type = logical ? "uint" : compute_type(it);
  Shape kept, reduced;
  std::vector<bool> is_reduced(static_cast<std::size_t>(x.type.shape.size()), false);
  for (const std::int64_t d : a.axes) is_reduced[static_cast<std::size_t>(d)] = true;
  for (int d = 0; d < x.type.shape.size(); ++d) (is_reduced[d] ? reduced : kept).push_back(x.type.shape[d]);
  const Value out = allocate(n.type);
  const std::string identity = reduce_identity(a.fn, it, acc_type);
  // The group mapping reduces a long row to a small output cooperatively, else each row in its owner.
  const bool cooperative = group_ && !spread(out) && num_elements(reduced) > kStaticLanes;
  const auto per_output = [&](const std::string& o) {
    const std::vector<std::string> kc = coords(kept, o);
    const auto value = [&](const std::string& r) {
      const std::vector<std::string> rc = coords(reduced, r);
      std::vector<std::string> c;
      std::size_t ki = 0, ri = 0;
      for (int d = 0; d < x.type.shape.size(); ++d) c.push_back(is_reduced[d] ? rc[ri++] : kc[ki++]);
      const std::string v = read(in, flat(x.type.shape, c));
      return logical ? "nxv_nonzero(" + v + ")" : v;
    };
    const std::string r = cooperative ? group_reduce(num_elements(reduced), value, a.fn, acc_type, identity)
                                      : ordered_reduce(num_elements(reduced), value, a.fn, acc_type, identity);
    line(write(out, o) + " = " + truncated(n.type.dtype, r) + ";");
  };
  if (cooperative)
    for_each(out.elements, per_output);  // every invocation takes part in each output's reduction
  else
    for_each_output(out, per_output);
  values_[&n] = out;
}

void InstanceGenerator::emit_dot(const Graph& g, const Node& n) {
  const DotAttrs& a = n.call.attrs_as<DotAttrs>();
  const Node& na = g.nodes[n.inputs[0]];
  const Node& nb = g.nodes[n.inputs[1]];
  const Value& va = values_.at(&na);
  const Value& vb = values_.at(&nb);
  const Shape& sa = na.type.shape;
  const Shape& sb = nb.type.shape;
  const auto free_axes = [](const Shape& s, const Axes& contract, const Axes& batch) {
    std::vector<int> f;
    for (int d = 0; d < s.size(); ++d) {
      bool used = false;
      for (const std::int64_t c : contract) used = used || c == d;
      for (const std::int64_t c : batch) used = used || c == d;
      if (!used) f.push_back(d);
    }
    return f;
  };
  const std::vector<int> fa = free_axes(sa, a.contract_a, a.batch_a), fb = free_axes(sb, a.contract_b, a.batch_b);
  Shape contracted;
  for (const std::int64_t d : a.contract_a) contracted.push_back(sa[static_cast<int>(d)]);
  const Value out = allocate(n.type);
  const std::string acc_type = compute_type(n.type.dtype);
  const std::string zero = literal_of_double(n.type.dtype, 0);
  // exact: a rounded product, then a rounded sum, in k order (the reference's dot, bit for bit); fast: a fused
  // multiply-add in k order, which the vectorized fast kernels also use (they may split a long k into chunks).
  const bool fused = a.precision == Precision::fast && is_float(n.type.dtype);
  // Element o's sum into the expression `store` returns as its destination.
  const auto element_sum = [&](const std::string& o, const std::function<std::string(const std::string&)>& store) {
    const std::vector<std::string> oc = coords(n.type.shape, o);
    std::vector<std::string> ca(static_cast<std::size_t>(sa.size())), cb(static_cast<std::size_t>(sb.size()));
    std::size_t at = 0;
    for (int i = 0; i < a.batch_a.size(); ++i, ++at) {
      ca[static_cast<std::size_t>(a.batch_a[i])] = oc[at];
      cb[static_cast<std::size_t>(a.batch_b[i])] = oc[at];
    }
    for (const int d : fa) ca[static_cast<std::size_t>(d)] = oc[at++];
    for (const int d : fb) cb[static_cast<std::size_t>(d)] = oc[at++];
    const std::string acc = fresh("acc");
    line(acc_type + " " + acc + " = " + zero + ";");
    for_each(num_elements(contracted), [&](const std::string& r) {
      const std::vector<std::string> rc = coords(contracted, r);
      for (int i = 0; i < a.contract_a.size(); ++i) {
        ca[static_cast<std::size_t>(a.contract_a[i])] = rc[i];
        cb[static_cast<std::size_t>(a.contract_b[i])] = rc[i];
      }
      const std::string x = read(va, flat(sa, ca)), y = read(vb, flat(sb, cb));
      if (fused)
        line(acc + " = fma(" + x + ", " + y + ", " + acc + ");");
      else
        line("{ precise " + acc_type + " p = " + x + " * " + y + "; precise " + acc_type + " s = " + acc + " + p; " +
             acc + " = s; }");
    });
    line(store(o) + " = " + truncated(n.type.dtype, acc) + ";");
  };
  const auto to_out = [&](const std::string& o) { return write(out, o); };
  if (!group_ || spread(out) || num_elements(contracted) <= kStaticLanes) {
    for_each_output(out, [&](const std::string& o) { element_sum(o, to_out); });
  } else {
    // A small output of long sums (a gradient over the observations): invocation o sums element o in k order,
    // as the reference does, and the group reads the sums from shared memory.
    const std::string sums = group_scratch("nxv_sums_" + acc_type, acc_type, kLocalElements);
    sync();  // the last such dot has read the sums
    divergent("if (lid < " + u(out.elements) + ") {", 1,
              [&] { element_sum("lid", [&](const std::string&) { return sums + "[lid]"; }); });
    sync();
    for_each(out.elements, [&](const std::string& o) { line(write(out, o) + " = " + sums + "[" + o + "];"); });
  }
  values_[&n] = out;
}

void InstanceGenerator::emit_cumulative(const Graph& g, const Node& n) {
  const CumulativeAttrs& a = n.call.attrs_as<CumulativeAttrs>();
  const Shape& shape = n.type.shape;
  const int axis = static_cast<int>(a.axis);
  std::int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= shape[d];
  for (int d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const std::int64_t length = shape[axis];
  const Value& in = input(g, n, 0);
  const Value out = allocate(n.type);
  const std::string type = compute_type(n.type.dtype);
  if (a.fn == ReduceFn::sum) define_reduce_add(type);
  const auto scan = [&] {
    for_each(outer * inner, [&](const std::string& line_index) {
      const std::string base = "((" + line_index + " / " + u(inner) + ") * " + u(length * inner) + " + " + line_index +
                               " % " + u(inner) + ")";
      const std::string acc = fresh("acc");
      line(type + " " + acc + ";");
      for_each(length, [&](const std::string& step) {
        const std::string j = a.reverse ? "(" + u(length - 1) + " - " + step + ")" : step;
        const std::string at = "(" + base + " + " + j + " * " + u(inner) + ")";
        const std::string v = read(in, at);
        line(acc + " = " + step + " == 0u ? " + v + " : " + combine(a.fn, type, acc, v) + ";");
        line(write(out, at) + " = " + truncated(n.type.dtype, acc) + ";");
      });
    });
  };
  if (spread(out))
    first_invocation(scan);  // sequential: one invocation of the group
  else
    scan();
  values_[&n] = out;
}

void InstanceGenerator::emit_indexed_add(const Graph& g, const Node& n) {
  const Node& x = g.nodes[n.inputs[0]];
  const Shape& is = g.nodes[n.inputs[1]].type.shape;
  const Value& indices = input(g, n, 1);
  const Value& updates = input(g, n, 2);
  const Value out = allocate(n.type);
  copy(out, values_.at(&x));
  const std::int64_t count = is[0], k = is[1];
  std::int64_t window = 1;
  for (int d = static_cast<int>(k); d < x.type.shape.size(); ++d) window *= x.type.shape[d];
  const std::string type = compute_type(n.type.dtype);
  const auto updates_in_order = [&] {
    for_each(count, [&](const std::string& b) {
      const std::string row = fresh("row");
      const std::string ok = fresh("ok");
      line("int64_t " + row + " = 0l;");
      line("bool " + ok + " = true;");
      for (std::int64_t d = 0; d < k; ++d) {
        const std::string c = "int64_t(" + read(indices, "(" + b + " * " + u(k) + " + " + u(d) + ")") + ")";
        const std::int64_t dim = x.type.shape[static_cast<int>(d)];
        line(ok + " = " + ok + " && " + c + " >= 0l && " + c + " < " + std::to_string(dim) + "l;");
        line(row + " = " + row + " * " + std::to_string(dim) + "l + " + c + ";");
      }
      line("if (" + ok + ") {");
      ++indent_;
      for_each(window, [&](const std::string& w) {
        const std::string target = "(uint(" + row + ") * " + u(window) + " + " + w + ")";
        line("{ precise " + type + " a = " + read(out, target) + " + " +
             read(updates, "(" + b + " * " + u(window) + " + " + w + ")") + "; " + write(out, target) + " = " +
             truncated(n.type.dtype, "a") + "; }");
      });
      --indent_;
      line("}");
    });
  };
  if (spread(out))
    first_invocation(updates_in_order);  // in increasing b: one invocation of the group
  else
    updates_in_order();
  values_[&n] = out;
}

}  // namespace nxv::vulkan::fusion::instance
