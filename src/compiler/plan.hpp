// The stage plan of a traced graph: which nodes are fused into generated elementwise kernels and which run
// through the eager backend, and in what order.
//
// An elementwise region is a set of fusible nodes (unary, binary, their tests, select, clip, cast) of one shape,
// its domain: one kernel invocation per domain element computes every member at that element. Inputs enter a
// region as reads of materialised values (parameters, constants, eager results, other regions' outputs) at an
// element offset that is affine in the domain coordinates; views between a read and its consumer (reshape,
// broadcast, transpose, and the implicit NumPy broadcast of binary/select/clip) are folded into those offsets
// instead of being materialised. A fusible value of a smaller shape that is broadcast into a region (a bias, a
// per-row log-sum, learning-rate arithmetic) is recomputed per element inside the region rather than read from
// a buffer of its own region; one-element constants and `full` nodes become push constants.
//
// Regions are grown in topological order; a node joins the regions of its same-shape inputs only when no other
// input depends on those regions through nodes outside them, so the stage graph stays acyclic. A region whose
// kernel would need more storage-buffer bindings than the runtime's layout offers is split in topological order.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "trace/graph.hpp"

namespace nxv::compiler {

// A region input: node `node`'s buffer read at element offset sum(coordinate[d] * strides[d]) over the domain
// axes d (strides 0 along axes it is broadcast over).
struct Read {
  NodeId node;
  Shape strides;
  friend bool operator==(const Read&, const Read&) = default;
};

// One value of a region's kernel: a read, a one-element constant (a push constant, so that weak scalars cost no
// binding; never a literal of the shader, which would let the driver fold x * 0 to 0 or -0 + 0 to -0), or the op
// of `node` applied to earlier values. `full` nodes become such constants too, and `iota` nodes their index
// arithmetic, (i / inner) % dim as iota.comp.
struct Instruction {
  enum class Kind : std::uint8_t { read, constant, iota, op } kind;
  NodeId node;              // op: whose call and type are computed; read: reads[read].node; constant/iota: the node
  int read = -1;            // read: index into Kernel::reads
  int push = -1;            // constant: its first word in Kernel::push (two words for 8-byte dtypes)
  std::int64_t inner = 1, dim = 1;  // iota: the coordinate along its axis is (linear index / inner) % dim
  std::vector<int> args;    // op: indices of earlier instructions, in the op's input order
};

struct Kernel {
  Shape domain;
  std::vector<Read> reads;                 // binding i = reads[i]
  std::vector<Instruction> program;        // topological
  std::vector<std::pair<NodeId, int>> outputs;  // (member node, instruction); bindings after the reads
  std::vector<std::uint32_t> push;         // the push-constant words: the constants' little-endian bits
  std::size_t bindings() const { return reads.size() + outputs.size(); }
};

// Push-constant words one kernel may use: 128 bytes, the minimum every Vulkan device offers.
inline constexpr std::size_t kMaxPushWords = 32;

struct Stage {
  enum class Kind : std::uint8_t { eager, fused } kind;
  NodeId node = -1;     // eager: the node it evaluates
  Kernel kernel;        // fused
  std::vector<NodeId> members;  // fused: the region's nodes (for the stage plan printout)
};

struct Plan {
  std::vector<Stage> stages;  // in execution order
  int fused_stages() const;
  int eager_stages() const;
};

// `fuse` false: every needed node becomes an eager stage (NXV_FUSION=0). `max_bindings`: the storage buffers one
// kernel may bind (the runtime's pipeline layout).
Plan plan_stages(const Graph& graph, bool fuse, std::uint32_t max_bindings);

// Whether `n` can be computed by a generated kernel exactly as its eager Vulkan kernel computes it (the same
// dtype rules elementwise.cpp and cast.cpp accept; anything else keeps the eager path, host fallback included).
bool fusible(const Graph& graph, const Node& n);

// "stage 3: fused [32, 128] ops=4 (add, max, ...) reads=3 writes=1" lines, for NXV_DEBUG.
std::string to_string(const Plan& plan, const Graph& graph);

}  // namespace nxv::compiler
