// The stage plan of a traced graph: which nodes are fused into generated kernels and which run through the eager
// backend, and in what order. plan_stages runs the planner's passes (passes.hpp); the design -- regions,
// reductions, epilogues, contraction stages, nested reductions, and why the bits match the eager kernels' -- is
// docs/fusion-compiler.md.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "trace/graph.hpp"

namespace nxv::vulkan::fusion {

// A region input: node `node`'s buffer read at element offset sum(coordinate[d] * strides[d]) over the domain
// axes d (strides 0 along axes it is broadcast over).
struct Read {
  NodeId node;
  Shape strides;
  std::int64_t offset = 0;  // the element read at domain element 0 (a folded slice's start)
  // Whether it reads with these strides from element 0 (no folded slice start).
  bool plain(const Shape& s) const { return offset == 0 && strides == s; }
  friend bool operator==(const Read&, const Read&) = default;
};

// One value of a region's kernel: a read, a one-element constant (a push constant, so that weak scalars cost no
// binding; never a literal of the shader, which would let the driver fold x * 0 to 0 or -0 + 0 to -0), or the op
// of `node` applied to earlier values. `full` nodes become such constants too, and `iota` nodes their index
// arithmetic, (i / inner) % dim as iota.comp.
struct Instruction {
  enum class Kind : std::uint8_t { read, constant, iota, op } kind;
  NodeId node;    // op: whose call and type are computed; read: reads[read].node; constant/iota: the node
  int read = -1;  // read: index into Kernel::reads
  int push = -1;  // constant: its first word in Kernel::push (two words for 8-byte dtypes)
  std::int64_t inner = 1, dim = 1;  // iota: the coordinate along its axis is (linear index / inner) % dim
  std::vector<int> args;            // op: indices of earlier instructions, in the op's input order
};

struct Kernel {
  Shape domain;
  std::vector<Read> reads;                      // binding i = reads[i]
  std::vector<Instruction> program;             // topological
  std::vector<std::pair<NodeId, int>> outputs;  // (member node, instruction); bindings after the reads
  std::vector<std::uint32_t> push;              // the push-constant words: the constants' little-endian bits
  // Reduction stages: the reduce node and the instruction giving its input's element (its result is the binding
  // after the outputs).
  NodeId reduce = -1;
  int reduce_value = -1;
  // Reduction stages of one chunk per output: at most one elementwise region over the result's elements,
  // computed by the lane that stores each result (its reads of `reduce` take the reduced value, no binding).
  std::vector<Kernel> epilogue;
  // Contraction stages: the dot is computed transposed (its operands swapped, the same products and sums), because
  // its epilogue reads it transposed and nothing else reads it (a weight gradient feeding its SGD update).
  bool transposed = false;
  // Reduction stages to one value: at most one inner reduction whose results this one reduces (a nested reduction),
  // computed by the same workgroup; the outer kernel's reads of the inner reduction's node take its results, no
  // binding.
  std::vector<Kernel> inner;
  std::size_t bindings() const;
};

// Push-constant words one kernel may use: 128 bytes, the minimum every Vulkan device offers.
inline constexpr std::size_t kMaxPushWords = 32;
// Those of src/vulkan/kernels/dot.comp's own block, before a contraction's epilogue words.
inline constexpr std::size_t kDotPushWords = 10;

struct Stage {
  // contraction: a dot or conv with an epilogue; its kernel's `reduce` is that node, its reads the two operands
  // (the dot or conv kernel's own bindings), its epilogue the region.
  enum class Kind : std::uint8_t { eager, fused, reduction, contraction } kind;
  NodeId node = -1;  // eager: the node it evaluates; reduction: the reduce node; contraction: the dot or conv
  Kernel kernel;     // fused, reduction, contraction
  std::vector<NodeId> members;  // fused, reduction: the nodes it computes (for the stage plan printout)
};

struct Plan {
  std::vector<Stage> stages;       // in execution order
  int fused_stages() const;        // elementwise regions
  int reduction_stages() const;    // generated reductions
  int contraction_stages() const;  // generated dots with epilogues
  int eager_stages() const;
};

// `fuse` false: every needed node becomes an eager stage (NXV_FUSION=0). `max_bindings`: the storage buffers one
// kernel may bind (the runtime's pipeline layout). `fuse_reductions` false: elementwise regions only, every
// reduction eager (NXV_FUSION=elementwise, for A/B runs against reduction and epilogue fusion).
Plan plan_stages(const Graph& graph, bool fuse, std::uint32_t max_bindings, bool fuse_reductions = true);

// Whether `n` can be computed by a generated kernel exactly as its eager Vulkan kernel computes it (the same
// dtype rules elementwise.cpp and cast.cpp accept, and a function the device runs natively:
// kernels::elementwise_native; anything else keeps the eager path, host fallback included).
bool fusible(const Graph& graph, const Node& n);

// Whether a reduce node can be computed by a generated kernel in the eager kernel's order (the functions and
// dtypes the eager reduce kernel computes natively).
bool reducible(const Graph& graph, const Node& n);

// The kept and reduced axis groups of a reduction of `shape` over `axes` (neighbouring axes of one kind merged,
// unit axes dropped, row-major strides), and its chunking, exactly as the eager reduce kernel splits them.
struct ReduceLayout {
  Shape kept_shape, kept_strides, reduced_shape, reduced_strides;
  std::int64_t outputs = 0, length = 0, chunks = 1;
  // Rows short enough for reduce.comp's SHORT path: one invocation per output runs the tree in registers (the
  // same operations as the workgroup; a generated reduction without an inner one does the same).
  bool short_rows() const;
};
ReduceLayout reduce_layout(const Shape& shape, const Axes& axes, std::int64_t outputs);
inline constexpr std::int64_t kReduceChunk = 16384;  // reduce.comp's CHUNK
inline constexpr std::int64_t kShortReduceRow = 32;  // reduce.comp's SHORT_ROW
inline bool ReduceLayout::short_rows() const { return length <= kShortReduceRow; }

// The inputs an eager stage of `n` evaluates from (markers, stop_gradient and custom_vjp, are aliases of one).
std::vector<NodeId> eager_inputs(const Node& n);

// "stage 3: fused [32, 128] ops=4 (add, max, ...) reads=3 writes=1" lines, for NXV_DEBUG.
std::string to_string(const Plan& plan, const Graph& graph);

}  // namespace nxv::vulkan::fusion
