// GLSL generation for fused regions (design in codegen.hpp).
#include "compiler/codegen.hpp"

#include <cstdio>
#include <map>
#include <sstream>

#include "compiler/op_table.hpp"
#include "nxv/error.hpp"
#include "vulkan/kernels/layout.hpp"

namespace nxv::compiler {
namespace {

// The compute type of ops/elementwise.def and the buffer element type (shaders/kernels.cmake's nxv_type_defines).
const char* compute_type(DType t) {
  switch (t) {
    case DType::pred:
    case DType::u8: return "uint";
    case DType::s32: return "int";
    case DType::s64: return "int64_t";
    case DType::f32: return "float";
    case DType::f64: return "double";
  }
  return "?";
}
const char* store_type(DType t) { return size_of(t) == 1 ? "uint8_t" : compute_type(t); }
bool is_byte(DType t) { return size_of(t) == 1; }

// The body of cast.comp's convert() for one (source, destination) pair, with A_T/OUT_T spelled out.
std::string convert_body(DType from, DType to) {
  const std::string a = compute_type(from);
  std::ostringstream s;
  if (to == DType::pred) {
    s << "  return nxv_nonzero(x);\n";
  } else if (is_float(from) && to == DType::s32) {
    s << "  if (isnan(x)) return 0;\n"
      << "  if (x >= " << a << "(2147483648.0)) return 2147483647;\n"
      << "  if (x <= " << a << "(-2147483648.0)) return int(0x80000000u);\n"
      << "  return int(x);\n";
  } else if (is_float(from) && to == DType::s64) {
    s << "  if (isnan(x)) return int64_t(0);\n"
      << "  if (x >= " << a << "(9223372036854775808.0)) return int64_t(0x7fffffffffffffffl);\n"
      << "  if (x <= " << a << "(-9223372036854775808.0)) return int64_t(0x8000000000000000ul);\n"
      << "  return int64_t(x);\n";
  } else if (is_float(from) && to == DType::u8) {
    s << "  if (isnan(x) || x <= " << a << "(0.0)) return 0u;\n"
      << "  if (x >= " << a << "(255.0)) return 255u;\n"
      << "  return uint(x);\n";
  } else {
    s << "  return " << compute_type(to) << "(x);\n";
  }
  return s.str();
}

// A constant as a GLSL expression of its compute type, read from push-constant words `at` (and `at + 1`).
std::string push_constant(DType t, int at) {
  const std::string lo = "pc.w[" + std::to_string(at) + "]", hi = "pc.w[" + std::to_string(at + 1) + "]";
  switch (t) {
    case DType::pred:
    case DType::u8: return "(" + lo + " & 0xffu)";
    case DType::s32: return "int(" + lo + ")";
    case DType::s64: return "int64_t(pack64(uvec2(" + lo + ", " + hi + ")))";
    case DType::f32: return "uintBitsToFloat(" + lo + ")";
    case DType::f64: return "packDouble2x32(uvec2(" + lo + ", " + hi + "))";
  }
  return "?";
}

class Generator {
 public:
  Generator(const Graph& g, const Kernel& k) : g_(g), k_(k) {}

  std::string run() {
    std::ostringstream body;
    emit_main(body);
    std::ostringstream s;
    s << "#version 450\n"
         "#extension GL_GOOGLE_include_directive : require\n"
         "#include \"lib/common.glsl\"\n"
         "#include \"lib/elementwise.glsl\"\n\n"
         "layout(local_size_x = NXV_GROUP_SIZE) in;\n";
    const std::size_t reads = k_.reads.size();
    for (std::size_t r = 0; r < reads; ++r)
      s << "layout(std430, binding = " << r << ") readonly buffer In" << r << " { " << store_type(dtype(k_.reads[r].node))
        << " in" << r << "[]; };\n";
    for (std::size_t o = 0; o < k_.outputs.size(); ++o)
      s << "layout(std430, binding = " << reads + o << ") writeonly buffer Out" << o << " { "
        << store_type(dtype(k_.outputs[o].first)) << " out" << o << "[]; };\n";
    if (!k_.push.empty()) s << "layout(push_constant) uniform Push { uint w[" << k_.push.size() << "]; } pc;\n";
    s << "\n";
    for (const auto& [key, text] : helpers_) s << text << "\n";
    s << body.str();
    return s.str();
  }

 private:
  DType dtype(NodeId n) const { return g_.nodes[n].type.dtype; }

  // The helper computing node `n`'s op, defined once per (op, function, dtypes); returns its name.
  std::string helper(const Node& n) {
    const OpAttrs& attrs = n.call.attrs;
    const DType in = g_.nodes[n.inputs[0]].type.dtype, out = n.type.dtype;
    const std::string a = compute_type(in);
    std::ostringstream name, text;
    switch (n.call.code) {
      case OpCode::unary:
      case OpCode::unary_test: {
        const ElementwiseEntry* e = unary_entry(attrs.fn);
        name << "nxv_" << e->name << "_" << name_of(in);
        if (n.call.code == OpCode::unary_test)
          text << "uint " << name.str() << "(" << a << " x) { return " << e->expression << "; }\n";
        else
          text << a << " " << name.str() << "(" << a << " x) { precise " << a << " r = " << e->expression
               << "; return r; }\n";
        break;
      }
      case OpCode::binary:
      case OpCode::binary_test: {
        const ElementwiseEntry* e = binary_entry(attrs.fn);
        name << "nxv_" << e->name << "_" << name_of(in);
        if (n.call.code == OpCode::binary_test)
          text << "uint " << name.str() << "(" << a << " a, " << a << " b) { return " << e->expression << "; }\n";
        else
          text << a << " " << name.str() << "(" << a << " a, " << a << " b) { precise " << a << " r = "
               << e->expression << "; return r; }\n";
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
      default: detail::fail("fusion compiler: no generated code for ", format_call(n.call));
    }
    helpers_.emplace(name.str(), text.str());
    return name.str();
  }
  static std::string name_of(DType t) { return std::string(name(t)); }

  void emit_main(std::ostringstream& s) {
    // Collapse the domain with every read's strides, as the eager kernels do, so that few axes need a division.
    Shape domain = k_.domain;
    std::vector<Shape> strides;
    for (const Read& r : k_.reads) strides.push_back(r.strides);
    vulkan::kernels::collapse(domain, strides);
    const std::int64_t count = num_elements(k_.domain);

    s << "void main() {\n  uint i = nxv_linear_index();\n  if (i >= " << count << "u) return;\n";
    bool need_coords = false;
    std::vector<std::string> offsets;
    for (const Shape& st : strides) {
      switch (vulkan::kernels::access_of(domain, st)) {
        case vulkan::kernels::Access::contiguous: offsets.push_back("i"); break;
        case vulkan::kernels::Access::scalar: offsets.push_back("0u"); break;
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
    for (std::size_t v = 0; v < k_.program.size(); ++v) {
      const Instruction& ins = k_.program[v];
      const Node& n = g_.nodes[ins.node];
      const DType t = n.type.dtype;
      s << "  " << compute_type(t) << " v" << v << " = ";
      if (ins.kind == Instruction::Kind::read) {
        s << compute_type(t) << "(in" << ins.read << "[" << offsets[ins.read] << "]);\n";
        continue;
      }
      if (ins.kind == Instruction::Kind::constant) {
        s << push_constant(t, ins.push) << ";\n";
        continue;
      }
      if (ins.kind == Instruction::Kind::iota) {  // iota.comp: the coordinate converted as an integer cast
        const std::string row = "((i / " + std::to_string(ins.inner) + "u) % " + std::to_string(ins.dim) + "u)";
        if (t == DType::pred)
          s << "nxv_nonzero(" << row << ");\n";
        else if (is_byte(t))
          s << "uint(uint8_t(" << row << "));\n";
        else
          s << compute_type(t) << "(" << row << ");\n";
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
      // A byte-sized result is truncated as the eager kernel's store would (u8 arithmetic wraps at 256).
      if (is_byte(t))
        s << "uint(uint8_t(" << call.str() << "));\n";
      else
        s << call.str() << ";\n";
    }
    for (std::size_t o = 0; o < k_.outputs.size(); ++o)
      s << "  out" << o << "[i] = " << store_type(dtype(k_.outputs[o].first)) << "(v" << k_.outputs[o].second
        << ");\n";
    s << "}\n";
  }

  const Graph& g_;
  const Kernel& k_;
  std::map<std::string, std::string> helpers_;
};

}  // namespace

std::string generate_glsl(const Graph& graph, const Kernel& kernel) { return Generator(graph, kernel).run(); }

}  // namespace nxv::compiler
