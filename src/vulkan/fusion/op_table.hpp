// The elementwise op table (shared/elementwise.def) as the code generator reads it: each op's class and its
// expression as text, stringified from the same line the eager shaders and the reference backend compile.
#pragma once
#include "ops/elementwise_class.hpp"

namespace nxv::vulkan::fusion {

using OpClass = ElementwiseClass;  // the op's class, as the front end and the eager kernels read it

struct ElementwiseEntry {
  const char* name;
  OpClass cls;
  const char* expression;  // of x (unary) or of a and b (binary), valid GLSL over the helpers
};

// nullptr for an id the table does not have.
const ElementwiseEntry* unary_entry(UnaryFn fn);
const ElementwiseEntry* binary_entry(BinaryFn fn);

}  // namespace nxv::vulkan::fusion
