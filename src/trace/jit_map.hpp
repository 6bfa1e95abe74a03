// jit_map: jit(vectorize(fn, in_axes)) for a function over a flat list of tensors whose batched inputs carry the
// batch along axis 0, where the inputs' backend may compile the ONE-instance graph so that each instance runs by
// itself (on Vulkan: one GPU invocation per instance, its loops and branches its own: mcmc::sample's chain shaders).
//
//   detail::JitMap step(one_chain_step, {true, true, false});  // inputs 0, 1 per chain; input 2 shared
//   std::vector<Tensor> next = step({keys, state, control});    // every output [chains, ...]
//
// The per-instance path is taken when the backend registered a MapCompiler (BackendInfo::map_compiler), `enabled`
// is on and the compiler generates the graph; otherwise, and for a call the device could not finish, the function
// runs as jit(vectorize(fn)), which is also the A/B arm. NXV_DEBUG prints which path a signature took and why.
#pragma once
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "nxv/tensor.hpp"

namespace nxv::detail {

class JitMap {
 public:
  using Fn = std::function<std::vector<Tensor>(std::span<const Tensor>)>;
  // batched[i]: whether input i carries the batch along axis 0 (at least one does; all batch sizes agree).
  // faster_only: run per instance only in the forms the backend measured faster than vectorized (MapCompiler).
  JitMap(Fn fn, std::vector<bool> batched, bool enabled = true, bool faster_only = false);
  ~JitMap();
  std::vector<Tensor> operator()(std::span<const Tensor> inputs);
  // Whether the last call ran per instance; when not, why (empty before the first call).
  bool per_instance() const { return per_instance_; }
  const std::string& why_not() const { return why_; }

 private:
  struct Entry;
  Fn fn_;
  std::vector<bool> batched_;
  bool enabled_;
  bool faster_only_;
  std::vector<std::unique_ptr<Entry>> entries_;
  std::function<std::vector<Tensor>(const std::vector<Tensor>&)> vectorized_;
  bool per_instance_ = false;
  std::string why_;
};

}  // namespace nxv::detail
