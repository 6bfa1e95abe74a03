// The single path from the front end to a backend: every op builds an OpCall and its result type, then
// calls apply(). Tracing (src/trace) hooks in here too, since a traced tensor's backend records the call.
#pragma once
#include <initializer_list>
#include <span>

#include "nxv/backend.hpp"
#include "ops/op.hpp"

namespace nxv {

// Runs `call` on the backend of the inputs (which must agree) and wraps the result as a tensor of `out`.
Tensor apply(const OpCall& call, std::span<const Tensor> inputs, const TensorType& out);
Tensor apply(const OpCall& call, std::initializer_list<Tensor> inputs, const TensorType& out);
// For ops without inputs (creation): runs on `backend`.
Tensor apply_on(Backend& backend, const OpCall& call, const TensorType& out);

// Validation helpers shared by the op files.
void check_defined(const Tensor& t, std::string_view op);
// Normalises an axis (negative counts from the end) or throws naming the op.
int normalize_axis(std::int64_t axis, int rank, std::string_view op);
// Normalises, checks for duplicates and sorts a list of axes.
Axes normalize_axes(const Axes& axes, int rank, std::string_view op, bool sort = true);
std::string shapes_of(std::span<const Tensor> ts);  // "f32[2, 3], s32[3]" for error messages
// size + low + high of an axis padded for conv or a window op. Their kernels read coordinate
// position - low, which spans [-low, size + high): nxv::Error naming `op` unless all of that fits int64.
std::int64_t padded_size(std::int64_t size, std::int64_t low, std::int64_t high, std::string_view op, int axis);

}  // namespace nxv
