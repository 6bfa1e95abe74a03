// The backend interface: where a tensor's elements live and how ops on them run.
//
// Every op reaches a backend through execute() with an OpCall (src/ops/op.hpp): the reference backend
// interprets it on the CPU, the Vulkan backend records a dispatch, the tracer records a graph node.
#pragma once
#include <memory>
#include <span>
#include <string_view>

#include "nxv/tensor.hpp"

namespace nxv {

struct OpCall;

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  // A new storage holding a copy of `bytes` (row-major elements of `type`).
  virtual std::shared_ptr<Storage> upload(std::span<const std::byte> bytes, const TensorType& type) = 0;
  // Copies the tensor's elements into `dst`; waits for any pending work that produces them.
  virtual void download(const Tensor& t, std::span<std::byte> dst) = 0;
  // Runs `call` on `inputs` (all on this backend) and returns the storage of a result of type `out`.
  virtual std::shared_ptr<Storage> execute(const OpCall& call, std::span<const Tensor> inputs,
                                           const TensorType& out) = 0;
};

// The CPU reference backend: plain C++, the oracle every other backend is tested against.
Backend& reference_backend();
// The backend new tensors are created on when none is named: the reference backend, unless NXV_BACKEND=vulkan
// or set_default_backend() says otherwise.
Backend& default_backend();
void set_default_backend(Backend& backend);

}  // namespace nxv
