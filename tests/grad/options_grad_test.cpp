// Gradients through Nx's options on existing ops, which compose the primitives (their rules apply): slice and
// put_slice with tensor starts (take's and indexed_put's rules, starts clamped), argmax with tie_break: :high (a
// constant), batched eye as a constant factor, gather / indexed_add / indexed_put along named axes (transpose's
// rule around the ops'); checked by the gradient-case harness (support/grad_cases.hpp).
#include "nxv/indexing.hpp"
#include "support/grad_cases.hpp"

namespace nxv::testing {
namespace {

using Xs = std::vector<Tensor>;

Tensor start(std::int64_t v) { return scalar(static_cast<double>(v), DType::s64, reference_backend()); }

std::vector<GradCase> cases() {
  const Tensor s1 = start(1), s2 = start(2), s_low = start(-4), s_high = start(9);
  // (axis 2, axis 0) pairs into [3, 4, 2] and columns of [3, 4], one of each repeated.
  const Tensor pairs = tensor<std::int32_t>({1, 2, 0, 0, 1, 2}, {3, 2}, reference_backend());
  const Tensor cols = tensor<std::int32_t>({3, 0, 3}, {3, 1}, reference_backend());
  return {
      {"dynamic_slice",
       {{{4, 5}}},
       [s1, s2](const Xs& x) {
         return dynamic_slice(x[0], {s1, s2}, {2, 3});
       }},
      {"dynamic_slice_clamped_strided",
       {{{4, 6}}},
       [s_low, s_high](const Xs& x) {
         return dynamic_slice(x[0], {s_high, s_low}, {2, 3}, Axes{1, 2});
       }},
      {"dynamic_put_slice",
       {{{4, 5}}, {{2, 2}}},
       [s1, s_high](const Xs& x) {
         return dynamic_put_slice(x[0], {s1, s_high}, x[1] * x[1]);
       }},
      {"argmax_high_is_constant",
       {{{3, 4}}},
       [](const Xs& x) { return as_type(argmax(x[0], 1, false, TieBreak::high), x[0].dtype()) * sum(x[0], Axes{1}); }},
      {"gather_axes",
       {{{3, 4, 2}}},
       [pairs](const Xs& x) {
         return gather(x[0], pairs, Axes{2, 0});
       }},
      {"indexed_add_axes",
       {{{3, 4}}, {{3, 3}}},
       [cols](const Xs& x) { return indexed_add(x[0], cols, x[1], Axes{1}); }},
      {"indexed_put_axes",
       {{{3, 4}}, {{3, 3}}},
       [cols](const Xs& x) { return indexed_put(x[0], cols, x[1], Axes{1}); }},
      {"eye_batched",
       {{{2, 3, 3}}},
       [](const Xs& x) {
         return x[0] * eye({2, 3, 3}, x[0].dtype());
       }},
  };
}

NXV_GRAD_CASE_SUITES(Options, cases());

}  // namespace
}  // namespace nxv::testing
