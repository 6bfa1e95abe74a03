// The batching rule of control nodes (src/trace/graph.hpp): the node rebuilt over the whole batch, its bodies' graphs
// evaluated by evaluate_batched inside the new node's bodies, so a loop stays one loop. Carries are batched (a carry
// that starts shared may not stay so); scan iterates its xs with the batch axis second; a batched predicate (cond,
// or a while_loop's condition) selects per example: cond evaluates both branches, a while_loop runs while any
// example's condition holds and keeps the carry of those whose condition failed.
#include "nxv/control_flow.hpp"
#include "nxv/ops.hpp"
#include "trace/batching.hpp"
#include "trace/graph.hpp"

namespace nxv::batching {

namespace {

using Tensors = std::vector<Tensor>;
using Kind = ControlFlow::Kind;

Structure list_of(std::size_t n) { return Structure{Structure::Kind::list, {}, std::vector<Structure>(n)}; }

std::vector<Batched> captured_of(const ControlFlow& cf, std::span<const Batched> args, std::size_t body) {
  const auto first = args.begin() + cf.captured_begin(body);
  return {first, first + cf.captured[body]};
}

// The body's outputs, batched, for parameters `p` with the given flags then what it captured.
Tensors run_body(const Graph& body, std::span<const Tensor> p, const std::vector<bool>& batched,
                 const std::vector<Batched>& captured, std::int64_t size) {
  std::vector<Batched> params;
  for (std::size_t k = 0; k < p.size(); ++k) params.push_back({p[k], batched[k]});
  params.insert(params.end(), captured.begin(), captured.end());
  Tensors out;
  for (const Batched& o : evaluate_batched(body, params, size)) out.push_back(ensure_batched(o, size));
  return out;
}

// pred [size] broadcast against x [size, ...].
Tensor per_example(const Tensor& pred, const Tensor& x) {
  Shape s = Shape::filled(x.rank(), 1);
  s[0] = pred.shape()[0];
  return reshape(pred, s);
}

std::vector<Batched> all_batched(const Tensors& ts) {
  std::vector<Batched> out;
  for (const Tensor& t : ts) out.push_back({t, true});
  return out;
}

}  // namespace

std::vector<Batched> batch_control(const ControlFlow& cf, std::span<const Batched> args, std::int64_t size) {
  const std::size_t nc = cf.kind == Kind::cond ? 0 : static_cast<std::size_t>(cf.operands);
  Tensors carry;
  for (std::size_t k = 0; k < nc; ++k) carry.push_back(ensure_batched(args[k], size));
  const std::vector<bool> carry_flags(nc, true);
  Structure ignored;
  switch (cf.kind) {
    case Kind::fori_loop: {
      const std::vector<Batched> cap = captured_of(cf, args, 0);
      std::vector<bool> flags{false};
      flags.insert(flags.end(), nc, true);
      const detail::FlatFn body = [&](std::span<const Tensor> p, Structure& s) {
        s = list_of(nc);
        return run_body(*cf.bodies[0], p, flags, cap, size);
      };
      return all_batched(detail::fori_loop(cf.lo, cf.hi, list_of(nc), carry, body));
    }
    case Kind::scan: {
      const std::vector<Batched> cap = captured_of(cf, args, 0);
      Tensors xs;
      std::vector<bool> flags = carry_flags;
      for (int k = 0; k < cf.xs; ++k) {
        const Batched& x = args[nc + static_cast<std::size_t>(k)];
        xs.push_back(x.batched ? move_axis(x.value, 0, 1) : x.value);  // rows keep the batch axis first
        flags.push_back(x.batched);
      }
      const std::size_t ny = cf.results.size() - nc;
      const detail::FlatFn body = [&](std::span<const Tensor> p, Structure& s) {
        s = Structure{Structure::Kind::tuple, {}, {list_of(nc), list_of(ny)}};
        return run_body(*cf.bodies[0], p, flags, cap, size);
      };
      Tensors r = detail::scan(list_of(nc), carry, list_of(xs.size()), xs, body, ignored);
      for (std::size_t k = nc; k < r.size(); ++k) r[k] = move_axis(r[k], 1, 0);
      return all_batched(r);
    }
    case Kind::cond: {
      const std::size_t n = static_cast<std::size_t>(cf.operands) - 1;
      Tensors operands;
      std::vector<bool> flags;
      for (std::size_t k = 0; k < n; ++k) {
        operands.push_back(args[1 + k].value);
        flags.push_back(args[1 + k].batched);
      }
      const std::vector<Batched> cap[2] = {captured_of(cf, args, 0), captured_of(cf, args, 1)};
      if (args[0].batched) {  // both branches, then each example's
        const Tensors t = run_body(*cf.bodies[0], operands, flags, cap[0], size);
        const Tensors f = run_body(*cf.bodies[1], operands, flags, cap[1], size);
        Tensors out;
        for (std::size_t k = 0; k < t.size(); ++k) out.push_back(select(per_example(args[0].value, t[k]), t[k], f[k]));
        return all_batched(out);
      }
      auto branch = [&](std::size_t b) -> detail::FlatFn {
        return [&, b](std::span<const Tensor> p, Structure& s) {
          s = list_of(cf.results.size());
          return run_body(*cf.bodies[b], p, flags, cap[b], size);
        };
      };
      return all_batched(detail::cond(args[0].value, operands, branch(0), branch(1), ignored));
    }
    case Kind::while_loop: {
      const std::vector<Batched> cap[2] = {captured_of(cf, args, 0), captured_of(cf, args, 1)};
      auto holds = [&](std::span<const Tensor> p) {
        std::vector<Batched> params;
        for (const Tensor& t : p) params.push_back({t, true});
        params.insert(params.end(), cap[0].begin(), cap[0].end());
        return evaluate_batched(*cf.bodies[0], params, size)[0];
      };
      const detail::FlatFn cond = [&](std::span<const Tensor> p, Structure& s) {
        s = Structure{};
        const Batched c = holds(p);
        return Tensors{c.batched ? any(c.value) : c.value};
      };
      const detail::FlatFn body = [&](std::span<const Tensor> p, Structure& s) {
        s = list_of(nc);
        const Batched c = holds(p);
        Tensors next = run_body(*cf.bodies[1], p, carry_flags, cap[1], size);
        if (c.batched)  // an example whose condition failed keeps its carry
          for (std::size_t k = 0; k < nc; ++k) next[k] = select(per_example(c.value, next[k]), next[k], p[k]);
        return next;
      };
      return all_batched(detail::while_loop(list_of(nc), carry, cond, body));
    }
  }
  return {};
}

}  // namespace nxv::batching
