// The per-instance kernel's frame (bindings, main, the group mapping's shared arrays), the emission helpers
// and where values live (design in instance_codegen.hpp).
#include <cmath>

#include "nxv/shape.hpp"
#include "vulkan/fusion/codegen.hpp"
#include "vulkan/fusion/glsl_types.hpp"
#include "vulkan/fusion/instance_generator.hpp"

namespace nxv::vulkan::fusion::instance {

InstanceKernel InstanceGenerator::run() {
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

void InstanceGenerator::line(const std::string& text) {
  code_ << std::string(2 * indent_, ' ') << text << "\n";
  work_ += repeat_;
  synced_ = false;
}

void InstanceGenerator::sync() {
  if (!group_ || synced_) return;
  if (divergent_) throw Unsupported{"a barrier in a divergent region (a generator bug)"};
  line("NXV_SYNC();");
  synced_ = true;
}

void InstanceGenerator::divergent(const std::string& open, double per_invocation, const std::function<void()>& body) {
  const bool outermost = !divergent_;  // a nested region's trips are counted by the outermost one
  const double outer = repeat_;
  if (outermost) {
    divergent_ = true;
    divergent_trips_ = 0;
  }
  line(open);
  ++indent_;
  repeated(per_invocation, body);
  --indent_;
  line("}");
  if (!outermost) return;
  divergent_ = false;
  if (cap_ && divergent_trips_ > 0)
    line("nxv_trips += " + u(static_cast<std::int64_t>(std::ceil(divergent_trips_ / outer))) +
         "; nxv_stop = nxv_trips > " + u(kTripBudget) + ";");
}
void InstanceGenerator::owner_loop(const std::string& length, std::int64_t most,
                                   const std::function<void(const std::string&)>& body) {
  const std::string e = fresh("e");
  divergent("for (uint " + e + " = lid; " + e + " < " + length + "; " + e + " += " + u(kGroupLanes) + ") {",
            std::ceil(static_cast<double>(most) / kGroupLanes), [&] {
              count_trip();
              body(e);
            });
}
void InstanceGenerator::for_each_output(const Value& out, const std::function<void(const std::string&)>& body) {
  if (!spread(out)) {
    for_each(out.elements, body);
    return;
  }
  sync();
  owner_loop(u(out.elements), out.elements, body);
  sync();
}
void InstanceGenerator::first_invocation(const std::function<void()>& body) {
  sync();
  divergent("if (lid == 0u) {", 1, body);
  sync();
}

void InstanceGenerator::repeated(double trips, const std::function<void()>& body) {
  const double outer = repeat_;
  repeat_ *= trips;
  body();
  repeat_ = outer;
}

void InstanceGenerator::for_each(std::int64_t n, const std::function<void(const std::string&)>& body) {
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

void InstanceGenerator::count_trip() {
  if (!cap_) return;
  if (divergent_)
    divergent_trips_ += repeat_;
  else
    line("nxv_stop = ++nxv_trips > " + u(kTripBudget) + ";");
}

std::string InstanceGenerator::read(const Value& v, const std::string& e) const {
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

std::string InstanceGenerator::local_index(const Value& v, const std::string& e) {
  if (!e.empty() && e.back() == 'u' && e.find_first_not_of("0123456789") == e.size() - 1 &&
      std::stoll(e.substr(0, e.size() - 1)) < v.elements)
    return e;
  return "min(" + e + ", " + u(v.elements - 1) + ")";
}

std::string InstanceGenerator::write(const Value& v, const std::string& e) const {
  if (v.kind == Value::Kind::reg) return v.name;
  if (v.kind == Value::Kind::local) return v.name + "[" + e + "]";
  return scratch_at(v, e);
}

std::string InstanceGenerator::scratch_at(const Value& v, const std::string& e) const {
  const std::string i = "(" + u(v.offset) + " + " + e + ")";
  if (!group_) return v.name + "[" + i + " * pc.count + li]";
  if (v.workgroup) return v.name + "[" + i + "]";
  return v.name + "[li * NXV_STRIDE_" + v.name + " + " + i + "]";
}

Value InstanceGenerator::allocate(const TensorType& type) {
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

std::string InstanceGenerator::group_array(const std::string& ct, std::int64_t elements, std::int64_t& offset) {
  auto& [next, name] = group_values_[ct];
  if (name.empty()) name = "w" + std::to_string(group_values_.size() - 1);
  offset = next;
  next += elements;
  group_arrays_[name] = "shared " + ct + " " + name + "[" + std::to_string(next) + "];";
  return name;
}

std::string InstanceGenerator::group_scratch(const std::string& name, const std::string& ct, std::int64_t elements) {
  if (!group_arrays_.count(name)) {
    group_arrays_[name] = "shared " + ct + " " + name + "[" + std::to_string(elements) + "];";
    const bool wide = ct == "double" || ct == "int64_t" || ct == "uint64_t";  // compute_type's 8-byte types
    group_bytes_ += static_cast<std::size_t>(elements) * (wide ? 8 : 4);
  }
  return name;
}

void InstanceGenerator::copy(const Value& to, const Value& from) {
  for_each_output(to, [&](const std::string& e) { line(write(to, e) + " = " + read(from, e) + ";"); });
}

void InstanceGenerator::check_dtype(DType t) {
  if (is_half_float(t) || is_complex(t)) throw Unsupported{"a value of dtype " + std::string(name(t))};
}

void InstanceGenerator::bind_parameter(std::size_t i) {
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

std::size_t InstanceGenerator::block_for(std::vector<InstanceKernel::Block>& blocks, DType t) {
  std::size_t b = 0;
  while (b < blocks.size() && blocks[b].dtype != t) ++b;
  if (b == blocks.size()) blocks.push_back({t, 0, {}});
  return b;
}

void InstanceGenerator::fix_rows() {
  for (auto& [node, v] : values_)
    if (v.kind == Value::Kind::batched) v.row = k_.batched[v.block].row;
}

void InstanceGenerator::emit_output(std::size_t o) {
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
    line(y + "[c * NXV_ROW_" + y + " + " + u(offset) + " + " + e + "] = " + store_expr(n.type.dtype, read(v, e)) + ";");
  };
  if (!group_) return for_each(elements, store);
  if (elements <= kLocalElements) return divergent("if (lid == 0u) {", 1, [&] { for_each(elements, store); });
  owner_loop(u(elements), elements, store);  // the group's invocations store a large output together
}

}  // namespace nxv::vulkan::fusion::instance

namespace nxv::vulkan::fusion {

std::size_t InstanceKernel::bindings() const {
  return batched.size() + shared.size() + constants.size() + outputs.size() + scratch.size() + (cap_trips ? 1 : 0);
}

std::optional<InstanceKernel> generate_instance_kernel(const Graph& graph, const std::vector<bool>& batched,
                                                       const InstanceOptions& options, std::string& why) {
  try {
    instance::InstanceGenerator gen(graph, batched, options);
    return gen.run();
  } catch (const instance::Unsupported& u) {
    why = u.why;
    return std::nullopt;
  }
}

}  // namespace nxv::vulkan::fusion
