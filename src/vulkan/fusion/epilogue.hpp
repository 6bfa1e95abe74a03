// A dot computed transposed for its epilogue (Kernel::transposed), built in one place for the planner's check
// (merge_epilogues, epilogue.cpp) and the executable's launch (compiler.cpp).
#pragma once
#include "vulkan/fusion/plan.hpp"

namespace nxv::vulkan::fusion {

// A dot computed transposed (Kernel::transposed): its call for the operands (b, a), whose result is the [N, M]
// transpose of the dot's [M, N].
struct TransposedDot {
  OpCall call;
  TensorType type;
};
TransposedDot transposed_dot(const Node& dot);

}  // namespace nxv::vulkan::fusion
