// jit_map (trace/jit_map.hpp): a signature's one-instance trace handed to the backend's MapCompiler, and the
// vectorized fallback.
#include "trace/jit_map.hpp"

#include <iostream>

#include "core/registry.hpp"
#include "core/settings.hpp"
#include "nxv/vectorize.hpp"
#include "trace/compiler.hpp"
#include "trace/tracer.hpp"

namespace nxv::detail {

struct JitMap::Entry {
  std::vector<TensorType> types;
  std::unique_ptr<MapExecutable> executable;  // null: vectorized
  std::string why;
};

JitMap::JitMap(Fn fn, std::vector<bool> batched, bool enabled, bool faster_only)
    : fn_(std::move(fn)), batched_(std::move(batched)), enabled_(enabled), faster_only_(faster_only) {
  InAxes axes;
  for (const bool b : batched_) axes.push_back(b ? std::optional<int>(0) : not_batched);
  vectorized_ = jit([fn = fn_, axes](const std::vector<Tensor>& xs) {
    return vectorize([fn](const std::vector<Tensor>& ys) { return fn(ys); }, axes)(xs);
  });
}

JitMap::~JitMap() = default;

std::vector<Tensor> JitMap::operator()(std::span<const Tensor> inputs) {
  NXV_CHECK(inputs.size() == batched_.size(), "jit_map", "got ", inputs.size(), " inputs, expected ", batched_.size());
  std::vector<TensorType> types;
  for (const Tensor& t : inputs) types.push_back(t.type());
  Entry* entry = nullptr;
  for (const auto& e : entries_)
    if (e->types == types) entry = e.get();
  if (entry == nullptr) {
    auto e = std::make_unique<Entry>();
    e->types = types;
    const std::shared_ptr<MapCompiler> compiler =
        enabled_ && !inputs.empty() ? registered_map_compiler(inputs[0].backend()) : nullptr;
    if (compiler == nullptr) {
      e->why = enabled_ ? "the backend has no per-instance compiler" : "disabled";
    } else {
      // The one-instance trace: batched inputs without their leading axis.
      TraceScope scope;
      std::vector<Tensor> params;
      for (std::size_t i = 0; i < inputs.size(); ++i) {
        TensorType t = inputs[i].type();
        if (batched_[i]) {
          NXV_CHECK(t.shape.size() >= 1, "jit_map", "got batched input ", i, " of rank 0, expected a leading axis");
          t.shape = Shape(t.shape.begin() + 1, t.shape.end());
        }
        params.push_back(scope.tracer().parameter(t, inputs[i].weak()));
      }
      const std::vector<Tensor> outputs = fn_(params);
      const Graph graph = scope.tracer().finish(outputs);
      e->executable = compiler->compile(graph, batched_, e->why, faster_only_);
    }
    if (settings::flag(settings::Id::DEBUG))
      std::cerr << "nxv jit_map: " << (e->executable ? "per instance" : "vectorized (" + e->why + ")") << "\n";
    entries_.push_back(std::move(e));
    entry = entries_.back().get();
  }
  if (entry->executable) {
    std::optional<std::vector<Tensor>> out = entry->executable->run(inputs);
    if (out) {
      per_instance_ = true;
      why_.clear();
      return std::move(*out);
    }
    why_ = "the device stopped the kernel at its loop-trip cap";
  } else {
    why_ = entry->why;
  }
  per_instance_ = false;
  return vectorized_(std::vector<Tensor>(inputs.begin(), inputs.end()));
}

}  // namespace nxv::detail
