// The gradient rules of control nodes, written with control flow themselves so that they run on any backend and
// are recorded as loops (not unrolled) when traced.
//
// fori_loop and scan: a forward scan stacks the carry before every iteration, then a reverse scan walks the
// iterations backwards, carrying the carry's and the captured tensors' cotangents; each step recomputes the body
// at its saved carry and applies its vector-Jacobian product (graph_vjp). cond: a cond whose branches are the
// branches' vector-Jacobian products. while_loop: none, its trip count depends on the data.
#include "grad/rules.hpp"
#include "nxv/control_flow.hpp"
#include "trace/evaluate.hpp"

namespace nxv::rules {

namespace {

using Tensors = std::vector<Tensor>;
using Kind = ControlFlow::Kind;

Structure list_of(std::size_t n) { return Structure{Structure::Kind::list, {}, std::vector<Structure>(n)}; }

Structure pair_of(std::size_t a, std::size_t b) {
  return Structure{Structure::Kind::tuple, {}, {list_of(a), list_of(b)}};
}

Tensor zeros_like(const Tensor& t) { return zeros(t.shape(), t.dtype(), evaluation_backend({&t, 1})); }

Tensors slice_of(std::span<const Tensor> ts, std::size_t first, std::size_t count) {
  return Tensors(ts.begin() + static_cast<std::ptrdiff_t>(first),
                 ts.begin() + static_cast<std::ptrdiff_t>(first + count));
}

std::vector<std::size_t> floats(std::span<const Tensor> ts) {
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < ts.size(); ++k)
    if (is_float(ts[k].dtype())) out.push_back(k);
  return out;
}

std::vector<bool> float_mask(std::span<const Tensor> ts) {
  std::vector<bool> out;
  for (const Tensor& t : ts) out.push_back(is_float(t.dtype()));
  return out;
}

// A loop seen as a scan: the body's parameters from (carry, x, captured), x a counter for fori_loop.
struct LoopView {
  const ControlFlow& cf;
  Tensors carry, xs, captured;
  Tensors params(std::span<const Tensor> c, std::span<const Tensor> x) const {
    Tensors p;
    if (cf.kind == Kind::fori_loop) p.assign(x.begin(), x.end());
    p.insert(p.end(), c.begin(), c.end());
    if (cf.kind == Kind::scan) p.insert(p.end(), x.begin(), x.end());
    p.insert(p.end(), captured.begin(), captured.end());
    return p;
  }
  // Where the first carry, x and captured parameter sit among the body's parameters.
  std::size_t carry_at() const { return cf.kind == Kind::fori_loop ? 1 : 0; }
  std::size_t x_at() const { return cf.kind == Kind::fori_loop ? 0 : carry.size(); }
  std::size_t captured_at() const { return carry.size() + xs.size(); }
};

LoopView view(const ControlFlow& cf, std::span<const Tensor> x) {
  LoopView v{cf, slice_of(x, 0, static_cast<std::size_t>(cf.operands)), {}, {}};
  const std::size_t nc = v.carry.size();
  if (cf.kind == Kind::scan) {
    v.xs = slice_of(x, nc, static_cast<std::size_t>(cf.xs));
  } else {
    Backend& b = evaluation_backend(v.carry);
    v.xs = {add(iota({cf.hi - cf.lo}, 0, DType::s64, b), scalar(static_cast<double>(cf.lo), DType::s64, b))};
  }
  v.captured = slice_of(x, static_cast<std::size_t>(cf.captured_begin(0)), static_cast<std::size_t>(cf.captured[0]));
  return v;
}

Tensors loop_vjp(const ControlFlow& cf, std::span<const Tensor> x, std::span<const Tensor> g) {
  const LoopView v = view(cf, x);
  const Graph& body = *cf.bodies[0];
  const std::size_t nc = v.carry.size(), nx = v.xs.size(), ny = cf.results.size() - nc;
  const std::int64_t trips = cf.kind == Kind::scan ? cf.length : cf.hi - cf.lo;
  Tensors out(x.size());
  if (trips == 0) {  // the carry passes through; ys are empty
    for (std::size_t k = 0; k < nc; ++k) out[k] = g[k];
    return out;
  }
  // Forward: the carry before every iteration, stacked.
  const detail::FlatFn forward = [&](std::span<const Tensor> p, Structure& s) {
    s = pair_of(nc, nc);
    Tensors r = evaluate(body, v.params(p.first(nc), p.subspan(nc)));
    r.resize(nc);
    r.insert(r.end(), p.begin(), p.begin() + static_cast<std::ptrdiff_t>(nc));
    return r;
  };
  Structure ignored;
  const Tensors fwd = detail::scan(list_of(nc), v.carry, list_of(nx), v.xs, forward, ignored);
  const std::vector<std::size_t> fc = floats(v.carry), fx = floats(v.xs), fcap = floats(v.captured);
  std::vector<std::size_t> fy;
  for (std::size_t k = 0; k < ny; ++k)
    if (is_float(cf.results[nc + k].dtype)) fy.push_back(k);
  // Backward: over (x, saved carry, ys' cotangent) reversed, carrying the float carries' and captured cotangents.
  Tensors rev_xs, init;
  for (const Tensor& t : v.xs) rev_xs.push_back(reverse(t, Axes{0}));
  for (std::size_t k = 0; k < nc; ++k) rev_xs.push_back(reverse(fwd[nc + k], Axes{0}));
  for (std::size_t k : fy) {
    const TensorType& t = cf.results[nc + k];
    rev_xs.push_back(
        reverse(g[nc + k].defined() ? g[nc + k] : zeros(t.shape, t.dtype, evaluation_backend(x)), Axes{0}));
  }
  for (std::size_t k : fc) init.push_back(g[k].defined() ? g[k] : zeros_like(v.carry[k]));
  for (std::size_t k : fcap) init.push_back(zeros_like(v.captured[k]));
  const detail::FlatFn step = [&](std::span<const Tensor> p, Structure& s) {
    const std::span<const Tensor> gc = p.first(fc.size()), gcap = p.subspan(fc.size(), fcap.size());
    const std::span<const Tensor> rows = p.subspan(fc.size() + fcap.size());
    const std::span<const Tensor> xi = rows.first(nx), ci = rows.subspan(nx, nc), gyi = rows.subspan(nx + nc);
    const Tensors params = v.params(ci, xi);
    Tensors seeds(nc + ny);
    for (std::size_t j = 0; j < fc.size(); ++j) seeds[fc[j]] = gc[j];
    for (std::size_t j = 0; j < fy.size(); ++j) seeds[nc + fy[j]] = gyi[j];
    const Tensors cots = graph_vjp(body, params, seeds, float_mask(params));
    Tensors r;
    for (std::size_t k : fc) {
      const Tensor& c = cots[v.carry_at() + k];
      r.push_back(c.defined() ? c : zeros_like(ci[k]));
    }
    for (std::size_t j = 0; j < fcap.size(); ++j) {
      const Tensor& c = cots[v.captured_at() + fcap[j]];
      r.push_back(c.defined() ? add(gcap[j], c) : gcap[j]);
    }
    for (std::size_t k : fx) {
      const Tensor& c = cots[v.x_at() + k];
      r.push_back(c.defined() ? c : zeros_like(xi[k]));
    }
    s = pair_of(fc.size() + fcap.size(), fx.size());  // fori_loop's counter is no float: no ys
    return r;
  };
  const Tensors bwd = detail::scan(list_of(init.size()), init, list_of(rev_xs.size()), rev_xs, step, ignored);
  for (std::size_t j = 0; j < fc.size(); ++j) out[fc[j]] = bwd[j];
  const std::size_t first_captured = static_cast<std::size_t>(cf.captured_begin(0));
  for (std::size_t j = 0; j < fcap.size(); ++j) out[first_captured + fcap[j]] = bwd[fc.size() + j];
  if (cf.kind == Kind::scan)
    for (std::size_t j = 0; j < fx.size(); ++j) out[nc + fx[j]] = reverse(bwd[init.size() + j], Axes{0});
  return out;
}

// The branches' vector-Jacobian products as a cond over (operands, captured by each branch, result cotangents), all
// passed as operands so that the branches run where they live.
Tensors cond_vjp(const ControlFlow& cf, std::span<const Tensor> x, std::span<const Tensor> g) {
  const std::size_t n = static_cast<std::size_t>(cf.operands) - 1;
  const std::size_t first[2] = {static_cast<std::size_t>(cf.captured_begin(0)) - 1,
                                static_cast<std::size_t>(cf.captured_begin(1)) - 1};
  const std::size_t count[2] = {static_cast<std::size_t>(cf.captured[0]), static_cast<std::size_t>(cf.captured[1])};
  Tensors all(x.begin() + 1, x.end());  // operands, then what each branch captured
  const std::vector<std::size_t> fo = floats(std::span(all).first(n));
  const std::vector<std::size_t> fcap[2] = {floats(std::span(all).subspan(first[0], count[0])),
                                            floats(std::span(all).subspan(first[1], count[1]))};
  const std::size_t seeds_at = all.size();
  Backend& backend = evaluation_backend(x);
  for (std::size_t k = 0; k < cf.results.size(); ++k)  // zeros where no cotangent came
    all.push_back(k < g.size() && g[k].defined() ? g[k] : zeros(cf.results[k].shape, cf.results[k].dtype, backend));
  auto branch = [&](std::size_t b) -> detail::FlatFn {
    return [&, b](std::span<const Tensor> p, Structure& s) {
      Tensors params(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(n));
      const std::span<const Tensor> captured = p.subspan(first[b], count[b]);
      params.insert(params.end(), captured.begin(), captured.end());
      Tensors seeds;
      for (const Tensor& t : p.subspan(seeds_at)) seeds.push_back(is_float(t.dtype()) ? t : Tensor());
      const Tensors cots = graph_vjp(*cf.bodies[b], params, seeds, float_mask(params));
      Tensors r;
      for (std::size_t k : fo) r.push_back(cots[k].defined() ? cots[k] : zeros_like(p[k]));
      for (std::size_t c = 0; c < 2; ++c)
        for (std::size_t k : fcap[c]) {
          const Tensor got = c == b ? cots[n + k] : Tensor();
          r.push_back(got.defined() ? got : zeros_like(p[first[c] + k]));
        }
      s = list_of(r.size());
      return r;
    };
  };
  Structure ignored;
  const Tensors r = detail::cond(x[0], all, branch(0), branch(1), ignored);
  Tensors out(x.size());
  std::size_t at = 0;
  for (std::size_t k : fo) out[1 + k] = r[at++];
  for (std::size_t c = 0; c < 2; ++c)
    for (std::size_t k : fcap[c]) out[1 + first[c] + k] = r[at++];
  return out;
}

}  // namespace

std::vector<Tensor> control_vjp(const ControlFlow& control, std::span<const Tensor> x, std::span<const Tensor> g,
                                const std::vector<bool>&) {
  switch (control.kind) {
    case Kind::while_loop:
      detail::fail(
          "grad: cannot differentiate through while_loop, whose trip count depends on the data; use "
          "fori_loop (a static trip count) or scan instead");
    case Kind::fori_loop:
    case Kind::scan:
      return loop_vjp(control, x, g);
    case Kind::cond:
      return cond_vjp(control, x, g);
  }
  return Tensors(x.size());
}

}  // namespace nxv::rules
