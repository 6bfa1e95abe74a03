// Helpers of the kernel tests: run one OpCall on the reference and on the Vulkan backend and expect
// bit-identical results with no host fallback. Calls are built directly (not through the front end) so that a
// test controls every attribute -- strides, orientations, pad configurations -- the kernels see.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "nxv/fallback.hpp"
#include "nxv/vulkan.hpp"
#include "ops/op.hpp"
#include "support/parity.hpp"

namespace nxv::vulkan::test {

inline OpCall make_call(OpCode code, OpAttrs attrs = {}) { return OpCall{code, std::move(attrs)}; }

// The attributes of elementwise function `fn`, an id of shared/elementwise.def (for loops over the ids).
inline UnaryAttrs unary_attrs(int fn) { return {static_cast<UnaryFn>(fn)}; }
inline BinaryAttrs binary_attrs(int fn) { return {static_cast<BinaryFn>(fn)}; }

inline ReduceAttrs reduce_attrs(ReduceFn fn, const Axes& axes) { return {.fn = fn, .axes = axes}; }

// A reduction's result shape over `axes` without keep_axes: the other axes of `s`.
inline Shape reduced_shape(const Shape& s, const Axes& axes) {
  Shape out;
  for (int d = 0; d < s.size(); ++d)
    if (!axes.contains(d)) out.push_back(s[d]);
  return out;
}

inline Tensor execute_on(Backend& backend, const OpCall& call, const std::vector<Tensor>& inputs,
                         const TensorType& out) {
  std::vector<Tensor> moved;
  for (const Tensor& t : inputs) moved.push_back(t.to(backend));
  return Tensor(out, backend, backend.execute(call, moved, out));
}

// `what` names the case in failure messages (op, dtype, shapes). `may_fall_back`: the op may legitimately take
// the host fallback on this device (it must still be correct).
// On a device that flushes f32 denormals, the bound of testing::expect_parity applies.
inline void expect_kernel_parity(const OpCall& call, const std::vector<Tensor>& given_inputs, const TensorType& out,
                                 const std::string& what, bool may_fall_back = false) {
  const bool flush = testing::vulkan_flushes_f32_denormals();
  std::vector<Tensor> inputs;
  for (const Tensor& t : given_inputs) inputs.push_back(flush ? testing::flush_f32_denormals(t) : t);
  const Tensor expected = execute_on(reference_backend(), call, inputs, out);
  Tensor actual;
  const fallback::Counts fallbacks = fallback::unexplained_by_device(
      fallback::count([&] { actual = execute_on(vulkan::backend(), call, inputs, out).to_host(); }));
  EXPECT_TRUE(may_fall_back || fallbacks.empty()) << what << ": fell back to the host as " << fallbacks.begin()->first;
  const std::string diff =
      flush ? testing::compare_exact(testing::flush_f32_denormals(expected), testing::flush_f32_denormals(actual))
            : testing::compare_exact(expected, actual);
  EXPECT_TRUE(diff.empty()) << what << " (" << to_string(out) << "): " << diff;
}

inline std::string shape_text(const std::vector<Tensor>& inputs) {
  std::string s;
  for (const Tensor& t : inputs) s += (s.empty() ? "" : ", ") + to_string(t.type());
  return s;
}

}  // namespace nxv::vulkan::test
