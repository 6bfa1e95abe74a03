// The per-instance kernel generator's class (instance_codegen.hpp says what it generates), shared by its files:
// instance_codegen.cpp (the kernel's frame, emission helpers, where values live), instance_graph.cpp (graphs, nodes,
// control flow), instance_elements.cpp (index arithmetic, elementwise and movement ops, literals) and
// instance_reductions.cpp (reductions, dot, scans, indexed adds).
#pragma once
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "trace/graph.hpp"
#include "vulkan/fusion/instance_codegen.hpp"

namespace nxv::vulkan::fusion::instance {

// What the generator cannot do: caught by generate_instance_kernel, which reports it as `why`.
struct Unsupported {
  std::string why;
};

inline std::string u(std::int64_t v) { return std::to_string(v) + "u"; }

// Where a value lives, and how to read element e of it.
struct Value {
  enum class Kind { reg, local, scratch, batched, shared, literal, lazy } kind = Kind::reg;
  DType dtype = DType::f32;
  std::int64_t elements = 0;
  std::string name;         // reg/local: the variable; batched/shared/scratch: the buffer; literal: the expression
  std::int64_t offset = 0;  // batched/shared/scratch: the first element
  std::int64_t row = 0;     // batched: elements per instance
  std::size_t block = 0;    // batched: its block in InstanceKernel::batched
  bool workgroup = false;   // scratch in the group mapping: in shared memory (else a buffer)
  bool view = false;        // lazy: a movement op's index map of stored values (cheap to read again)
  // lazy: element e computed where it is read (an elementwise node with one consumer that reads each element once)
  std::function<std::string(const std::string&)> expression;
  bool same_storage(const Value& o) const { return kind == o.kind && name == o.name && offset == o.offset; }
};

// Emits one graph's kernel, node by node, into GLSL (a generator per kernel: run() once).
class InstanceGenerator {
 public:
  InstanceGenerator(const Graph& g, const std::vector<bool>& batched, const InstanceOptions& options)
      : root_(g),
        batched_(batched),
        cap_(options.cap_trips),
        float_literals_(options.float_literals),
        group_(options.group),
        // The lanes and spread arrays are declared on first use: their most is kept free for them.
        group_budget_(options.shared_bytes > kReserved ? options.shared_bytes - kReserved : 0),
        shared_limit_(options.shared_bytes) {}

  InstanceKernel run();

 private:
  // ---- emission helpers ----
  void line(const std::string& text);
  // The group mapping's barrier (stores to shared and scratch memory before it are seen by the group after it);
  // none where the last statement was one. Only in uniform control flow, never in a divergent region.
  void sync();
  // The group mapping: `open` starts code that the group's invocations run differently (an owner loop, one
  // invocation), about `per_invocation` times; the loops inside count their trips here, and the bound is added to
  // the trip count after it, alike in every invocation, so that the count and the stop flag stay uniform.
  void divergent(const std::string& open, double per_invocation, const std::function<void()>& body);
  // Whether v is spread over the group's invocations (the group mapping's large values).
  bool spread(const Value& v) const { return group_ && v.kind == Value::Kind::scratch; }
  // The group's owner loop: invocation l runs `body(e)` for e = l, l + kGroupLanes, ... below `length` (an
  // expression; at most `most`), in a divergent region.
  void owner_loop(const std::string& length, std::int64_t most, const std::function<void(const std::string&)>& body);
  // Runs `body(e)` for each element e of `out`, which it stores: spread values by their owners, between barriers.
  void for_each_output(const Value& out, const std::function<void(const std::string&)>& body);
  // Runs `body` in the group's first invocation only, between barriers (a sequential op's spread output).
  void first_invocation(const std::function<void()>& body);
  // Runs `body` with the statements it emits counted `trips` times more (a loop's body).
  void repeated(double trips, const std::function<void()>& body);
  std::string fresh(const char* prefix) { return prefix + std::to_string(next_name_++); }

  // Runs `body(e)` for each element index e < n: unrolled (e a literal) up to kUnrolled, else in a loop.
  void for_each(std::int64_t n, const std::function<void(const std::string&)>& body);
  void count_trip();

  // ---- values ----
  std::string read(const Value& v, const std::string& e) const;
  // An index of a local array: a literal in range as it is, anything else clamped, since GLSL rejects a constant
  // index out of range even in the untaken branch of a select (a concatenation's or padding's other operands).
  static std::string local_index(const Value& v, const std::string& e);
  std::string write(const Value& v, const std::string& e) const;
  // Element e of a value in scratch memory: instance-minor for one invocation per instance, instance-major in a
  // buffer for the group mapping (the group's invocations touch neighbouring words), or in shared memory.
  std::string scratch_at(const Value& v, const std::string& e) const;

  // A new value of `type`, declared at the current point.
  Value allocate(const TensorType& type);
  static std::size_t word_bytes(DType t) { return size_of(t) < 4 ? 4 : size_of(t); }
  // `elements` more of the group's shared array of compute type ct: its name, and the first element in `offset`.
  std::string group_array(const std::string& ct, std::int64_t elements, std::int64_t& offset);
  // A shared array of `elements` of type ct, declared once by `name` (the lanes of cooperative reductions).
  std::string group_scratch(const std::string& name, const std::string& ct, std::int64_t elements);
  void copy(const Value& to, const Value& from);

  static void check_dtype(DType t);

  void bind_parameter(std::size_t i);
  static std::size_t block_for(std::vector<InstanceKernel::Block>& blocks, DType t);
  // A batched value's row (its block's, known once every parameter is bound).
  void fix_rows();

  void emit_output(std::size_t o);

  // ---- graphs ----
  void emit_graph(const Graph& g);

  const Value& input(const Graph& g, const Node& n, std::size_t i) const { return values_.at(&g.nodes[n.inputs[i]]); }

  void emit_node(const Graph& g, const Node& n);

  static bool elementwise(OpCode c);
  // Whether n is computed where its one consumer reads it, instead of stored: an elementwise node of more than one
  // element whose consumer reads each of its elements once (an elementwise op of its shape, or a reduction). Its
  // inputs are immutable values, read before the consumer (in the same graph) runs.
  bool lazy(const Graph& g, const Node& n) const;

  // Whether n is read through its input where it is used, never stored: a movement op (an index map) of stored
  // values, such as the transposed or broadcast data of a gradient, which would otherwise be copied per instance.
  bool view(const Graph& g, const Node& n) const;

  // ---- index arithmetic ----
  static std::vector<std::string> coords(const Shape& shape, const std::string& e);
  static std::string flat(const Shape& shape, const std::vector<std::string>& c);
  // The index in `in` (NumPy-broadcast to `out`) of output element e.
  static std::string broadcast_index(const Shape& out, const Shape& in, const std::string& e);

  std::string arg(const Graph& g, const Node& n, std::size_t i, const std::string& e) const;

  // ---- elementwise and movement ops: element e of n as an expression ----
  std::string element(const Graph& g, const Node& n, const std::string& e);

  // ---- literals ----
  // `v` converted to t as cast does (the value of a pad, full or eye). A float is read from the constants buffer
  // unless the options ask for literals (InstanceOptions::float_literals says why).
  std::string literal_of_double(DType t, double v);
  // The element at `p` (t's C++ representation) as an exact GLSL constant of t's compute type.
  static std::string literal_bits(DType t, const void* p);
  // The T at p (an element of a constant's bytes, which need not be aligned for T).
  template <class T>
  static T word(const void* p) {
    T w;
    std::memcpy(&w, p, sizeof w);
    return w;
  }

  // The constants block of dtype t (InstanceKernel::constants), added where there is none.
  std::size_t constants_block(DType t);
  // A float constant's element, appended to its dtype's constants block.
  std::string float_constant(DType t, const void* p);

  Value constant(const Node& n);

  // ---- reductions: the reference backend's order (src/reference/reduce.cpp's reduce_in_order) ----
  // 256 lanes, lane l folding values l, l + 256, ... from the identity, then a tree s = 128, 64, ..., 1 (lane i
  // combined with lane i + s); longer than kChunk values: chunks of kChunk reduced so, then their partials by the
  // same rule. The same operations on the same operands, so a per-instance sum has the vectorized sum's bits.
  static constexpr std::int64_t kLanes = 256, kChunk = kLanes * 64, kStaticLanes = 32;

  std::string combine(ReduceFn fn, const std::string& type, const std::string& a, const std::string& b);
  // A `precise` sum: the driver may not contract it with the product that feeds it.
  void define_reduce_add(const std::string& type);

  // The variable holding the reduction of value(j), j < n (an index expression each), in reduce_in_order's order.
  std::string ordered_reduce(std::int64_t n, const std::function<std::string(const std::string&)>& value, ReduceFn fn,
                             const std::string& type, const std::string& identity);
  // r = the reduction of n values past one chunk: chunks of kChunk, `chunk(part, first, length)` reducing each, then
  // their partials by ordered_reduce (reduce_in_order's rule for long reductions).
  void chunks_then_partials(
      const std::string& r, std::int64_t n,
      const std::function<void(const std::string&, const std::string&, const std::string&)>& chunk, ReduceFn fn,
      const std::string& type, const std::string& identity);
  // One chunk: values first .. first + length - 1 over 256 lanes in local memory, then the whole tree.
  void chunk_reduce(const std::string& r, const std::string& first, const std::string& length,
                    const std::function<std::string(const std::string&)>& value, ReduceFn fn, const std::string& type,
                    const std::string& identity);

  // The group mapping: the reduction of value(j), j < n, by the whole group in reduce_in_order's order (lane l is
  // invocation l; the tree meets in shared memory), in every invocation's variable r.
  std::string group_reduce(std::int64_t n, const std::function<std::string(const std::string&)>& value, ReduceFn fn,
                           const std::string& type, const std::string& identity);
  void group_chunk(const std::string& r, const std::string& first, const std::string& length, std::int64_t most,
                   const std::function<std::string(const std::string&)>& value, ReduceFn fn, const std::string& type,
                   const std::string& identity);

  void emit_reduce(const Graph& g, const Node& n);

  // Output [batch..., a's free axes..., b's free axes...]; each element a sum over the contracted axes in order
  // (acc = 0; acc = acc + a_k b_k, src/reference/dot.cpp).
  void emit_dot(const Graph& g, const Node& n);

  // out[0] = x[0], out[j] = out[j - 1] op x[j] along the axis (from the end when reversed), in the compute type, each
  // store truncated: the reference's scan (src/reference/sort.cpp).
  void emit_cumulative(const Graph& g, const Node& n);

  // (x, indices [n, k], updates [n, window...]): x, then update b added to the row its k coordinates name, in
  // increasing b (a row out of range is skipped), as the reference does.
  void emit_indexed_add(const Graph& g, const Node& n);

  // ---- control flow ----
  // Binds body b's parameters [leading..., captured inputs of the node...] and emits its nodes.
  void emit_body(const Graph& g, const Node& n, std::size_t b, const std::vector<Value>& leading);
  std::vector<Value> outputs_of(const Graph& body) const;
  // carries = next, through temporaries where a next value is stored where a carry is.
  void assign(const std::vector<Value>& carries, std::vector<Value> next);
  std::vector<Value> declare_carries(const ControlFlow& cf, std::size_t count);

  void emit_control(const Graph& g, const Node& n);

  const Graph& root_;
  const std::vector<bool>& batched_;
  bool cap_;
  bool float_literals_;
  bool group_;
  // The group mapping's shared memory: what values may take, the device's limit, and what is declared so far.
  static constexpr std::size_t kReserved = 8192;  // for the lanes and sums arrays
  std::size_t group_budget_, shared_limit_, group_bytes_ = 0;
  std::map<std::string, std::pair<std::int64_t, std::string>> group_values_;  // compute type: elements, array
  std::map<std::string, std::string> group_arrays_;                           // name: declaration
  bool synced_ = false;                                                       // the last statement was a barrier
  bool divergent_ = false;                                                    // in a divergent region (divergent())
  double divergent_trips_ = 0;
  InstanceKernel k_;
  std::map<const Node*, Value> values_;
  std::map<const Node*, std::vector<Value>> results_;
  std::map<std::string, std::string> helpers_;
  const std::vector<int>* uses_ = nullptr;  // of the graph being emitted
  const std::vector<NodeId>* consumers_ = nullptr;
  std::ostringstream code_;
  double repeat_ = 1, work_ = 0;  // how often the current statement runs; statements run in all (estimates)
  int indent_ = 1;
  int in_while_ = 0;  // while loops around the current statement
  int next_name_ = 0;
};

}  // namespace nxv::vulkan::fusion::instance
