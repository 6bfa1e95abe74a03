// How gtest prints the library's enums as test parameters ("where GetParam() = f32", not "4-byte object <...>").
// gtest finds PrintTo by argument-dependent lookup, so each lives in its enum's namespace.
#pragma once
#include <ostream>

#include "nxv/dtype.hpp"

namespace nxv {
inline void PrintTo(DType t, std::ostream* os) { *os << name(t); }
}  // namespace nxv
