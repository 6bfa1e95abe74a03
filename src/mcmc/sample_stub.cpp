// TEMPORARY: deleted at merge
// Stands in for the sampler library (include/nxv/mcmc.hpp) so that the app branch links while another branch
// writes the real one: the model helpers are real (the app's tests evaluate its models' log densities through
// them), `sample` is FAKE: every draw is the initial point, every statistic a placeholder.
#include <cmath>
#include <set>

#include "nxv/error.hpp"
#include "nxv/mcmc.hpp"
#include "nxv/ops.hpp"

namespace nxv::mcmc {

Shape ParamSpec::unconstrained_shape() const {
  Shape s = shape;
  if (constraint.codomain == dist::Support::simplex && !s.empty()) s.back() -= 1;
  return s;
}

Model& Model::param(std::string name, Shape shape, dist::Bijection constraint) {
  for (const ParamSpec& p : params) NXV_CHECK(p.name != name, "Model::param", "the name '", name, "' twice");
  params.push_back({std::move(name), std::move(shape), std::move(constraint)});
  return *this;
}

std::int64_t Model::dimension() const {
  std::int64_t d = 0;
  for (const ParamSpec& p : params) d += num_elements(p.unconstrained_shape());
  return d;
}

namespace {

// Each parameter's slice [..., offset : offset + n] of q, reshaped to [..., unconstrained_shape...].
std::vector<Tensor> split(const Model& model, const Tensor& q) {
  NXV_CHECK(q.rank() >= 1 && q.dim(-1) == model.dimension(), "mcmc::constrain", "q ", to_string(q.type()),
            ", expected [..., ", model.dimension(), "]");
  std::vector<Tensor> out;
  std::int64_t offset = 0;
  Shape batch(q.shape().begin(), q.shape().end() - 1);
  for (const ParamSpec& p : model.params) {
    const Shape u = p.unconstrained_shape();
    const std::int64_t n = num_elements(u);
    Shape starts = Shape::filled(q.rank(), 0), lengths = q.shape();
    starts.back() = offset;
    lengths.back() = n;
    Shape target = batch;
    for (std::int64_t n_i : u) target.push_back(n_i);
    out.push_back(reshape(slice(q, starts, lengths), target));
    offset += n;
  }
  return out;
}

}  // namespace

Params constrain(const Model& model, const Tensor& q) {
  const std::vector<Tensor> parts = split(model, q);
  Params out;
  for (std::size_t i = 0; i < parts.size(); ++i)
    out[model.params[i].name] = model.params[i].constraint.forward(parts[i]);
  return out;
}

Tensor unconstrain(const Model& model, const Params& values) {
  std::vector<Tensor> flat;
  for (const ParamSpec& p : model.params) {
    const auto it = values.find(p.name);
    NXV_CHECK(it != values.end(), "mcmc::unconstrain", "no value for '", p.name, "'", "");
    const Tensor y = p.constraint.inverse(it->second);
    const std::int64_t n = num_elements(p.unconstrained_shape());
    Shape batch(y.shape().begin(), y.shape().end() - p.unconstrained_shape().size());
    batch.push_back(n);
    flat.push_back(reshape(y, batch));
  }
  return concatenate(flat, -1);
}

LogDensity unconstrained_log_density(const Model& model) {
  return [model](const Tensor& q) {
    const std::vector<Tensor> parts = split(model, q);
    Params values;
    Tensor jacobian;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const dist::Bijection& b = model.params[i].constraint;
      values[model.params[i].name] = b.forward(parts[i]);
      const Tensor term = sum(b.log_abs_det_jacobian(parts[i]));
      jacobian = jacobian.defined() ? jacobian + term : term;
    }
    const Tensor lp = model.log_density(values);
    return jacobian.defined() ? lp + jacobian : lp;
  };
}

Summary Samples::summary() const {
  std::vector<std::pair<std::string, Tensor>> named;
  for (const std::string& n : names) named.emplace_back(n, draws.at(n));
  return summarize(named, count_divergences(diverging));
}

// FAKE: warm-up and sampling do nothing but call on_progress; every draw is the initial point.
Samples sample(const Model& model, const SampleOptions& o) {
  NXV_CHECK(o.chains >= 1 && o.samples >= 1 && o.warmup >= 0, "mcmc::sample", "chains ", o.chains, ", samples ",
            o.samples, ", expected >= 1");
  Backend& backend = o.backend != nullptr ? *o.backend : default_backend();
  const std::int64_t d = model.dimension(), c = o.chains, s = o.samples;
  Tensor q0 = zeros({d}, o.dtype, backend);
  if (!o.init.empty()) {
    Params init;
    for (const auto& [name, v] : o.init) init[name] = as_type(v.to(backend), o.dtype);
    q0 = unconstrain(model, init);
  }
  const double lp = unconstrained_log_density(model)(q0).item();
  NXV_CHECK(std::isfinite(lp), "mcmc::sample", "initial log density ", lp, ", expected a finite value");
  const std::int64_t total = o.warmup + o.samples;
  for (std::int64_t i = 1; i <= total; ++i)
    if (o.on_progress && (i % std::max<std::int64_t>(1, o.progress_every) == 0 || i == total))
      o.on_progress({i, total, i <= o.warmup, 0});
  Samples out;
  for (const ParamSpec& p : model.params) out.names.push_back(p.name);
  out.unconstrained = broadcast(q0, {c, s, d});
  out.draws = constrain(model, out.unconstrained);
  out.log_density = full({c, s}, lp, o.dtype, backend);
  out.accept_stat = ones({c, s}, o.dtype, backend);
  out.energy = full({c, s}, -lp, o.dtype, backend);
  out.diverging = as_type(zeros({c, s}, DType::s64, backend), DType::pred);
  out.num_steps = zeros({c, s}, DType::s64, backend);
  out.tree_depth = zeros({c, s}, DType::s64, backend);
  out.step_size = full({c}, o.step_size, o.dtype, backend);
  out.inverse_mass = ones({c, d}, o.dtype, backend);
  return out;
}

}  // namespace nxv::mcmc
