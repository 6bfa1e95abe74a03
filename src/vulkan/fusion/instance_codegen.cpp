// GLSL generation for per-instance kernels (design in instance_codegen.hpp).
#include "vulkan/fusion/instance_codegen.hpp"

#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>

#include "nxv/shape.hpp"
#include "vulkan/fusion/codegen.hpp"
#include "vulkan/fusion/glsl_types.hpp"

namespace nxv::vulkan::fusion {

std::size_t InstanceKernel::bindings() const {
  return batched.size() + shared.size() + constants.size() + outputs.size() + scratch.size() + (cap_trips ? 1 : 0);
}

namespace {

// What the generator cannot do: caught by generate_instance_kernel, which reports it as `why`.
struct Unsupported {
  std::string why;
};

std::string u(std::int64_t v) { return std::to_string(v) + "u"; }

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

  InstanceKernel run() {
    k_.cap_trips = cap_;
    k_.group = group_;
    for (std::size_t i = 0; i < root_.parameters.size(); ++i) bind_parameter(i);
    fix_rows();
    indent_ = 1;
    if (cap_) line("bool nxv_stop = false;\n  uint nxv_trips = 0u;");
    emit_graph(root_);
    for (std::size_t o = 0; o < root_.outputs.size(); ++o) emit_output(o);
    if (work_ > kWorkBudget) {
      std::ostringstream why;
      why << "about " << work_ << " statements per instance, past one dispatch's budget of " << kWorkBudget
          << " (a long dispatch can lose the device)";
      throw Unsupported{why.str()};
    }
    if (cap_) line(std::string(group_ ? "if (lid == 0u) " : "") + "nxv_status[c] = nxv_stop ? 1u : 0u;");
    if (group_bytes_ > shared_limit_)
      throw Unsupported{std::to_string(group_bytes_) + " bytes of shared memory (the device allows " +
                        std::to_string(shared_limit_) + ")"};

    std::ostringstream s;
    s << "#version 450\n"
         "#extension GL_GOOGLE_include_directive : require\n"
         "#include \"lib/common.glsl\"\n"
         "#include \"lib/elementwise.glsl\"\n\n";
    // The output rows are known only after the last store was emitted: the stores name them as macros.
    for (std::size_t b = 0; b < k_.outputs.size(); ++b)
      s << "#define NXV_ROW_y" << b << " " << u(k_.outputs[b].row) << "\n";
    s << "layout(local_size_x = " << (group_ ? kGroupLanes : kInstanceGroup) << ") in;\n";
    // The group mapping's scratch: a buffer region per instance (coherent: the group's invocations read each
    // other's stores after a barrier), and values in shared memory.
    for (std::size_t b = 0; b < k_.scratch.size(); ++b)
      s << "#define NXV_STRIDE_t" << b << " " << u(k_.scratch[b].elements) << "\n";
    s << "#define NXV_SYNC() { " << (k_.scratch.empty() ? "" : "memoryBarrierBuffer(); ")
      << "memoryBarrierShared(); barrier(); }\n";
    for (const auto& [name, declaration] : group_arrays_) s << declaration << "\n";
    k_.shared_bytes = group_bytes_;
    std::size_t binding = 0;
    const auto declare = [&](const std::string& block, DType t, const std::string& name, bool write) {
      s << "layout(std430, binding = " << binding++ << ") " << (write ? "writeonly" : "readonly") << " buffer " << block
        << " { " << buffer_type(t) << " " << name << "[]; };\n";
    };
    for (std::size_t b = 0; b < k_.batched.size(); ++b)
      declare("X" + std::to_string(b), k_.batched[b].dtype, "x" + std::to_string(b), false);
    for (std::size_t b = 0; b < k_.shared.size(); ++b)
      declare("S" + std::to_string(b), k_.shared[b].dtype, "s" + std::to_string(b), false);
    for (std::size_t b = 0; b < k_.constants.size(); ++b)
      declare("K" + std::to_string(b), k_.constants[b].dtype, "k" + std::to_string(b), false);
    for (std::size_t b = 0; b < k_.outputs.size(); ++b)
      declare("Y" + std::to_string(b), k_.outputs[b].dtype, "y" + std::to_string(b), true);
    for (std::size_t b = 0; b < k_.scratch.size(); ++b)
      s << "layout(std430, binding = " << binding++ << ") " << (group_ ? "coherent " : "") << "buffer T" << b << " { "
        << k_.scratch[b].type << " t" << b << "[]; };\n";
    if (cap_) s << "layout(std430, binding = " << binding++ << ") writeonly buffer Status { uint nxv_status[]; };\n";
    // first: the first instance of this dispatch; count: its instances (the scratch buffers' stride).
    s << "layout(push_constant) uniform Push { uint first; uint count; } pc;\n\n";
    for (const auto& [name, text] : helpers_) s << text << "\n";
    // li: the instance within this dispatch; c: within the call; lid: the invocation within the instance's group.
    if (group_)
      s << "void main() {\n  uint li = gl_WorkGroupID.x;\n  uint lid = gl_LocalInvocationID.x;\n"
           "  if (li >= pc.count) return;\n  uint c = pc.first + li;\n";
    else
      s << "void main() {\n  uint li = gl_GlobalInvocationID.x;\n  if (li >= pc.count) return;\n  uint c = pc.first + "
           "li;\n";
    s << code_.str() << "}\n";
    k_.glsl = s.str();
    return std::move(k_);
  }

 private:
  // ---- emission helpers ----
  void line(const std::string& text) {
    code_ << std::string(2 * indent_, ' ') << text << "\n";
    work_ += repeat_;
    synced_ = false;
  }
  // The group mapping's barrier (stores to shared and scratch memory before it are seen by the group after it);
  // none where the last statement was one. Only in uniform control flow, never in a divergent region.
  void sync() {
    if (!group_ || synced_) return;
    if (divergent_) throw Unsupported{"a barrier in a divergent region (a generator bug)"};
    line("NXV_SYNC();");
    synced_ = true;
  }
  // The group mapping: `open` starts code that the group's invocations run differently (an owner loop, one
  // invocation), about `per_invocation` times; the loops inside count their trips here, and the bound is added to
  // the trip count after it, alike in every invocation, so that the count and the stop flag stay uniform.
  void divergent(const std::string& open, double per_invocation, const std::function<void()>& body) {
    if (divergent_) {  // nested: the outer region counts the trips
      line(open);
      ++indent_;
      repeated(per_invocation, body);
      --indent_;
      line("}");
      return;
    }
    const double outer = repeat_;
    divergent_ = true;
    divergent_trips_ = 0;
    line(open);
    ++indent_;
    repeated(per_invocation, body);
    --indent_;
    line("}");
    divergent_ = false;
    if (cap_ && divergent_trips_ > 0)
      line("nxv_trips += " + u(static_cast<std::int64_t>(std::ceil(divergent_trips_ / outer))) +
           "; nxv_stop = nxv_trips > " + u(kTripBudget) + ";");
  }
  // Whether v is spread over the group's invocations (the group mapping's large values).
  bool spread(const Value& v) const { return group_ && v.kind == Value::Kind::scratch; }
  // Runs `body(e)` for each element e of `out`, which it stores: spread values by their owners, between barriers.
  void for_each_output(const Value& out, const std::function<void(const std::string&)>& body) {
    if (!spread(out)) {
      for_each(out.elements, body);
      return;
    }
    sync();
    const std::string e = fresh("e");
    divergent("for (uint " + e + " = lid; " + e + " < " + u(out.elements) + "; " + e + " += " + u(kGroupLanes) + ") {",
              std::ceil(static_cast<double>(out.elements) / kGroupLanes), [&] {
                count_trip();
                body(e);
              });
    sync();
  }
  // Runs `body` in the group's first invocation only, between barriers (a sequential op's spread output).
  void first_invocation(const std::function<void()>& body) {
    sync();
    divergent("if (lid == 0u) {", 1, body);
    sync();
  }
  // Runs `body` with the statements it emits counted `trips` times more (a loop's body).
  void repeated(double trips, const std::function<void()>& body) {
    const double outer = repeat_;
    repeat_ *= trips;
    body();
    repeat_ = outer;
  }
  std::string fresh(const char* prefix) { return prefix + std::to_string(next_name_++); }

  // Runs `body(e)` for each element index e < n: unrolled (e a literal) up to kUnrolled, else in a loop.
  void for_each(std::int64_t n, const std::function<void(const std::string&)>& body) {
    if (n <= 0) return;
    if (n <= (cap_ && in_while_ > 0 ? kLocalElements : kUnrolled)) {
      for (std::int64_t i = 0; i < n; ++i) body(u(i));
      return;
    }
    const std::string e = fresh("e");
    line("for (uint " + e + " = 0u; " + e + " < " + u(n) + (cap_ ? " && !nxv_stop" : "") + "; ++" + e + ") {");
    ++indent_;
    repeated(static_cast<double>(n), [&] {
      count_trip();
      body(e);
    });
    --indent_;
    line("}");
  }
  void count_trip() {
    if (!cap_) return;
    if (divergent_)
      divergent_trips_ += repeat_;
    else
      line("nxv_stop = ++nxv_trips > " + u(kTripBudget) + ";");
  }

  // ---- values ----
  std::string read(const Value& v, const std::string& e) const {
    switch (v.kind) {
      case Value::Kind::reg:
      case Value::Kind::literal:
        return v.name;
      case Value::Kind::local:
        return v.name + "[" + local_index(v, e) + "]";
      case Value::Kind::scratch:
        return scratch_at(v, e);
      case Value::Kind::batched:
        return load_expr(v.dtype, v.name + "[c * " + u(v.row) + " + " + u(v.offset) + " + " + e + "]");
      case Value::Kind::shared:
        return load_expr(v.dtype, v.name + "[" + u(v.offset) + " + " + e + "]");
      case Value::Kind::lazy:
        return v.expression(e);
    }
    return "";
  }
  // An index of a local array: a literal in range as it is, anything else clamped, since GLSL rejects a constant
  // index out of range even in the untaken branch of a select (a concatenation's or padding's other operands).
  static std::string local_index(const Value& v, const std::string& e) {
    if (!e.empty() && e.back() == 'u' && e.find_first_not_of("0123456789") == e.size() - 1 &&
        std::stoll(e.substr(0, e.size() - 1)) < v.elements)
      return e;
    return "min(" + e + ", " + u(v.elements - 1) + ")";
  }
  std::string write(const Value& v, const std::string& e) const {
    if (v.kind == Value::Kind::reg) return v.name;
    if (v.kind == Value::Kind::local) return v.name + "[" + e + "]";
    return scratch_at(v, e);
  }
  // Element e of a value in scratch memory: instance-minor for one invocation per instance, instance-major in a
  // buffer for the group mapping (the group's invocations touch neighbouring words), or in shared memory.
  std::string scratch_at(const Value& v, const std::string& e) const {
    const std::string i = "(" + u(v.offset) + " + " + e + ")";
    if (!group_) return v.name + "[" + i + " * pc.count + li]";
    if (v.workgroup) return v.name + "[" + i + "]";
    return v.name + "[li * NXV_STRIDE_" + v.name + " + " + i + "]";
  }

  // A new value of `type`, declared at the current point.
  Value allocate(const TensorType& type) {
    check_dtype(type.dtype);
    Value v;
    v.dtype = type.dtype;
    v.elements = num_elements(type.shape);
    const std::string ct = compute_type(type.dtype);
    if (v.elements <= 1) {
      v.kind = Value::Kind::reg;
      v.name = fresh("v");
      line(ct + " " + v.name + ";");
    } else if (v.elements <= kLocalElements) {
      v.kind = Value::Kind::local;
      v.name = fresh("v");
      line(ct + " " + v.name + "[" + std::to_string(v.elements) + "];");
    } else if (group_ && group_bytes_ + word_bytes(type.dtype) * v.elements <= group_budget_) {
      v.kind = Value::Kind::scratch;
      v.workgroup = true;
      v.name = group_array(ct, v.elements, v.offset);
      group_bytes_ += word_bytes(type.dtype) * static_cast<std::size_t>(v.elements);
    } else {
      v.kind = Value::Kind::scratch;
      std::size_t b = 0;
      while (b < k_.scratch.size() && k_.scratch[b].type != ct) ++b;
      if (b == k_.scratch.size()) k_.scratch.push_back({ct, 0, size_of(type.dtype) < 4 ? 4 : size_of(type.dtype)});
      v.name = "t" + std::to_string(b);
      v.offset = k_.scratch[b].elements;
      k_.scratch[b].elements += v.elements;
    }
    return v;
  }
  static std::size_t word_bytes(DType t) { return size_of(t) < 4 ? 4 : size_of(t); }
  // `elements` more of the group's shared array of compute type ct: its name, and the first element in `offset`.
  std::string group_array(const std::string& ct, std::int64_t elements, std::int64_t& offset) {
    auto& [next, name] = group_values_[ct];
    if (name.empty()) name = "w" + std::to_string(group_values_.size() - 1);
    offset = next;
    next += elements;
    group_arrays_[name] = "shared " + ct + " " + name + "[" + std::to_string(next) + "];";
    return name;
  }
  // A shared array of `elements` of type ct, declared once by `name` (the lanes of cooperative reductions).
  std::string group_scratch(const std::string& name, const std::string& ct, std::int64_t elements) {
    if (!group_arrays_.count(name)) {
      group_arrays_[name] = "shared " + ct + " " + name + "[" + std::to_string(elements) + "];";
      group_bytes_ +=
          static_cast<std::size_t>(elements) * (ct.find("64") != std::string::npos || ct == "double" ? 8 : 4);
    }
    return name;
  }
  void copy(const Value& to, const Value& from) {
    for_each_output(to, [&](const std::string& e) { line(write(to, e) + " = " + read(from, e) + ";"); });
  }

  static void check_dtype(DType t) {
    if (is_half_float(t) || is_complex(t)) throw Unsupported{"a value of dtype " + std::string(name(t))};
  }

  void bind_parameter(std::size_t i) {
    const Node& n = root_.nodes[root_.parameters[i]];
    check_dtype(n.type.dtype);
    const bool per_instance = batched_[i];
    std::vector<InstanceKernel::Block>& blocks = per_instance ? k_.batched : k_.shared;
    const std::size_t b = block_for(blocks, n.type.dtype);
    InstanceKernel::Block& block = blocks[b];
    const std::int64_t elements = num_elements(n.type.shape);
    Value v;
    v.kind = per_instance ? Value::Kind::batched : Value::Kind::shared;
    v.dtype = n.type.dtype;
    v.elements = elements;
    v.name = (per_instance ? "x" : "s") + std::to_string(b);
    v.block = b;
    v.offset = block.row;
    block.members.push_back({static_cast<int>(i), block.row, elements});
    block.row += elements;
    values_[&n] = v;
  }
  static std::size_t block_for(std::vector<InstanceKernel::Block>& blocks, DType t) {
    std::size_t b = 0;
    while (b < blocks.size() && blocks[b].dtype != t) ++b;
    if (b == blocks.size()) blocks.push_back({t, 0, {}});
    return b;
  }
  // A batched value's row (its block's, known once every parameter is bound).
  void fix_rows() {
    for (auto& [node, v] : values_)
      if (v.kind == Value::Kind::batched) v.row = k_.batched[v.block].row;
  }

  void emit_output(std::size_t o) {
    const Node& n = root_.nodes[root_.outputs[o]];
    const Value& v = values_.at(&n);
    const std::size_t b = block_for(k_.outputs, n.type.dtype);
    InstanceKernel::Block& block = k_.outputs[b];
    const std::int64_t elements = num_elements(n.type.shape);
    block.members.push_back({static_cast<int>(o), block.row, elements});
    const std::int64_t offset = block.row;
    block.row += elements;
    // Rows are final only after the last output: the store names its block's row as a macro (run() defines them).
    const std::string y = "y" + std::to_string(b);
    const auto store = [&](const std::string& e) {
      line(y + "[c * NXV_ROW_" + y + " + " + u(offset) + " + " + e + "] = " + store_expr(n.type.dtype, read(v, e)) +
           ";");
    };
    if (!group_) return for_each(elements, store);
    if (elements <= kLocalElements) return divergent("if (lid == 0u) {", 1, [&] { for_each(elements, store); });
    const std::string e = fresh("e");  // the group's invocations store a large output together
    divergent("for (uint " + e + " = lid; " + e + " < " + u(elements) + "; " + e + " += " + u(kGroupLanes) + ") {",
              std::ceil(static_cast<double>(elements) / kGroupLanes), [&] {
                count_trip();
                store(e);
              });
  }

  // ---- graphs ----
  void emit_graph(const Graph& g) {
    const std::vector<bool> live = live_nodes(g);
    std::vector<int> uses(g.nodes.size(), 0);
    std::vector<NodeId> consumer(g.nodes.size(), -1);
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
      for (const NodeId in : g.nodes[i].inputs) {
        ++uses[static_cast<std::size_t>(in)];
        consumer[static_cast<std::size_t>(in)] = static_cast<NodeId>(i);
      }
    for (const NodeId o : g.outputs) uses[static_cast<std::size_t>(o)] += 2;  // an output is stored: never lazy
    const std::vector<int>* outer_uses = uses_;
    const std::vector<NodeId>* outer_consumers = consumers_;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      const Node& n = g.nodes[i];
      if (!live[i] || n.kind == NodeKind::parameter || values_.count(&n)) continue;
      uses_ = &uses;  // a body emitted by a control node below sets its own
      consumers_ = &consumer;
      emit_node(g, n);
    }
    uses_ = outer_uses;
    consumers_ = outer_consumers;
  }

  const Value& input(const Graph& g, const Node& n, std::size_t i) const { return values_.at(&g.nodes[n.inputs[i]]); }

  void emit_node(const Graph& g, const Node& n) {
    switch (n.kind) {
      case NodeKind::parameter:
        return;
      case NodeKind::constant:
        values_[&n] = constant(n);
        return;
      case NodeKind::stop_gradient:
        values_[&n] = input(g, n, 0);
        return;
      case NodeKind::custom_vjp:
        values_[&n] = input(g, n, n.inputs.size() - 1);
        return;
      case NodeKind::control:
        emit_control(g, n);
        return;
      case NodeKind::result:
        values_[&n] = results_.at(&g.nodes[n.inputs[0]]).at(static_cast<std::size_t>(n.result));
        return;
      case NodeKind::op:
        break;
    }
    switch (n.call.code) {
      case OpCode::reshape:
        values_[&n] = input(g, n, 0);  // the same elements in the same order
        values_[&n].elements = num_elements(n.type.shape);
        return;
      case OpCode::reduce:
        emit_reduce(g, n);
        return;
      case OpCode::dot:
        emit_dot(g, n);
        return;
      case OpCode::indexed_add:
        emit_indexed_add(g, n);
        return;
      case OpCode::cumulative:
        emit_cumulative(g, n);
        return;
      default:
        break;
    }
    if (lazy(g, n) || view(g, n)) {
      Value v;
      v.kind = Value::Kind::lazy;
      v.view = !lazy(g, n);
      v.dtype = n.type.dtype;
      v.elements = num_elements(n.type.shape);
      v.expression = [this, &g, &n](const std::string& e) { return element(g, n, e); };
      values_[&n] = v;
      return;
    }
    const Value out = allocate(n.type);
    for_each_output(out, [&](const std::string& e) { line(write(out, e) + " = " + element(g, n, e) + ";"); });
    values_[&n] = out;
  }

  static bool elementwise(OpCode c) {
    return c == OpCode::unary || c == OpCode::unary_test || c == OpCode::binary || c == OpCode::binary_test ||
           c == OpCode::cast || c == OpCode::clip || c == OpCode::select;
  }
  // Whether n is computed where its one consumer reads it, instead of stored: an elementwise node of more than one
  // element whose consumer reads each of its elements once (an elementwise op of its shape, or a reduction). Its
  // inputs are immutable values, read before the consumer (in the same graph) runs.
  bool lazy(const Graph& g, const Node& n) const {
    const auto i = static_cast<std::size_t>(&n - g.nodes.data());
    if (!elementwise(n.call.code) || num_elements(n.type.shape) <= 1 || (*uses_)[i] != 1) return false;
    const Node& c = g.nodes[static_cast<std::size_t>((*consumers_)[i])];
    if (c.kind != NodeKind::op) return false;
    return (elementwise(c.call.code) && c.type.shape == n.type.shape) || c.call.code == OpCode::reduce;
  }

  // Whether n is read through its input where it is used, never stored: a movement op (an index map) of stored
  // values, such as the transposed or broadcast data of a gradient, which would otherwise be copied per instance.
  bool view(const Graph& g, const Node& n) const {
    const OpCode c = n.call.code;
    if (c != OpCode::transpose && c != OpCode::broadcast && c != OpCode::slice && c != OpCode::reverse) return false;
    for (std::size_t i = 0; i < n.inputs.size(); ++i)
      if (input(g, n, i).kind == Value::Kind::lazy && !input(g, n, i).view) return false;  // work read again
    return true;
  }

  // ---- index arithmetic ----
  static std::vector<std::string> coords(const Shape& shape, const std::string& e) {
    const Shape strides = contiguous_strides(shape);
    std::vector<std::string> c(static_cast<std::size_t>(shape.size()));
    for (int d = 0; d < shape.size(); ++d) {
      if (shape[d] == 1) {
        c[d] = "0u";
        continue;
      }
      std::string q = strides[d] == 1 ? e : "(" + e + " / " + u(strides[d]) + ")";
      c[d] = d == 0 ? q : "(" + q + " % " + u(shape[d]) + ")";
    }
    return c;
  }
  static std::string flat(const Shape& shape, const std::vector<std::string>& c) {
    const Shape strides = contiguous_strides(shape);
    std::string s;
    for (int d = 0; d < shape.size(); ++d) {
      if (shape[d] == 1) continue;
      s += (s.empty() ? "" : " + ") + (strides[d] == 1 ? c[d] : c[d] + " * " + u(strides[d]));
    }
    return s.empty() ? "0u" : "(" + s + ")";
  }
  // The index in `in` (NumPy-broadcast to `out`) of output element e.
  static std::string broadcast_index(const Shape& out, const Shape& in, const std::string& e) {
    if (in == out) return e;
    if (num_elements(in) == 1) return "0u";
    const std::vector<std::string> oc = coords(out, e);
    std::vector<std::string> ic(static_cast<std::size_t>(in.size()));
    const int lead = out.size() - in.size();
    for (int d = 0; d < in.size(); ++d) ic[d] = in[d] == 1 ? "0u" : oc[d + lead];
    return flat(in, ic);
  }

  std::string arg(const Graph& g, const Node& n, std::size_t i, const std::string& e) const {
    const Node& a = g.nodes[n.inputs[i]];
    return read(values_.at(&a), broadcast_index(n.type.shape, a.type.shape, e));
  }

  // ---- elementwise and movement ops: element e of n as an expression ----
  std::string element(const Graph& g, const Node& n, const std::string& e) {
    const Shape& shape = n.type.shape;
    const DType t = n.type.dtype;
    const auto in_shape = [&](std::size_t i) -> const Shape& { return g.nodes[n.inputs[i]].type.shape; };
    const auto at = [&](std::size_t i, const std::string& index) { return read(input(g, n, i), index); };
    switch (n.call.code) {
      case OpCode::unary:
      case OpCode::unary_test:
      case OpCode::cast:
      case OpCode::binary:
      case OpCode::binary_test:
      case OpCode::clip: {
        std::string call = elementwise_helper(n, g.nodes[n.inputs[0]].type.dtype, helpers_) + "(";
        for (std::size_t i = 0; i < n.inputs.size(); ++i) call += (i ? ", " : "") + arg(g, n, i, e);
        return truncated(t, call + ")");
      }
      case OpCode::select:
        return "(" + arg(g, n, 0, e) + " != 0u ? " + arg(g, n, 1, e) + " : " + arg(g, n, 2, e) + ")";
      case OpCode::broadcast: {
        const Axes& axes = n.call.attrs_as<BroadcastAttrs>().axes;
        const std::vector<std::string> oc = coords(shape, e);
        const Shape& in = in_shape(0);
        std::vector<std::string> ic(static_cast<std::size_t>(in.size()));
        for (int d = 0; d < in.size(); ++d) ic[d] = in[d] == 1 ? "0u" : oc[axes[d]];
        return at(0, flat(in, ic));
      }
      case OpCode::transpose: {
        const Axes& perm = n.call.attrs_as<TransposeAttrs>().permutation;
        const std::vector<std::string> oc = coords(shape, e);
        const Shape& in = in_shape(0);
        std::vector<std::string> ic(static_cast<std::size_t>(in.size()));
        for (int d = 0; d < shape.size(); ++d) ic[perm[d]] = oc[d];
        return at(0, flat(in, ic));
      }
      case OpCode::slice: {
        const SliceAttrs& a = n.call.attrs_as<SliceAttrs>();
        std::vector<std::string> c = coords(shape, e);
        for (int d = 0; d < shape.size(); ++d) {
          const std::int64_t step = a.strides.empty() ? 1 : a.strides[d];
          if (step != 1) c[d] = "(" + c[d] + " * " + u(step) + ")";
          if (a.starts[d] != 0) c[d] = "(" + c[d] + " + " + u(a.starts[d]) + ")";
        }
        return at(0, flat(in_shape(0), c));
      }
      case OpCode::reverse: {
        std::vector<std::string> c = coords(shape, e);
        for (const std::int64_t d : n.call.attrs_as<ReverseAttrs>().axes)
          c[d] = "(" + u(shape[static_cast<int>(d)] - 1) + " - " + c[d] + ")";
        return at(0, flat(in_shape(0), c));
      }
      case OpCode::pad: {
        // Output coordinate o comes from input coordinate (o - low) / (interior + 1) where that divides and lies in
        // range; the rest is the padding value. Signed arithmetic: low may cut elements off.
        const PadAttrs& a = n.call.attrs_as<PadAttrs>();
        const Shape& in = in_shape(0);
        const std::vector<std::string> oc = coords(shape, e);
        std::vector<std::string> ic(static_cast<std::size_t>(in.size()));
        std::string inside;
        for (int d = 0; d < in.size(); ++d) {
          const std::string shifted = "(int(" + oc[d] + ") - " + std::to_string(a.low[d]) + ")";
          const std::int64_t step = (a.interior.empty() ? 0 : a.interior[d]) + 1;
          std::string cond = shifted + " >= 0 && " + shifted + " < " + std::to_string((in[d] - 1) * step + 1);
          if (step != 1) cond += " && " + shifted + " % " + std::to_string(step) + " == 0";
          inside += (inside.empty() ? "" : " && ") + cond;
          ic[d] = step == 1 ? "uint" + shifted : "uint(" + shifted + " / " + std::to_string(step) + ")";
        }
        if (inside.empty()) inside = "true";
        return "(" + inside + " ? " + at(0, flat(in, ic)) + " : " + literal_of_double(t, a.value) + ")";
      }
      case OpCode::concatenate: {
        const int axis = static_cast<int>(n.call.attrs_as<AxisAttrs>().axis);
        const std::vector<std::string> oc = coords(shape, e);
        std::string expr;
        std::int64_t start = 0;
        for (std::size_t i = 0; i < n.inputs.size(); ++i) {
          const Shape& in = in_shape(i);
          std::vector<std::string> ic = oc;
          ic[axis] = start == 0 ? oc[axis] : "(" + oc[axis] + " - " + u(start) + ")";
          const std::string value = at(i, flat(in, ic));
          start += in[axis];
          expr = i == 0 ? value : "(" + oc[axis] + " < " + u(start - in[axis]) + " ? " + expr + " : " + value + ")";
        }
        return expr;
      }
      case OpCode::iota: {
        const int axis = static_cast<int>(n.call.attrs_as<AxisAttrs>().axis);
        const std::string coord = coords(shape, e)[axis];
        if (t == DType::pred) return "nxv_nonzero(" + coord + ")";
        return truncated(t, std::string(compute_type(t)) + "(" + coord + ")");
      }
      case OpCode::full:
        return literal_of_double(t, n.call.attrs_as<FullAttrs>().value);
      case OpCode::take: {
        // x.shape[:axis] + indices.shape + x.shape[axis + 1:]; an index is clamped into range (the reference's).
        const int axis = static_cast<int>(n.call.attrs_as<AxisAttrs>().axis);
        const Shape& xs = in_shape(0);
        const Shape& is = in_shape(1);
        const std::vector<std::string> oc = coords(shape, e);
        const std::vector<std::string> index_coords(oc.begin() + axis, oc.begin() + axis + is.size());
        const std::string index = at(1, flat(is, index_coords));
        std::vector<std::string> ic(static_cast<std::size_t>(xs.size()));
        for (int d = 0; d < xs.size(); ++d)
          ic[d] = d < axis   ? oc[d]
                  : d > axis ? oc[d + is.size() - 1]
                             : "uint(clamp(int64_t(" + index + "), 0l, " + std::to_string(xs[axis] - 1) + "l))";
        return at(0, flat(xs, ic));
      }
      case OpCode::eye: {
        const std::vector<std::string> c = coords(shape, e);
        const int r = shape.size();
        return "(" + c[r - 2] + " == " + c[r - 1] + " ? " + literal_of_double(t, 1) + " : " + literal_of_double(t, 0) +
               ")";
      }
      default:
        throw Unsupported{"op " + format_call(n.call)};
    }
  }

  // ---- literals ----
  // `v` converted to t as cast does (the value of a pad, full or eye). A float is read from the constants buffer
  // unless the options ask for literals (InstanceOptions::float_literals says why).
  std::string literal_of_double(DType t, double v) {
    if (t == DType::pred) return v != 0 ? "1u" : "0u";
    if (t == DType::f64) return float_constant(t, &v);
    if (t == DType::f32) {
      const float f = static_cast<float>(v);
      return float_constant(t, &f);
    }
    if (v != static_cast<double>(static_cast<std::int64_t>(v))) throw Unsupported{"a fractional integer constant"};
    const std::int64_t i = static_cast<std::int64_t>(v);
    if (info(t).kind == DTypeKind::unsigned_int && i < 0) throw Unsupported{"a negative unsigned constant"};
    return std::string(compute_type(t)) + "(" + std::to_string(i) + (size_of(t) == 8 ? "l" : "") + ")";
  }
  // The element at `p` (t's C++ representation) as an exact GLSL constant of t's compute type.
  static std::string literal_bits(DType t, const void* p) {
    std::ostringstream s;
    s << std::hex;
    switch (t) {
      case DType::f32:
        s << "uintBitsToFloat(0x" << word<std::uint32_t>(p) << "u)";
        break;
      case DType::f64: {
        const auto w = word<std::uint64_t>(p);
        s << "packDouble2x32(uvec2(0x" << (w & 0xffffffffu) << "u, 0x" << (w >> 32) << "u))";
        break;
      }
      case DType::s64:
      case DType::u64:
        s << compute_type(t) << "(0x" << word<std::uint64_t>(p) << "ul)";
        break;
      case DType::s32:
      case DType::u32:
        s << compute_type(t) << "(0x" << word<std::uint32_t>(p) << "u)";
        break;
      case DType::pred:
      case DType::u8: {
        const auto w = word<std::uint8_t>(p);
        s << "uint(0x" << static_cast<unsigned>(t == DType::pred ? (w != 0) : w) << "u)";
        break;
      }
      case DType::u16:
        s << "uint(0x" << word<std::uint16_t>(p) << "u)";
        break;
      case DType::s8:
        s << std::dec << "int(" << static_cast<int>(word<std::int8_t>(p)) << ")";
        break;
      case DType::s16:
        s << std::dec << "int(" << word<std::int16_t>(p) << ")";
        break;
      default:
        throw Unsupported{"a constant of dtype " + std::string(name(t))};
    }
    return s.str();
  }
  // The T at p (an element of a constant's bytes, which need not be aligned for T).
  template <class T>
  static T word(const void* p) {
    T w;
    std::memcpy(&w, p, sizeof w);
    return w;
  }

  // A float constant's element, appended to its dtype's constants block.
  std::string float_constant(DType t, const void* p) {
    if (float_literals_) return literal_bits(t, p);
    std::size_t b = 0;
    while (b < k_.constants.size() && k_.constants[b].dtype != t) ++b;
    if (b == k_.constants.size()) k_.constants.push_back({t, {}});
    std::vector<std::byte>& bytes = k_.constants[b].bytes;
    const std::size_t at = bytes.size() / size_of(t);
    const auto* first = static_cast<const std::byte*>(p);
    bytes.insert(bytes.end(), first, first + size_of(t));
    return load_expr(t, "k" + std::to_string(b) + "[" + u(static_cast<std::int64_t>(at)) + "]");
  }

  Value constant(const Node& n) {
    check_dtype(n.type.dtype);
    const Tensor host = n.constant.to_host();
    std::vector<std::byte> bytes(static_cast<std::size_t>(host.size()) * size_of(n.type.dtype));
    host.copy_to(bytes);
    Value v;
    v.dtype = n.type.dtype;
    v.elements = host.size();
    if (v.elements == 1 && (!is_float(v.dtype) || float_literals_)) {  // InstanceOptions::float_literals
      v.kind = Value::Kind::literal;
      v.name = literal_bits(n.type.dtype, bytes.data());
      return v;
    }
    std::size_t b = 0;
    while (b < k_.constants.size() && k_.constants[b].dtype != v.dtype) ++b;
    if (b == k_.constants.size()) k_.constants.push_back({v.dtype, {}});
    v.kind = Value::Kind::shared;
    v.name = "k" + std::to_string(b);
    v.offset = static_cast<std::int64_t>(k_.constants[b].bytes.size() / size_of(v.dtype));
    k_.constants[b].bytes.insert(k_.constants[b].bytes.end(), bytes.begin(), bytes.end());
    return v;
  }

  // ---- reductions: the reference backend's order (src/reference/reduce.cpp's reduce_in_order) ----
  // 256 lanes, lane l folding values l, l + 256, ... from the identity, then a tree s = 128, 64, ..., 1 (lane i
  // combined with lane i + s); longer than kChunk values: chunks of kChunk reduced so, then their partials by the
  // same rule. The same operations on the same operands, so a per-instance sum has the vectorized sum's bits.
  static constexpr std::int64_t kLanes = 256, kChunk = kLanes * 64, kStaticLanes = 32;

  std::string combine(ReduceFn fn, const std::string& type, const std::string& a, const std::string& b) {
    switch (fn) {
      case ReduceFn::sum:
        return "nxv_reduce_add(" + a + ", " + b + ")";
      case ReduceFn::product:
        return "nxv_ieee_multiply(" + a + ", " + b + ")";
      case ReduceFn::max:
        return "nxv_max(" + a + ", " + b + ")";
      case ReduceFn::min:
        return "nxv_min(" + a + ", " + b + ")";
      case ReduceFn::all:
        return "(" + a + " & " + b + ")";
      case ReduceFn::any:
        return "(" + a + " | " + b + ")";
    }
    (void)type;
    return "";
  }
  // A `precise` sum: the driver may not contract it with the product that feeds it.
  void define_reduce_add(const std::string& type) {
    helpers_.emplace("nxv_reduce_add_" + type, type + " nxv_reduce_add(" + type + " a, " + type + " b) { precise " +
                                                   type + " r = a + b; return r; }\n");
  }

  // The variable holding the reduction of value(j), j < n (an index expression each), in reduce_in_order's order.
  std::string ordered_reduce(std::int64_t n, const std::function<std::string(const std::string&)>& value, ReduceFn fn,
                             const std::string& type, const std::string& identity) {
    if (fn == ReduceFn::sum) define_reduce_add(type);
    const std::string r = fresh("r");
    if (n <= kStaticLanes) {
      // Unrolled: lane j holds value j; lanes past n hold the identity, and identity op identity is the identity,
      // so only lanes below n are ever computed.
      for (std::int64_t j = 0; j < n; ++j)
        line(type + " " + r + "_" + std::to_string(j) + " = " + combine(fn, type, identity, value(u(j))) + ";");
      for (std::int64_t step = kLanes / 2; step >= 1; step /= 2)
        for (std::int64_t i = 0; i < std::min(step, n); ++i) {
          const std::string lane = r + "_" + std::to_string(i);
          const std::string other = i + step < n ? r + "_" + std::to_string(i + step) : identity;
          line(lane + " = " + combine(fn, type, lane, other) + ";");
        }
      if (n == 0) line(type + " " + r + "_0 = " + identity + ";");
      line(type + " " + r + " = " + r + "_0;");
      return r;
    }
    if (n <= kChunk) {
      chunk_reduce(r, u(0), u(n), value, fn, type, identity);
      return r;
    }
    chunks_then_partials(
        r, n,
        [&](const std::string& part, const std::string& first, const std::string& length) {
          chunk_reduce(part, first, length, value, fn, type, identity);
        },
        fn, type, identity);
    return r;
  }
  // r = the reduction of n values past one chunk: chunks of kChunk, `chunk(part, first, length)` reducing each, then
  // their partials by ordered_reduce (reduce_in_order's rule for long reductions).
  void chunks_then_partials(
      const std::string& r, std::int64_t n,
      const std::function<void(const std::string&, const std::string&, const std::string&)>& chunk, ReduceFn fn,
      const std::string& type, const std::string& identity) {
    const std::int64_t chunks = (n + kChunk - 1) / kChunk;
    const std::string partial = fresh("partial");
    line(type + " " + partial + "[" + std::to_string(chunks) + "];");
    for_each(chunks, [&](const std::string& k) {
      const std::string first = "(" + k + " * " + u(kChunk) + ")";
      const std::string length = "min(" + u(kChunk) + ", " + u(n) + " - " + first + ")";
      const std::string part = fresh("r");
      chunk(part, first, length);
      line(partial + "[" + k + "] = " + part + ";");
    });
    const std::string total = ordered_reduce(
        chunks, [&](const std::string& j) { return partial + "[" + j + "]"; }, fn, type, identity);
    line(type + " " + r + " = " + total + ";");
  }
  // One chunk: values first .. first + length - 1 over 256 lanes in local memory, then the whole tree.
  void chunk_reduce(const std::string& r, const std::string& first, const std::string& length,
                    const std::function<std::string(const std::string&)>& value, ReduceFn fn, const std::string& type,
                    const std::string& identity) {
    const std::string lanes = fresh("lanes");
    line(type + " " + lanes + "[" + std::to_string(kLanes) + "];");
    const std::string l = fresh("l"), j = fresh("j"), step = fresh("s");
    const std::string more = cap_ ? " && !nxv_stop" : "";
    line("for (uint " + l + " = 0u; " + l + " < " + u(kLanes) + more + "; ++" + l + ") " + lanes + "[" + l +
         "] = " + identity + ";");
    line("for (uint " + j + " = 0u; " + j + " < " + length + more + "; ++" + j + ") {");
    ++indent_;
    repeated(static_cast<double>(kChunk), [&] {
      count_trip();
      line(lanes + "[" + j + " % " + u(kLanes) + "] = " +
           combine(fn, type, lanes + "[" + j + " % " + u(kLanes) + "]", value("(" + first + " + " + j + ")")) + ";");
    });
    --indent_;
    line("}");
    line("for (uint " + step + " = " + u(kLanes / 2) + "; " + step + " > 0u" + more + "; " + step + " >>= 1) {");
    ++indent_;
    line("for (uint " + l + " = 0u; " + l + " < " + step + "; ++" + l + ") " + lanes + "[" + l +
         "] = " + combine(fn, type, lanes + "[" + l + "]", lanes + "[" + l + " + " + step + "]") + ";");
    --indent_;
    line("}");
    line(type + " " + r + " = " + lanes + "[0];");
  }

  // The group mapping: the reduction of value(j), j < n, by the whole group in reduce_in_order's order (lane l is
  // invocation l; the tree meets in shared memory), in every invocation's variable r.
  std::string group_reduce(std::int64_t n, const std::function<std::string(const std::string&)>& value, ReduceFn fn,
                           const std::string& type, const std::string& identity) {
    if (fn == ReduceFn::sum) define_reduce_add(type);
    const std::string r = fresh("r");
    if (n <= kChunk) {
      group_chunk(r, u(0), u(n), n, value, fn, type, identity);
      return r;
    }
    chunks_then_partials(
        r, n,
        [&](const std::string& part, const std::string& first, const std::string& length) {
          group_chunk(part, first, length, kChunk, value, fn, type, identity);
        },
        fn, type, identity);
    return r;
  }
  void group_chunk(const std::string& r, const std::string& first, const std::string& length, std::int64_t most,
                   const std::function<std::string(const std::string&)>& value, ReduceFn fn, const std::string& type,
                   const std::string& identity) {
    static_assert(kLanes == kGroupLanes, "lane l of the reference's order is invocation l");
    const std::string lane = fresh("lane"), j = fresh("j");
    line(type + " " + lane + " = " + identity + ";");
    divergent("for (uint " + j + " = lid; " + j + " < " + length + "; " + j + " += " + u(kLanes) + ") {",
              std::ceil(static_cast<double>(most) / kLanes), [&] {
                count_trip();
                line(lane + " = " + combine(fn, type, lane, value("(" + first + " + " + j + ")")) + ";");
              });
    const std::string lanes = group_scratch("nxv_lanes_" + type, type, kLanes);
    sync();  // the last reduction has read the lanes
    line(lanes + "[lid] = " + lane + ";");
    sync();
    for (std::int64_t step = kLanes / 2; step >= 1; step /= 2) {
      line("if (lid < " + u(step) + ") " + lanes +
           "[lid] = " + combine(fn, type, lanes + "[lid]", lanes + "[lid + " + u(step) + "]") + ";");
      sync();
    }
    line(type + " " + r + " = " + lanes + "[0];");
  }

  void emit_reduce(const Graph& g, const Node& n) {
    const ReduceAttrs& a = n.call.attrs_as<ReduceAttrs>();
    const Node& x = g.nodes[n.inputs[0]];
    const Value& in = values_.at(&x);
    const DType it = x.type.dtype;
    const bool logical = a.fn == ReduceFn::all || a.fn == ReduceFn::any;
    const std::string acc_type = logical ? "uint" : compute_type(it);
    Shape kept, reduced;
    std::vector<bool> is_reduced(static_cast<std::size_t>(x.type.shape.size()), false);
    for (const std::int64_t d : a.axes) is_reduced[static_cast<std::size_t>(d)] = true;
    for (int d = 0; d < x.type.shape.size(); ++d) (is_reduced[d] ? reduced : kept).push_back(x.type.shape[d]);
    const Value out = allocate(n.type);
    const std::string identity = reduce_identity(a.fn, it, acc_type);
    // The group mapping reduces a long row to a small output cooperatively, else each row in its owner.
    const bool cooperative = group_ && !spread(out) && num_elements(reduced) > kStaticLanes;
    const auto per_output = [&](const std::string& o) {
      const std::vector<std::string> kc = coords(kept, o);
      const auto value = [&](const std::string& r) {
        const std::vector<std::string> rc = coords(reduced, r);
        std::vector<std::string> c;
        std::size_t ki = 0, ri = 0;
        for (int d = 0; d < x.type.shape.size(); ++d) c.push_back(is_reduced[d] ? rc[ri++] : kc[ki++]);
        const std::string v = read(in, flat(x.type.shape, c));
        return logical ? "nxv_nonzero(" + v + ")" : v;
      };
      const std::string r = cooperative ? group_reduce(num_elements(reduced), value, a.fn, acc_type, identity)
                                        : ordered_reduce(num_elements(reduced), value, a.fn, acc_type, identity);
      line(write(out, o) + " = " + truncated(n.type.dtype, r) + ";");
    };
    if (cooperative)
      for_each(out.elements, per_output);  // every invocation takes part in each output's reduction
    else
      for_each_output(out, per_output);
    values_[&n] = out;
  }

  // Output [batch..., a's free axes..., b's free axes...]; each element a sum over the contracted axes in order
  // (acc = 0; acc = acc + a_k b_k, src/reference/dot.cpp).
  void emit_dot(const Graph& g, const Node& n) {
    const DotAttrs& a = n.call.attrs_as<DotAttrs>();
    const Node& na = g.nodes[n.inputs[0]];
    const Node& nb = g.nodes[n.inputs[1]];
    const Value& va = values_.at(&na);
    const Value& vb = values_.at(&nb);
    const Shape& sa = na.type.shape;
    const Shape& sb = nb.type.shape;
    const auto free_axes = [](const Shape& s, const Axes& contract, const Axes& batch) {
      std::vector<int> f;
      for (int d = 0; d < s.size(); ++d) {
        bool used = false;
        for (const std::int64_t c : contract) used = used || c == d;
        for (const std::int64_t c : batch) used = used || c == d;
        if (!used) f.push_back(d);
      }
      return f;
    };
    const std::vector<int> fa = free_axes(sa, a.contract_a, a.batch_a), fb = free_axes(sb, a.contract_b, a.batch_b);
    Shape contracted;
    for (const std::int64_t d : a.contract_a) contracted.push_back(sa[static_cast<int>(d)]);
    const Value out = allocate(n.type);
    const std::string acc_type = compute_type(n.type.dtype);
    const std::string zero = literal_of_double(n.type.dtype, 0);
    // exact: a rounded product, then a rounded sum, in k order (the reference's dot, bit for bit); fast: a fused
    // multiply-add in k order, which the vectorized fast kernels also use (they may split a long k into chunks).
    const bool fused = a.precision == Precision::fast && is_float(n.type.dtype);
    // Element o's sum into the expression `store` returns as its destination.
    const auto element_sum = [&](const std::string& o, const std::function<std::string(const std::string&)>& store) {
      const std::vector<std::string> oc = coords(n.type.shape, o);
      std::vector<std::string> ca(static_cast<std::size_t>(sa.size())), cb(static_cast<std::size_t>(sb.size()));
      std::size_t at = 0;
      for (int i = 0; i < a.batch_a.size(); ++i, ++at) {
        ca[static_cast<std::size_t>(a.batch_a[i])] = oc[at];
        cb[static_cast<std::size_t>(a.batch_b[i])] = oc[at];
      }
      for (const int d : fa) ca[static_cast<std::size_t>(d)] = oc[at++];
      for (const int d : fb) cb[static_cast<std::size_t>(d)] = oc[at++];
      const std::string acc = fresh("acc");
      line(acc_type + " " + acc + " = " + zero + ";");
      for_each(num_elements(contracted), [&](const std::string& r) {
        const std::vector<std::string> rc = coords(contracted, r);
        for (int i = 0; i < a.contract_a.size(); ++i) {
          ca[static_cast<std::size_t>(a.contract_a[i])] = rc[i];
          cb[static_cast<std::size_t>(a.contract_b[i])] = rc[i];
        }
        const std::string x = read(va, flat(sa, ca)), y = read(vb, flat(sb, cb));
        if (fused)
          line(acc + " = fma(" + x + ", " + y + ", " + acc + ");");
        else
          line("{ precise " + acc_type + " p = " + x + " * " + y + "; precise " + acc_type + " s = " + acc + " + p; " +
               acc + " = s; }");
      });
      line(store(o) + " = " + truncated(n.type.dtype, acc) + ";");
    };
    const auto to_out = [&](const std::string& o) { return write(out, o); };
    if (!group_ || spread(out) || num_elements(contracted) <= kStaticLanes) {
      for_each_output(out, [&](const std::string& o) { element_sum(o, to_out); });
    } else {
      // A small output of long sums (a gradient over the observations): invocation o sums element o in k order,
      // as the reference does, and the group reads the sums from shared memory.
      const std::string sums = group_scratch("nxv_sums_" + acc_type, acc_type, kLocalElements);
      sync();  // the last such dot has read the sums
      divergent("if (lid < " + u(out.elements) + ") {", 1,
                [&] { element_sum("lid", [&](const std::string&) { return sums + "[lid]"; }); });
      sync();
      for_each(out.elements, [&](const std::string& o) { line(write(out, o) + " = " + sums + "[" + o + "];"); });
    }
    values_[&n] = out;
  }

  // out[0] = x[0], out[j] = out[j - 1] op x[j] along the axis (from the end when reversed), in the compute type, each
  // store truncated: the reference's scan (src/reference/sort.cpp).
  void emit_cumulative(const Graph& g, const Node& n) {
    const CumulativeAttrs& a = n.call.attrs_as<CumulativeAttrs>();
    const Shape& shape = n.type.shape;
    const int axis = static_cast<int>(a.axis);
    std::int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d) outer *= shape[d];
    for (int d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
    const std::int64_t length = shape[axis];
    const Value& in = input(g, n, 0);
    const Value out = allocate(n.type);
    const std::string type = compute_type(n.type.dtype);
    if (a.fn == ReduceFn::sum) define_reduce_add(type);
    const auto scan = [&] {
      for_each(outer * inner, [&](const std::string& line_index) {
        const std::string base = "((" + line_index + " / " + u(inner) + ") * " + u(length * inner) + " + " +
                                 line_index + " % " + u(inner) + ")";
        const std::string acc = fresh("acc");
        line(type + " " + acc + ";");
        for_each(length, [&](const std::string& step) {
          const std::string j = a.reverse ? "(" + u(length - 1) + " - " + step + ")" : step;
          const std::string at = "(" + base + " + " + j + " * " + u(inner) + ")";
          const std::string v = read(in, at);
          line(acc + " = " + step + " == 0u ? " + v + " : " + combine(a.fn, type, acc, v) + ";");
          line(write(out, at) + " = " + truncated(n.type.dtype, acc) + ";");
        });
      });
    };
    if (spread(out))
      first_invocation(scan);  // sequential: one invocation of the group
    else
      scan();
    values_[&n] = out;
  }

  // (x, indices [n, k], updates [n, window...]): x, then update b added to the row its k coordinates name, in
  // increasing b (a row out of range is skipped), as the reference does.
  void emit_indexed_add(const Graph& g, const Node& n) {
    const Node& x = g.nodes[n.inputs[0]];
    const Shape& is = g.nodes[n.inputs[1]].type.shape;
    const Value& indices = input(g, n, 1);
    const Value& updates = input(g, n, 2);
    const Value out = allocate(n.type);
    copy(out, values_.at(&x));
    const std::int64_t count = is[0], k = is[1];
    std::int64_t window = 1;
    for (int d = static_cast<int>(k); d < x.type.shape.size(); ++d) window *= x.type.shape[d];
    const std::string type = compute_type(n.type.dtype);
    const auto updates_in_order = [&] {
      for_each(count, [&](const std::string& b) {
        const std::string row = fresh("row");
        const std::string ok = fresh("ok");
        line("int64_t " + row + " = 0l;");
        line("bool " + ok + " = true;");
        for (std::int64_t d = 0; d < k; ++d) {
          const std::string c = "int64_t(" + read(indices, "(" + b + " * " + u(k) + " + " + u(d) + ")") + ")";
          const std::int64_t dim = x.type.shape[static_cast<int>(d)];
          line(ok + " = " + ok + " && " + c + " >= 0l && " + c + " < " + std::to_string(dim) + "l;");
          line(row + " = " + row + " * " + std::to_string(dim) + "l + " + c + ";");
        }
        line("if (" + ok + ") {");
        ++indent_;
        for_each(window, [&](const std::string& w) {
          const std::string target = "(uint(" + row + ") * " + u(window) + " + " + w + ")";
          line("{ precise " + type + " a = " + read(out, target) + " + " +
               read(updates, "(" + b + " * " + u(window) + " + " + w + ")") + "; " + write(out, target) + " = " +
               truncated(n.type.dtype, "a") + "; }");
        });
        --indent_;
        line("}");
      });
    };
    if (spread(out))
      first_invocation(updates_in_order);  // in increasing b: one invocation of the group
    else
      updates_in_order();
    values_[&n] = out;
  }

  // ---- control flow ----
  // Binds body b's parameters [leading..., captured inputs of the node...] and emits its nodes.
  void emit_body(const Graph& g, const Node& n, std::size_t b, const std::vector<Value>& leading) {
    const ControlFlow& cf = *n.control;
    const Graph& body = *cf.bodies[b];
    for (const Node& node : body.nodes) {  // a body object met before (a shared subgraph) is emitted afresh
      values_.erase(&node);
      results_.erase(&node);
    }
    for (std::size_t i = 0; i < leading.size(); ++i) values_[&body.nodes[body.parameters[i]]] = leading[i];
    const int first = cf.captured_begin(b);
    for (int i = 0; i < cf.captured[b]; ++i)
      values_[&body.nodes[body.parameters[leading.size() + static_cast<std::size_t>(i)]]] =
          input(g, n, static_cast<std::size_t>(first + i));
    emit_graph(body);
  }
  std::vector<Value> outputs_of(const Graph& body) const {
    std::vector<Value> out;
    for (const NodeId o : body.outputs) out.push_back(values_.at(&body.nodes[o]));
    return out;
  }
  // carries = next, through temporaries where a next value is stored where a carry is.
  void assign(const std::vector<Value>& carries, std::vector<Value> next) {
    for (Value& v : next) {
      bool aliased = v.kind == Value::Kind::lazy;  // it may read a carry
      for (const Value& c : carries) aliased = aliased || v.same_storage(c);
      if (!aliased) continue;
      TensorType type{Shape{v.elements}, v.dtype};
      const Value temp = allocate(type);
      copy(temp, v);
      v = temp;
    }
    for (std::size_t j = 0; j < carries.size(); ++j)
      if (!carries[j].same_storage(next[j])) copy(carries[j], next[j]);
  }
  std::vector<Value> declare_carries(const ControlFlow& cf, std::size_t count) {
    std::vector<Value> carries;
    for (std::size_t j = 0; j < count; ++j) carries.push_back(allocate(cf.results[j]));
    return carries;
  }

  void emit_control(const Graph& g, const Node& n) {
    const ControlFlow& cf = *n.control;
    std::vector<Value> results;
    switch (cf.kind) {
      case ControlFlow::Kind::fori_loop: {
        results = declare_carries(cf, static_cast<std::size_t>(cf.operands));
        for (std::size_t j = 0; j < results.size(); ++j) copy(results[j], input(g, n, j));
        const std::string i = fresh("i");
        line("for (int64_t " + i + " = " + std::to_string(cf.lo) + "l; " + i + " < " + std::to_string(cf.hi) + "l" +
             (cap_ ? " && !nxv_stop" : "") + "; ++" + i + ") {");
        ++indent_;
        repeat_ *= static_cast<double>(cf.hi - cf.lo);
        count_trip();
        Value counter;
        counter.kind = Value::Kind::literal;
        counter.dtype = DType::s64;
        counter.elements = 1;
        counter.name = i;
        std::vector<Value> leading = {counter};
        leading.insert(leading.end(), results.begin(), results.end());
        emit_body(g, n, 0, leading);
        assign(results, outputs_of(*cf.bodies[0]));
        repeat_ /= static_cast<double>(cf.hi - cf.lo);
        --indent_;
        line("}");
        break;
      }
      case ControlFlow::Kind::while_loop: {
        results = declare_carries(cf, static_cast<std::size_t>(cf.operands));
        for (std::size_t j = 0; j < results.size(); ++j) copy(results[j], input(g, n, j));
        line(cap_ ? "while (!nxv_stop) {" : "while (true) {");
        ++indent_;
        repeat_ *= kWhileTrips;
        ++in_while_;
        count_trip();
        emit_body(g, n, 0, results);
        line("if (" + read(outputs_of(*cf.bodies[0])[0], "0u") + " == 0u) break;");
        emit_body(g, n, 1, results);
        assign(results, outputs_of(*cf.bodies[1]));
        repeat_ /= kWhileTrips;
        --in_while_;
        --indent_;
        line("}");
        break;
      }
      case ControlFlow::Kind::cond: {
        results = declare_carries(cf, cf.results.size());
        std::vector<Value> operands;
        for (int j = 1; j < cf.operands; ++j) operands.push_back(input(g, n, static_cast<std::size_t>(j)));
        line("if (" + read(input(g, n, 0), "0u") + " != 0u) {");
        for (std::size_t b = 0; b < 2; ++b) {
          ++indent_;
          emit_body(g, n, b, operands);
          const std::vector<Value> out = outputs_of(*cf.bodies[b]);
          for (std::size_t j = 0; j < results.size(); ++j) copy(results[j], out[j]);
          --indent_;
          line(b == 0 ? "} else {" : "}");
        }
        break;
      }
      case ControlFlow::Kind::scan:
        throw Unsupported{"scan"};
    }
    results_[&n] = results;
  }

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

}  // namespace

std::optional<InstanceKernel> generate_instance_kernel(const Graph& graph, const std::vector<bool>& batched,
                                                       const InstanceOptions& options, std::string& why) {
  try {
    InstanceGenerator gen(graph, batched, options);
    return gen.run();
  } catch (const Unsupported& u) {
    why = u.why;
    return std::nullopt;
  }
}

}  // namespace nxv::vulkan::fusion
