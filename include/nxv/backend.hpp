// The backend interface: where a tensor's elements live and how ops on them run.
//
// Every op reaches a backend through execute() with an OpCall (src/ops/op.hpp): the reference backend
// interprets it on the CPU, the Vulkan backend records a dispatch, the tracer records a graph node.
#pragma once
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nxv/tensor.hpp"

namespace nxv {

struct OpCall;
class Compiler;     // include/nxv/defn.hpp
class MapCompiler;  // jit_map's (src/trace/compiler.hpp)

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

// ---- the backend registry ----------------------------------------------------------------------------------
// Backends register themselves with what the rest of the library needs to know about them; the core names none
// (src/backends.cpp lists the ones a build contains).
struct BackendInfo {
  std::string name;                 // what Backend::name() returns and NXV_BACKEND names
  int priority = 0;                 // NXV_BACKEND=auto picks the available backend of the highest priority
  std::function<bool()> available;  // whether it can run here (never throws)
  std::function<Backend&()> get;    // the backend, created on first use (nxv::Error when not available)
  // jit's compiler for tensors on this backend (null: the evaluator, op by op).
  std::function<std::shared_ptr<Compiler>()> compiler;
  // jit_map's per-instance compiler for tensors on this backend (null: none; jit_map vectorizes).
  std::function<std::shared_ptr<MapCompiler>()> map_compiler;
};
void register_backend(BackendInfo info);
// Every registered backend, highest priority first.
std::vector<BackendInfo> registered_backends();
// The registered backend named `name`; nxv::Error naming the registered ones when there is none.
Backend& backend(std::string_view name);

// The backend new tensors are created on when none is named: NXV_BACKEND's (default `reference`), unless
// set_default_backend() says otherwise.
Backend& default_backend();
void set_default_backend(Backend& backend);

}  // namespace nxv
