// Sequential: layer i's parameters are the entries "<kind>_<i>.<name>" of one flat Params.
#include <sstream>

#include "nxv/nn.hpp"

namespace nxv::nn {

namespace {

// The entries of `all` named "<prefix><name>", as a map of the names.
Params with_prefix(const Params& all, const std::string& prefix) {
  Params out;
  for (auto it = all.lower_bound(prefix); it != all.end() && it->first.starts_with(prefix); ++it)
    out.emplace(it->first.substr(prefix.size()), it->second);
  return out;
}

void add_prefixed(Params& into, const std::string& prefix, const Params& entries) {
  for (const auto& [name, t] : entries) into[prefix + name] = t;
}

Shape with_batch_one(Shape s) {
  if (!s.empty()) s[0] = 1;
  return s;
}

}  // namespace

Sequential::Sequential(std::vector<Layer> layers) : layers_(std::move(layers)) {
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    NXV_CHECK(layers_[i].init && layers_[i].apply, "Sequential", "layer ", i, " has no init or apply function");
    NXV_CHECK(!layers_[i].kind.empty(), "Sequential", "layer ", i, " has no kind (the prefix of its names)");
    prefixes_.push_back(layers_[i].kind + "_" + std::to_string(i) + ".");
  }
}

Variables Sequential::init_variables(Key key, const Shape& input_shape, DType dtype, Backend& backend) const {
  NXV_CHECK(is_float(dtype), "Sequential::init", "got dtype ", name(dtype), ", expected a float type");
  Variables v;
  // Each layer's output shape comes from applying it to zeros of batch size 1: recorded but not waited for on
  // Vulkan, so it costs a few small dispatches once.
  Tensor x = nxv::zeros(with_batch_one(input_shape), dtype, backend);
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    const auto [layer_key, rest] = split(key);
    key = rest;
    Params params, state, ignored;
    layers_[i].init(layer_key, x.shape(), dtype, backend, params, state);
    x = layers_[i].apply(params, state, x, {}, ignored);
    add_prefixed(v.params, prefixes_[i], params);
    add_prefixed(v.state, prefixes_[i], state);
  }
  return v;
}

std::pair<Tensor, Params> Sequential::apply(const Params& params, const Params& state, const Tensor& x,
                                            const ApplyOptions& options) const {
  Params new_state = state;
  Tensor y = x;
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    ApplyOptions layer_options = options;
    layer_options.stream = static_cast<std::uint32_t>(i);
    Params updated;
    y = layers_[i].apply(with_prefix(params, prefixes_[i]), with_prefix(state, prefixes_[i]), y, layer_options,
                         updated);
    add_prefixed(new_state, prefixes_[i], updated);
  }
  return {y, std::move(new_state)};
}

std::string Sequential::summary(const Shape& input_shape) const {
  std::ostringstream s;
  Tensor x = nxv::zeros(with_batch_one(input_shape), DType::f32, reference_backend());
  Key key{};
  std::int64_t total = 0;
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    Params params, state, ignored;
    layers_[i].init(key, x.shape(), DType::f32, reference_backend(), params, state);
    x = layers_[i].apply(params, state, x, {}, ignored);
    const std::int64_t count = parameter_count(params);
    total += count;
    const std::string label = prefixes_[i].substr(0, prefixes_[i].size() - 1);
    s << "  " << label << std::string(label.size() < 18 ? 18 - label.size() : 1, ' ') << "-> " << to_string(x.shape())
      << "  " << count << " parameters\n";
  }
  s << "  total " << total << " parameters\n";
  return s.str();
}

std::int64_t parameter_count(const Params& params) {
  std::int64_t n = 0;
  for (const auto& [name, t] : params) n += t.size();
  return n;
}

}  // namespace nxv::nn
