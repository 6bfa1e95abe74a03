// The elementwise op table (ops/elementwise.def) as the code generator reads it: each op's class and its
// expression as text, stringified from the same line the eager shaders and the reference backend compile.
#pragma once

namespace nxv::compiler {

enum class OpClass { NUM, FLOAT, INT, TEST };

struct ElementwiseEntry {
  const char* name;
  OpClass cls;
  const char* expression;  // of x (unary) or of a and b (binary), valid GLSL over the helpers
};

// nullptr for an id the table does not have.
const ElementwiseEntry* unary_entry(int fn);
const ElementwiseEntry* binary_entry(int fn);

}  // namespace nxv::compiler
