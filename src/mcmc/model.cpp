// Models: declared parameters, the flat unconstrained vector the samplers move, and the model's log density on it.
#include <numeric>

#include "nxv/mcmc.hpp"
#include "nxv/ops.hpp"

namespace nxv::mcmc {

namespace {

// The batch shape of q [..., d]: every axis but the last.
Shape batch_of(const Tensor& q) {
  Shape b;
  for (int i = 0; i + 1 < q.rank(); ++i) b.push_back(q.dim(i));
  return b;
}

Shape concat(const Shape& a, const Shape& b) {
  Shape s = a;
  for (const std::int64_t d : b) s.push_back(d);
  return s;
}

}  // namespace

Shape ParamSpec::unconstrained_shape() const {
  if (constraint.codomain != dist::Support::simplex) return shape;
  NXV_CHECK(!shape.empty() && shape.back() >= 1, "mcmc::ParamSpec", "got simplex parameter '", name, "' of shape ",
            to_string(shape), ", expected a last axis of at least one component");
  Shape s = shape;
  s.back() -= 1;  // K components on the simplex have K - 1 degrees of freedom (stick-breaking)
  return s;
}

Model& Model::param(std::string name, Shape shape, dist::Bijection constraint) {
  for (const ParamSpec& p : params)
    NXV_CHECK(p.name != name, "mcmc::Model::param", "got parameter '", name, "' twice", ", expected unique names");
  NXV_CHECK(constraint.event_rank == 0 || !shape.empty(), "mcmc::Model::param", "got parameter '", name,
            "' of rank 0 with a vector constraint", ", expected a shape with a last axis");
  params.push_back({std::move(name), shape, std::move(constraint)});
  return *this;
}

std::int64_t Model::dimension() const {
  return std::accumulate(params.begin(), params.end(), std::int64_t{0},
                         [](std::int64_t n, const ParamSpec& p) { return n + num_elements(p.unconstrained_shape()); });
}

Params constrain(const Model& model, const Tensor& q) {
  const std::int64_t d = model.dimension();
  NXV_CHECK(q.defined() && q.rank() >= 1 && q.dim(-1) == d && is_float(q.dtype()), "mcmc::constrain", "got q ",
            q.defined() ? to_string(q.type()) : "undefined", ", expected a float tensor [..., ", d, "]");
  const Shape batch = batch_of(q);
  Params out;
  std::int64_t offset = 0;
  for (const ParamSpec& p : model.params) {
    const Shape u = p.unconstrained_shape();
    const std::int64_t n = num_elements(u);
    Shape starts = Shape::filled(batch.size() + 1, 0), lengths = concat(batch, {n});
    starts.back() = offset;
    const Tensor y = reshape(slice(q, starts, lengths), concat(batch, u));
    out.emplace(p.name, p.constraint.forward(y));
    offset += n;
  }
  return out;
}

Tensor unconstrain(const Model& model, const Params& values) {
  NXV_CHECK(!model.params.empty(), "mcmc::unconstrain", "got a model without parameters",
            ", expected at least one (Model::param)");
  std::vector<Tensor> blocks;
  Shape batch;
  for (std::size_t i = 0; i < model.params.size(); ++i) {
    const ParamSpec& p = model.params[i];
    const auto it = values.find(p.name);
    NXV_CHECK(it != values.end(), "mcmc::unconstrain", "got no value for parameter '", p.name, "'",
              ", expected one per declared parameter");
    const Tensor& x = it->second;
    const int extra = x.rank() - p.shape.size();
    bool shape_ok = extra >= 0;
    for (int a = 0; shape_ok && a < p.shape.size(); ++a) shape_ok = x.dim(extra + a) == p.shape[a];
    NXV_CHECK(shape_ok, "mcmc::unconstrain", "got parameter '", p.name, "' of shape ", to_string(x.shape()),
              ", expected [..., ", to_string(p.shape), "]");
    Shape b;
    for (int a = 0; a < extra; ++a) b.push_back(x.dim(a));
    NXV_CHECK(i == 0 || b == batch, "mcmc::unconstrain", "got parameter '", p.name, "' with batch shape ", to_string(b),
              ", expected the first parameter's ", to_string(batch));
    batch = b;
    blocks.push_back(reshape(p.constraint.inverse(x), concat(b, {num_elements(p.unconstrained_shape())})));
  }
  return blocks.size() == 1 ? blocks[0] : concatenate(blocks, -1);
}

LogDensity unconstrained_log_density(const Model& model) {
  NXV_CHECK(static_cast<bool>(model.log_density), "mcmc::unconstrained_log_density",
            "got a model without a log "
            "density",
            ", expected Model::log_density to be set");
  NXV_CHECK(model.dimension() > 0, "mcmc::unconstrained_log_density", "got a model of dimension 0",
            ", expected at least one parameter element (Model::param)");
  return [model](const Tensor& q) {
    const Params x = constrain(model, q);
    Tensor lp = model.log_density(x);
    NXV_CHECK(lp.defined() && lp.rank() == 0 && is_float(lp.dtype()), "mcmc::Model::log_density", "returned ",
              lp.defined() ? to_string(lp.type()) : "an undefined tensor", ", expected a rank-0 float tensor");
    lp = as_type(lp, q.dtype());
    // The change of variables: each parameter's density in unconstrained space gains log |d forward / d y|.
    std::int64_t offset = 0;
    for (const ParamSpec& p : model.params) {
      const Shape u = p.unconstrained_shape();
      const std::int64_t n = num_elements(u);
      const Tensor y = reshape(slice(q, {offset}, {n}), u);
      lp = lp + as_type(sum(p.constraint.log_abs_det_jacobian(y)), q.dtype());
      offset += n;
    }
    return lp;
  };
}

}  // namespace nxv::mcmc
