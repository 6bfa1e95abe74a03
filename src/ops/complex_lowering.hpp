// Complex tensors on real backends. Every op on a c64/c128 tensor is computed here, in the front end, by ops on
// real tensors (its real and imaginary parts, or its real view [..., 2]): backends, the tracer, jit, vectorize and
// grad only ever see real ops and the two views (OpCode::real_view, OpCode::complex_view). So a complex tensor runs
// on every backend, compiles, batches and differentiates through the real ops' own rules, with no kernel of its own.
#pragma once
#include <span>

#include "ops/op.hpp"

namespace nxv {

// Whether an op on these inputs giving `out` involves a complex dtype (and so must be lowered before a backend).
bool involves_complex(std::span<const Tensor> inputs, const TensorType& out);
// `call` computed through real ops (apply() and apply_on() call these); nxv::Error naming the op for the ops that
// have no complex form (ordering ops, random numbers, convolution, linear algebra...).
Tensor lower_complex(const OpCall& call, std::span<const Tensor> inputs, const TensorType& out);
Tensor lower_complex_creation(Backend& backend, const OpCall& call, const TensorType& out);

// The elementwise ops on complex operands (src/ops/elementwise.cpp calls these; a and b of one complex dtype).
Tensor complex_unary(UnaryFn fn, const Tensor& z);
Tensor complex_binary(BinaryFn fn, const Tensor& a, const Tensor& b);

}  // namespace nxv
