// GLSL generation for fused regions (design in codegen.hpp).
#include "vulkan/fusion/codegen.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "nxv/error.hpp"
#include "vulkan/fusion/glsl_sources.hpp"
#include "vulkan/fusion/glsl_types.hpp"
#include "vulkan/fusion/op_table.hpp"
#include "vulkan/kernels/layout.hpp"

namespace nxv::vulkan::fusion {
namespace {

// Replaces the line that starts with `marker` (a comment of the source) by `with`.
void replace_marker(std::string& text, std::string_view marker, const std::string& with) {
  const std::size_t at = text.find(marker);
  if (at == std::string::npos) detail::fail("fusion compiler: the contraction shader has no '", marker, "' line");
  text.replace(at, text.find('\n', at) - at, with);
}

class Generator {
 public:
  Generator(const Graph& g, const Kernel& k) : g_(g), k_(k) {}

  // src/vulkan/kernels/dot.comp (conv.comp) with the epilogue after each output's store: the kernel's own bindings 0-2
  // and push block, then the epilogue's bindings from 3 and its push words after the block's.
  std::string run_contraction(std::string_view path) {
    const Kernel& e = k_.epilogue.at(0);
    const DType t = dtype(k_.reduce);
    std::ostringstream code;
    code << "#include \"lib/elementwise.glsl\"\n";
    std::size_t binding = 3;
    declare_buffers(code, e, k_.reduce, "Epilogue", "e", binding);
    std::ostringstream function;
    emit_epilogue(function, compute_type(t));
    for (const auto& [key, text] : helpers_) code << text << "\n";
    code << function.str();

    const std::optional<std::string_view> source = glsl_source(path);
    if (!source) detail::fail("fusion compiler: ", path, " is not embedded");
    std::string text(*source);
    replace_marker(text, "// @epilogue-push",
                   e.push.empty() ? std::string() : "uint w[" + std::to_string(e.push.size()) + "];");
    replace_marker(text, "// @epilogue-code", code.str());
    const std::size_t version_end = text.find('\n', text.find("#version")) + 1;
    text.insert(version_end, type_defines(t) + "#define NXV_EPILOGUE 1\n");
    return text;
  }

  std::string run() {
    std::ostringstream body;
    emit_main(body);
    std::ostringstream s;
    s << "#version 450\n"
         "#extension GL_GOOGLE_include_directive : require\n"
         "#include \"lib/common.glsl\"\n"
         "#include \"lib/elementwise.glsl\"\n\n"
         "layout(local_size_x = NXV_GROUP_SIZE) in;\n";  // 128: a reduction's 256 lanes take two each
    // The outer kernel's reads of a nested inner reduction take its results from shared memory: no binding.
    const NodeId nested = k_.inner.empty() ? -1 : k_.inner[0].reduce;
    std::size_t binding = 0, push = k_.push.size() + (loop_ != nullptr ? kLoopPushWords : 0);
    declare_buffers(s, k_, nested, "", "", binding);
    if (k_.reduce >= 0)
      s << "layout(std430, binding = " << binding++ << ") writeonly buffer Result { " << buffer_type(result_dtype())
        << " result[]; };\n";
    for (const Kernel& e : k_.epilogue) {  // its reads of the result take the reduced value instead
      declare_buffers(s, e, k_.reduce, "Epilogue", "e", binding);
      push += e.push.size();
    }
    for (const Kernel& i : k_.inner) {
      declare_buffers(s, i, -1, "Inner", "i", binding);
      s << "layout(std430, binding = " << binding++ << ") writeonly buffer InnerResult { "
        << buffer_type(dtype(i.reduce)) << " iresult[]; };\n";
      push += i.push.size();
    }
    if (push > 0) s << "layout(push_constant) uniform Push { uint w[" << push << "]; } pc;\n";
    s << "\n";
    for (const auto& [key, text] : helpers_) s << text << "\n";
    s << body.str();
    return s.str();
  }

 private:
  DType dtype(NodeId n) const { return g_.nodes[n].type.dtype; }

  // Kernel (part) k's read buffers (<prefix>in<r>, but those of `computed`, which the kernel has in hand) and
  // output buffers (<prefix>out<o>), numbered from `binding` on.
  void declare_buffers(std::ostringstream& s, const Kernel& k, NodeId computed, const std::string& block,
                       const std::string& prefix, std::size_t& binding) {
    for (std::size_t r = 0; r < k.reads.size(); ++r)
      if (k.reads[r].node != computed)
        s << "layout(std430, binding = " << binding++ << ") readonly buffer " << block << "In" << r << " { "
          << buffer_type(dtype(k.reads[r].node)) << " " << prefix << "in" << r << "[]; };\n";
    for (std::size_t o = 0; o < k.outputs.size(); ++o)
      s << "layout(std430, binding = " << binding++ << ") writeonly buffer " << block << "Out" << o << " { "
        << buffer_type(dtype(k.outputs[o].first)) << " " << prefix << "out" << o << "[]; };\n";
  }

  std::string helper(const Node& n) { return elementwise_helper(n, g_.nodes[n.inputs[0]].type.dtype, helpers_); }
  static std::string name_of(DType t) { return std::string(name(t)); }

  void emit_main(std::ostringstream& s) {
    if (loop_ != nullptr) {
      emit_loop_main(s);
      return;
    }
    if (k_.reduce >= 0) {
      emit_reduction(s);
      return;
    }
    s << "void main() {\n  uint i = nxv_linear_index();\n  if (i >= " << num_elements(k_.domain) << "u) return;\n";
    emit_program(s, k_, "in", "", 0);
    emit_stores(s, k_, "out");
    s << "}\n";
  }

  // The carries' registers, loaded from their reads; the program inside the loop, its reads of carries and the
  // counter substituted; the registers updated after each iteration and stored after the last.
  void emit_loop_main(std::ostringstream& s) {
    const LoopKernel& l = *loop_;
    s << "void main() {\n  uint i = nxv_linear_index();\n  if (i >= " << num_elements(k_.domain) << "u) return;\n";
    for (std::size_t j = 0; j < l.carry_value.size(); ++j) {
      const DType t = dtype(k_.program[static_cast<std::size_t>(l.carry_value[j])].node);
      std::string init = compute_type(t) + std::string("(0)");
      for (std::size_t r = 0; r < l.carry_of_read.size(); ++r)
        if (l.carry_of_read[r] == static_cast<int>(j)) init = load_expr(t, "in" + std::to_string(r) + "[i]");
      s << "  " << compute_type(t) << " carry" << j << " = " << init << ";\n";
    }
    // The counter's range, [first, last), is the four push words after the program's (the compiler dispatches the
    // kernel once per chunk of iterations: looped.hpp says why).
    const int at = static_cast<int>(k_.push.size());
    s << "  for (int64_t counter = " << push_constant(DType::s64, at) << "; counter < "
      << push_constant(DType::s64, at + 2) << "; ++counter) {\n";
    emit_program(s, k_, "in", "", 0);
    for (std::size_t j = 0; j < l.carry_value.size(); ++j) s << "  carry" << j << " = v" << l.carry_value[j] << ";\n";
    s << "  }\n";
    for (std::size_t o = 0; o < k_.outputs.size(); ++o)
      s << "  out" << o
        << "[i] = " << store_expr(dtype(k_.outputs[o].first), "carry" + std::to_string(l.output_carry[o])) << ";\n";
    s << "}\n";
  }

  void emit_stores(std::ostringstream& s, const Kernel& k, const std::string& prefix) {
    for (std::size_t o = 0; o < k.outputs.size(); ++o)
      s << "  " << prefix << o
        << "[i] = " << store_expr(dtype(k.outputs[o].first), "v" + std::to_string(k.outputs[o].second)) << ";\n";
  }

  // A reduction's accumulator type, identity and combine, as reduce.comp has them.
  struct ReduceCode {
    std::string acc, identity;
  };

  // `<acc> nxv_element<suffix>(uint i)`: kernel k's program at domain element i, its outputs stored there (buffers
  // `out` + o), returning the reduced value's element; and `nxv_combine<suffix>(a, b)`.
  ReduceCode emit_reduce_functions(std::ostringstream& s, const Kernel& k, const std::string& in,
                                   const std::string& out, const std::string& suffix, std::size_t push,
                                   NodeId shared_node = -1, const std::string& shared_array = "") {
    const Node& red = g_.nodes[k.reduce];
    const ReduceFn fn = red.call.attrs_as<ReduceAttrs>().fn;
    const bool logical = fn == ReduceFn::all || fn == ReduceFn::any;
    const DType input = dtype(red.inputs[0]);
    const std::string acc = logical ? "uint" : compute_type(input);
    s << acc << " nxv_element" << suffix << "(uint i) {\n";
    emit_program(s, k, in, "", push, shared_node, shared_array);
    emit_stores(s, k, out);
    if (logical)
      s << "  return nxv_nonzero(v" << k.reduce_value << ");\n}\n\n";
    else
      s << "  return v" << k.reduce_value << ";\n}\n\n";
    std::string combine = fn == ReduceFn::all ? "a & b" : fn == ReduceFn::any ? "a | b" : "";
    if (!logical) {
      const char* ops[] = {"a + b", "nxv_ieee_multiply(a, b)", "nxv_max(a, b)", "nxv_min(a, b)"};
      combine = ops[static_cast<int>(fn)];
    }
    s << acc << " nxv_combine" << suffix << "(" << acc << " a, " << acc << " b) { precise " << acc << " r = " << combine
      << "; return r; }\n\n";
    return {acc, reduce_identity(fn, input, acc)};
  }

  // `offset`: the domain offset of element r of output o's reduction (layout l), into `offset` (declared).
  static void emit_offset(std::ostringstream& s, const ReduceLayout& l, const std::string& o, const std::string& r,
                          const std::string& indent) {
    s << indent << "uint offset = 0u;\n" << indent << "uint rest = " << o << ";\n";
    for (int d = l.kept_shape.size() - 1; d >= 0; --d)
      s << indent << "offset += (rest % " << l.kept_shape[d] << "u) * " << l.kept_strides[d] << "u;\n"
        << indent << "rest /= " << l.kept_shape[d] << "u;\n";
    s << indent << "rest = " << r << ";\n";
    for (int d = l.reduced_shape.size() - 1; d >= 0; --d)
      s << indent << "offset += (rest % " << l.reduced_shape[d] << "u) * " << l.reduced_strides[d] << "u;\n"
        << indent << "rest /= " << l.reduced_shape[d] << "u;\n";
  }

  // The dtype of the Result buffer: the reduction's, but f32 for the partials of an f16 or bf16 reduction of more
  // than one chunk (they accumulate in f32, as the eager kernel's do; compiler.cpp rounds the total once).
  DType result_dtype() const {
    const Node& red = g_.nodes[k_.reduce];
    const DType t = red.type.dtype;
    if (!is_half_float(t) || red.call.code != OpCode::reduce || !k_.inner.empty()) return t;
    const std::int64_t outputs = num_elements(red.type.shape);
    return reduce_layout(k_.domain, red.call.attrs_as<ReduceAttrs>().axes, outputs).chunks > 1 ? DType::f32 : t;
  }

  // reduce.comp's scalar path with its constants spelled out and load() replaced by the program at the element:
  // the same lanes, order, identity, combine and tree, so the result has the eager kernel's bits.
  void emit_reduction(std::ostringstream& s) {
    const Node& red = g_.nodes[k_.reduce];
    const std::int64_t outputs = num_elements(red.type.shape);
    const ReduceLayout l = reduce_layout(k_.domain, red.call.attrs_as<ReduceAttrs>().axes, outputs);
    if (!k_.inner.empty()) {
      emit_nested(s, l);
      return;
    }
    const ReduceCode c = emit_reduce_functions(s, k_, "in", "out", "", 0);
    emit_epilogue(s, c.acc);
    if (l.short_rows()) {
      emit_short_reduction(s, l, c);
      return;
    }
    s << "shared " << c.acc << " lanes[256];\n\n"
      << "void main() {\n"
      << "  uint g = nxv_linear_group();\n"
      << "  if (g >= " << outputs * l.chunks << "u) return;\n"
      << "  uint t = gl_LocalInvocationID.x;\n"
      << "  uint o = g / " << l.chunks << "u;\n"
      << "  uint begin = (g % " << l.chunks << "u) * " << kReduceChunk << "u;\n"
      << "  uint end = min(" << l.length << "u, begin + " << kReduceChunk << "u);\n";
    emit_lanes(s, l, c, "o", "begin", "end");
    emit_tree_and_store(s, "g");
  }

  // reduce.comp's SHORT path: one invocation per output holds the 32 lanes that can hold elements; lanes 32-255
  // hold the identity, so the tree's levels 128, 64 and 32 combine each of them with it, and levels 16 .. 1 are
  // the workgroup's. The same operations on the same operands as the eager kernel.
  void emit_short_reduction(std::ostringstream& s, const ReduceLayout& l, const ReduceCode& c) {
    constexpr int kLanes = static_cast<int>(kShortReduceRow);
    s << "void main() {\n"
      << "  uint o = nxv_linear_index();\n"
      << "  if (o >= " << l.outputs << "u) return;\n"
      << "  " << c.acc << " lane[" << kLanes << "];\n"
      << "  for (uint r = 0u; r < " << kLanes << "u; ++r) lane[r] = " << c.identity << ";\n"
      << "  for (uint r = 0u; r < " << l.length << "u; ++r) {\n";
    emit_offset(s, l, "o", "r", "    ");
    s << "    lane[r] = nxv_combine(lane[r], nxv_element(offset));\n  }\n";
    for (int level = 128; level >= kLanes; level /= 2)
      for (int r = 0; r < kLanes; ++r)
        s << "  lane[" << r << "] = nxv_combine(lane[" << r << "], " << c.identity << ");\n";
    for (int level = kLanes / 2; level > 0; level /= 2)
      for (int r = 0; r < level; ++r)
        s << "  lane[" << r << "] = nxv_combine(lane[" << r << "], lane[" << r + level << "]);\n";
    s << "  result[o] = " << store_expr(dtype(k_.reduce), "lane[0]") << ";\n";
    if (!k_.epilogue.empty()) s << "  nxv_epilogue(o, lane[0]);\n";
    s << "}\n";
  }

  // reduce.comp's 256 lanes on the NXV_GROUP_SIZE (128) invocations: lane l folds the elements begin + l,
  // begin + l + 256, ... before `end` of output `o` from the identity into lanes[l].
  void emit_lanes(std::ostringstream& s, const ReduceLayout& l, const ReduceCode& c, const std::string& o,
                  const std::string& begin, const std::string& end) {
    s << "  for (uint lane = t; lane < 256u; lane += NXV_GROUP_SIZE) {\n"
      << "    " << c.acc << " acc = " << c.identity << ";\n"
      << "    for (uint r = " << begin << " + lane; r < " << end << "; r += 256u) {\n";
    emit_offset(s, l, o, "r", "      ");
    s << "      acc = nxv_combine(acc, nxv_element(offset));\n    }\n"
      << "    lanes[lane] = acc;\n  }\n";
  }

  void emit_tree_and_store(std::ostringstream& s, const std::string& g) {
    s << "  barrier();\n"
      << "  for (uint s = 128u; s > 0u; s >>= 1) {\n"
      << "    for (uint lane = t; lane < s; lane += NXV_GROUP_SIZE) lanes[lane] = nxv_combine(lanes[lane], "
         "lanes[lane + s]);\n"
      << "    barrier();\n  }\n"
      << "  if (t == 0u) {\n    result[" << g << "] = " << store_expr(result_dtype(), "lanes[0]") << ";\n";
    if (!k_.epilogue.empty()) s << "    nxv_epilogue(" << g << ", lanes[0]);\n";
    s << "  }\n}\n";
  }

  // A reduction to one value over an inner reduction's results (nested.cpp), in one workgroup: four inner results
  // at a time, each by 32 lanes emulating reduce.comp's 256 (the tree's first three levels combine every lane with
  // the identity, as the eager kernel does with its idle lanes), kept in shared memory; then the outer reduction in
  // its own order, its reads of the inner node taking them.
  void emit_nested(std::ostringstream& s, const ReduceLayout& l) {
    const Kernel& inner = k_.inner[0];
    const Node& inner_node = g_.nodes[inner.reduce];
    const std::int64_t inner_outputs = num_elements(inner_node.type.shape);
    const ReduceLayout li = reduce_layout(inner.domain, inner_node.call.attrs_as<ReduceAttrs>().axes, inner_outputs);
    std::size_t inner_push = k_.push.size();
    for (const Kernel& e : k_.epilogue) inner_push += e.push.size();
    const ReduceCode ci = emit_reduce_functions(s, inner, "iin", "iout", "_inner", inner_push);
    s << "shared " << ci.acc << " inner_lanes[NXV_GROUP_SIZE];\n"
      << "shared " << ci.acc << " inner_result[" << inner_outputs << "];\n\n";
    const ReduceCode c = emit_reduce_functions(s, k_, "in", "out", "", 0, inner.reduce, "inner_result");
    emit_epilogue(s, c.acc);
    s << "shared " << c.acc << " lanes[256];\n\n"
      << "void main() {\n"
      << "  uint t = gl_LocalInvocationID.x;\n"
      << "  uint part = t % 32u;\n"
      << "  for (uint o0 = 0u; o0 < " << inner_outputs << "u; o0 += NXV_GROUP_SIZE / 32u) {\n"
      << "    uint o = o0 + t / 32u;\n"
      << "    " << ci.acc << " a = " << ci.identity << ";\n"
      << "    if (o < " << inner_outputs << "u && part < " << li.length << "u) {\n";
    emit_offset(s, li, "o", "part", "      ");
    s << "      a = nxv_combine_inner(a, nxv_element_inner(offset));\n    }\n"
      << "    for (uint level = 0u; level < 3u; ++level) a = nxv_combine_inner(a, " << ci.identity << ");\n"
      << "    inner_lanes[t] = a;\n    barrier();\n"
      << "    for (uint s = 16u; s > 0u; s >>= 1) {\n"
      << "      if (part < s) inner_lanes[t] = nxv_combine_inner(inner_lanes[t], inner_lanes[t + s]);\n"
      << "      barrier();\n    }\n"
      << "    if (part == 0u && o < " << inner_outputs << "u) {\n"
      << "      inner_result[o] = inner_lanes[t];\n"
      << "      iresult[o] = " << store_expr(inner_node.type.dtype, "inner_lanes[t]") << ";\n    }\n"
      << "    barrier();\n  }\n";
    emit_lanes(s, l, c, "0u", "0u", std::to_string(l.length) + "u");
    emit_tree_and_store(s, "0u");
  }

  // The epilogue region at result element i, its reads of the result replaced by the reduced value.
  void emit_epilogue(std::ostringstream& s, const std::string& acc) {
    if (k_.epilogue.empty()) return;
    s << "void nxv_epilogue(uint i, " << acc << " reduced) {\n";
    emit_program(s, k_.epilogue[0], "ein", "reduced", k_.push.size());
    emit_stores(s, k_.epilogue[0], "eout");
    s << "}\n\n";
  }

  // The program of `k` at domain element `i` (in scope), as locals v0, v1, ...: read r from buffer `in` + r, or,
  // for an epilogue's reads of its reduction, the value `reduced`; its constants from push word `push` on.
  void emit_program(std::ostringstream& s, const Kernel& k, const std::string& in, const std::string& reduced,
                    std::size_t push, NodeId shared_node = -1, const std::string& shared_array = "") {
    // Collapse the domain with every read's strides, as the eager kernels do, so that few axes need a division.
    Shape domain = k.domain;
    std::vector<Shape> strides;
    for (const Read& r : k.reads)  // an epilogue's reads of the result are no loads: stride 0 collapses freely
      strides.push_back(r.node == k_.reduce && !reduced.empty() ? Shape::filled(k.domain.size(), 0) : r.strides);
    vulkan::kernels::collapse(domain, strides);

    bool need_coords = false;
    std::vector<std::string> offsets;
    for (const Shape& st : strides) {
      switch (vulkan::kernels::access_of(domain, st)) {
        case vulkan::kernels::Access::contiguous:
          offsets.push_back("i");
          break;
        case vulkan::kernels::Access::scalar:
          offsets.push_back("0u");
          break;
        case vulkan::kernels::Access::strided: {
          need_coords = true;
          std::ostringstream o;
          bool first = true;
          for (int d = 0; d < domain.size(); ++d) {
            if (st[d] == 0) continue;
            o << (first ? "" : " + ") << "c" << d << " * " << st[d] << "u";
            first = false;
          }
          offsets.push_back(o.str());
          break;
        }
      }
    }
    for (std::size_t r = 0; r < k.reads.size(); ++r)  // a folded slice's start
      if (k.reads[r].offset != 0) offsets[r] = "(" + offsets[r] + " + " + std::to_string(k.reads[r].offset) + "u)";
    if (need_coords) {
      s << "  uint rest = i;\n";
      for (int d = domain.size() - 1; d >= 0; --d) {
        if (d == 0) {
          s << "  uint c0 = rest;\n";
        } else {
          s << "  uint c" << d << " = rest % " << domain[d] << "u;\n  rest = rest / " << domain[d] << "u;\n";
        }
      }
    }
    for (std::size_t v = 0; v < k.program.size(); ++v) {
      const Instruction& ins = k.program[v];
      const Node& n = g_.nodes[ins.node];
      const DType t = n.type.dtype;
      s << "  " << compute_type(t) << " v" << v << " = ";
      if (ins.kind == Instruction::Kind::read) {
        if (loop_ != nullptr && &k == &k_ && loop_->carry_of_read[static_cast<std::size_t>(ins.read)] >= 0)
          s << "carry" << loop_->carry_of_read[static_cast<std::size_t>(ins.read)] << ";\n";
        else if (loop_ != nullptr && &k == &k_ && ins.read == loop_->counter_read)
          s << compute_type(t) << "(counter);\n";
        else if (!reduced.empty() && k.reads[ins.read].node == k_.reduce)  // f16/bf16: as the store rounds it
          s << rounded_half(t, std::string(compute_type(t)) + "(" + reduced + ")") << ";\n";
        else if (k.reads[ins.read].node == shared_node)
          s << rounded_half(t, std::string(compute_type(t)) + "(" + shared_array + "[" + offsets[ins.read] + "])")
            << ";\n";
        else
          s << load_expr(t, in + std::to_string(ins.read) + "[" + offsets[ins.read] + "]") << ";\n";
        continue;
      }
      if (ins.kind == Instruction::Kind::constant) {
        s << push_constant(t, ins.push + static_cast<int>(push)) << ";\n";
        continue;
      }
      if (ins.kind == Instruction::Kind::iota) {  // iota.comp: the coordinate converted as an integer cast
        const std::string row = "((i / " + std::to_string(ins.inner) + "u) % " + std::to_string(ins.dim) + "u)";
        if (t == DType::pred)
          s << "nxv_nonzero(" << row << ");\n";
        else
          s << truncated(t, std::string(compute_type(t)) + "(" + row + ")") << ";\n";
        continue;
      }
      std::ostringstream call;
      if (n.call.code == OpCode::select) {
        call << "(v" << ins.args[0] << " != 0u ? v" << ins.args[1] << " : v" << ins.args[2] << ")";
      } else {
        call << helper(n) << "(";
        for (std::size_t a = 0; a < ins.args.size(); ++a) call << (a ? ", v" : "v") << ins.args[a];
        call << ")";
      }
      s << truncated(t, call.str()) << ";\n";
    }
  }

  const Graph& g_;
  const Kernel& k_;
  std::map<std::string, std::string> helpers_;

 public:
  const LoopKernel* loop_ = nullptr;  // generate_loop_glsl's
};

}  // namespace

std::string elementwise_helper(const Node& n, DType in, std::map<std::string, std::string>& helpers) {
  const DType out = n.type.dtype;
  const auto name_of = [](DType t) { return std::string(name(t)); };
  const std::string a = compute_type(in);
  std::ostringstream name, text;
  switch (n.call.code) {
    case OpCode::unary:
    case OpCode::unary_test: {
      const ElementwiseEntry* e = unary_entry(n.call.attrs_as<UnaryAttrs>().fn);
      name << "nxv_" << e->name << "_" << name_of(in);
      if (n.call.code == OpCode::unary_test)
        text << "uint " << name.str() << "(" << a << " x) { return " << e->expression << "; }\n";
      else
        text << a << " " << name.str() << "(" << a << " x) { const int nxv_bits = " << 8 * size_of(in) << "; "
             << (is_float(in) ? "precise " : "") << a << " r = " << e->expression << "; return r; }\n";
      break;
    }
    case OpCode::binary:
    case OpCode::binary_test: {
      const ElementwiseEntry* e = binary_entry(n.call.attrs_as<BinaryAttrs>().fn);
      name << "nxv_" << e->name << "_" << name_of(in);
      if (n.call.code == OpCode::binary_test)
        text << "uint " << name.str() << "(" << a << " a, " << a << " b) { return " << e->expression << "; }\n";
      else
        text << a << " " << name.str() << "(" << a << " a, " << a << " b) { precise " << a << " r = " << e->expression
             << "; return r; }\n";
      break;
    }
    case OpCode::clip:
      name << "nxv_clip_" << name_of(out);
      text << a << " " << name.str() << "(" << a << " x, " << a << " lo, " << a << " hi) { precise " << a
           << " r = nxv_min(nxv_max(x, lo), hi); return r; }\n";
      break;
    case OpCode::cast:
      name << "nxv_cast_" << name_of(in) << "_" << name_of(out);
      text << compute_type(out) << " " << name.str() << "(" << a << " x) {\n" << convert_body(in, out) << "}\n";
      break;
    default:
      detail::fail("fusion compiler: no generated code for ", format_call(n.call));
  }
  helpers.emplace(name.str(), text.str());
  return name.str();
}

std::string generate_glsl(const Graph& graph, const Kernel& kernel) {
  const OpCode host = kernel.reduce >= 0 ? graph.nodes[kernel.reduce].call.code : OpCode::reduce;
  if (host == OpCode::dot) return Generator(graph, kernel).run_contraction("src/vulkan/kernels/dot.comp");
  if (host == OpCode::conv) return Generator(graph, kernel).run_contraction("src/vulkan/kernels/conv.comp");
  return Generator(graph, kernel).run();
}

std::string generate_loop_glsl(const Graph& body, const Kernel& kernel, const LoopKernel& loop) {
  Generator g(body, kernel);
  g.loop_ = &loop;
  return g.run();
}

}  // namespace nxv::vulkan::fusion
