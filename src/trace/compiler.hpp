// The compiler interface behind jit (include/nxv/defn.hpp): a whole traced graph in, something runnable out. The
// evaluator (trace/jit.cpp) and the Vulkan fusion compiler (src/vulkan/fusion/compiler.cpp) implement it. Private:
// the graph it takes is the tracer's internal form.
#pragma once
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "nxv/defn.hpp"
#include "trace/graph.hpp"

namespace nxv {
// What a graph was traced for: the input structure and, per flattened input, its type, weak flag and backend.
struct Signature {
  Structure structure;
  std::vector<TensorType> types;
  std::vector<bool> weak;
  std::vector<Backend*> backends;
  Precision precision = Precision::exact;  // the mode the graph's dots were traced in, where they name none
  friend bool operator==(const Signature&, const Signature&) = default;
};
std::string to_string(const Signature& s);  // "(f32[2, 3], {b: f32[3]}) on vulkan"

class Executable {
 public:
  virtual ~Executable() = default;
  // The flattened outputs for the flattened `inputs` (which match the signature it was compiled for).
  virtual std::vector<Tensor> run(std::span<const Tensor> inputs) = 0;
};

// The extension point of jit: turns a whole traced graph into something runnable (the fusion compiler plugs in here).
class Compiler {
 public:
  virtual ~Compiler() = default;
  virtual std::unique_ptr<Executable> compile(const Graph& graph, const Signature& signature) = 0;
};

// The extension point of jit_map (trace/jit_map.hpp): a ONE-instance graph compiled to run every instance of a batch
// at once, each by itself (the Vulkan backend: one GPU invocation per instance,
// src/vulkan/fusion/instance_codegen.hpp).
class MapExecutable {
 public:
  virtual ~MapExecutable() = default;
  // The flattened outputs, each with the instances along a new leading axis, for inputs whose batched ones carry
  // them along axis 0; nullopt when this call could not finish here (a device that caps loop trips stopped it), and
  // the caller runs the vectorized form instead.
  virtual std::optional<std::vector<Tensor>> run(std::span<const Tensor> inputs) = 0;
};
class MapCompiler {
 public:
  virtual ~MapCompiler() = default;
  // An executable for `graph` (parameter i batched where batched[i]), or nullptr and `why` when the graph has
  // something the compiler does not generate, or, with `faster_only`, when the compiler would generate a form
  // measured slower than the vectorized path (mcmc::sample's NXV_CHAIN_SHADERS=auto).
  virtual std::unique_ptr<MapExecutable> compile(const Graph& graph, const std::vector<bool>& batched, std::string& why,
                                                 bool faster_only) = 0;
};

}  // namespace nxv
