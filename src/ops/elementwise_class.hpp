// The class of each elementwise op of shared/elementwise.def (NUM: every dtype, FLOAT: computed in a float type,
// INT: integers only, TEST: a predicate giving pred), read once from the table for the front end's dtype rules,
// the Vulkan kernels, the fusion compiler and the tests.
#pragma once
#include "nxv/dtype.hpp"
#include "ops/op.hpp"

namespace nxv {

enum class ElementwiseClass { NUM, FLOAT, INT, TEST };

// TEST for an id the table does not have (no kernel branch exists for it).
inline ElementwiseClass class_of(UnaryFn f) {
  switch (static_cast<int>(f)) {
#define NXV_UNARY(id, name, cls, expr) \
  case id:                             \
    return ElementwiseClass::cls;
#define NXV_BINARY(id, name, cls, expr)
#include "shared/elementwise.def"
  }
  return ElementwiseClass::TEST;
}

inline ElementwiseClass class_of(BinaryFn f) {
  switch (static_cast<int>(f)) {
#define NXV_UNARY(id, name, cls, expr)
#define NXV_BINARY(id, name, cls, expr) \
  case id:                              \
    return ElementwiseClass::cls;
#include "shared/elementwise.def"
  }
  return ElementwiseClass::TEST;
}

// Whether the elementwise shaders' variant for `dtype` has a branch for an op of class `cls` (the front end
// converts the inputs of the rest first): the eager kernels and the fusion compiler run exactly these.
inline bool kernel_defines(ElementwiseClass cls, bool test_op, DType dtype) {
  if (test_op) return cls == ElementwiseClass::TEST;
  switch (cls) {
    case ElementwiseClass::NUM:
      return true;
    case ElementwiseClass::FLOAT:
      return is_float(dtype);
    case ElementwiseClass::INT:
      return !is_float(dtype);
    case ElementwiseClass::TEST:
      return false;
  }
  return false;
}

}  // namespace nxv
