// One case per gradient rule, checked against finite differences and Vulkan against reference
// (support/grad_cases.hpp: GradRules/GradFiniteDifference.*, GradRules/GradParity.*).
// A case is a function of float tensors plus the range its inputs are drawn from (kept away from the
// rule's non-differentiable points: log's 0, max's ties, remainder's jumps).
#include "support/grad_cases.hpp"

namespace nxv::testing {
namespace {

using Xs = std::vector<Tensor>;
using Input = GradInput;

GradCase unary(std::string name, Tensor (*f)(const Tensor&), double low = -2.0, double high = 2.0) {
  return {std::move(name), {{{2, 3}, low, high}}, [f](const Xs& x) { return f(x[0]); }};
}

template <class F>
GradCase binary(std::string name, F f, Input a, Input b) {
  return {std::move(name), {a, b}, [f](const Xs& x) { return f(x[0], x[1]); }};
}

std::vector<GradCase> cases() {
  std::vector<GradCase> c = {
      unary("negate", negate), unary("abs", abs), unary("sign", sign), unary("floor", floor), unary("ceil", ceil),
      unary("round", round), unary("square", square), unary("exp", exp), unary("expm1", expm1),
      unary("log", log, 0.3, 3.0), unary("log1p", log1p, -0.5, 2.0), unary("sqrt", sqrt, 0.3, 3.0),
      unary("rsqrt", rsqrt, 0.3, 3.0), unary("sigmoid", sigmoid), unary("tanh", tanh), unary("sin", sin),
      unary("cos", cos), unary("erf", erf), unary("reciprocal", reciprocal, 0.5, 2.0),
      unary("softplus", softplus, -3.0, 3.0), unary("asin", asin, -0.9, 0.9), unary("acos", acos, -0.9, 0.9),
      unary("atan", atan, -3.0, 3.0), unary("erfc", erfc), unary("log_sigmoid", log_sigmoid, -3.0, 3.0),
      unary("tan", tan, -1.2, 1.2), unary("sinh", sinh), unary("cosh", cosh), unary("asinh", asinh),
      unary("acosh", acosh, 1.2, 3.0), unary("atanh", atanh, -0.8, 0.8), unary("cbrt", cbrt, 0.3, 3.0),
      unary("erf_inv", erf_inv, -0.9, 0.9), unary("lgamma", lgamma, 0.3, 3.0),
      unary("lgamma_negative", lgamma, -0.9, -0.1), unary("digamma", digamma, 0.3, 3.0),
      unary("digamma_negative", digamma, -1.9, -1.1),
      // binary ops, with broadcasting on one side or both (un-broadcasting sums the cotangent)
      binary("add", [](auto a, auto b) { return a + b; }, {{2, 3}}, {{3}}),
      binary("subtract", [](auto a, auto b) { return a - b; }, {{2, 1}}, {{2, 3}}),
      binary("multiply", [](auto a, auto b) { return a * b; }, {{2, 3}}, {{}}),
      binary("divide", [](auto a, auto b) { return a / b; }, {{2, 3}}, {{2, 1}, 0.5, 2.0}),
      binary("pow", [](auto a, auto b) { return pow(a, b); }, {{2, 3}, 0.3, 2.0}, {{3}, -1.5, 2.5}),
      binary("pow_negative_base", [](auto a, auto) { return pow(a, 3.0); }, {{2, 3}, -2.0, -0.3}, {{1}}),
      binary("max", [](auto a, auto b) { return max(a, b); }, {{2, 3}}, {{2, 3}}),
      binary("min", [](auto a, auto b) { return min(a, b); }, {{2, 3}}, {{3}}),
      binary("remainder", [](auto a, auto b) { return remainder(a, b); }, {{2, 3}, -3.0, 3.0}, {{2, 3}, 0.7, 1.3}),
      binary("atan2", [](auto a, auto b) { return atan2(a, b); }, {{2, 3}}, {{2, 3}}),
      binary("xlogy", [](auto a, auto b) { return xlogy(a, b); }, {{2, 3}}, {{3}, 0.3, 3.0}),
      binary("xlog1py", [](auto a, auto b) { return xlog1py(a, b); }, {{2, 1}}, {{2, 3}, -0.5, 2.0}),
      // comparisons, argmax and integer values carry no gradient; the tensors they read still may
      binary("select_compare", [](auto a, auto b) { return select(greater(a, b), a * 2.0, b * b); }, {{2, 3}}, {{3}}),
      {"select_broadcast_pred", {{{2, 3}}, {{}}}, [](const Xs& x) { return select(greater(x[0], 0.0), x[0], x[1]); }},
      {"clip", {{{2, 3}}, {{2, 3}, -1.0, 0.0}, {{3}, 0.0, 1.0}}, [](const Xs& x) { return clip(x[0], x[1], x[2]); }},
      {"clip_scalars", {{{4, 3}}}, [](const Xs& x) { return clip(x[0], -0.5, 0.7); }},
      {"argmax_is_constant", {{{3, 4}}}, [](const Xs& x) { return as_type(argmax(x[0], 1), x[0].dtype()) * sum(x[0], Axes{1}); }},
      {"integer_cast_is_constant", {{{2, 3}}}, [](const Xs& x) { return as_type(as_type(x[0] * 3.0, DType::s32), x[0].dtype()) + x[0]; }},
      {"cast_f32", {{{2, 3}}}, [](const Xs& x) { return as_type(as_type(x[0], DType::f32) * as_type(x[0], DType::f32), x[0].dtype()); },
       {1e-3, 1e-3, 1e-3}},
      // reductions
      {"sum_axis", {{{2, 3, 4}}}, [](const Xs& x) { return sum(x[0], Axes{1}); }},
      {"sum_keep_axes", {{{2, 3, 4}}}, [](const Xs& x) { return sum(x[0], Axes{0, 2}, true) * x[0]; }},
      {"sum_all", {{{2, 3}}}, [](const Xs& x) { return sum(x[0]); }},
      {"mean", {{{2, 3}}}, [](const Xs& x) { return mean(x[0], Axes{0}); }},
      {"product", {{{2, 3}, 0.5, 1.5}}, [](const Xs& x) { return product(x[0], Axes{1}); }},
      {"product_negative", {{{3, 2}, -1.5, -0.5}}, [](const Xs& x) { return product(x[0]); }},
      {"reduce_max", {{{3, 4}}}, [](const Xs& x) { return reduce_max(x[0], Axes{1}); }},
      {"reduce_min_keep_axes", {{{3, 4}}}, [](const Xs& x) { return reduce_min(x[0], Axes{0}, true); }},
      {"logsumexp", {{{3, 5}}}, [](const Xs& x) {
         const Tensor m = stop_gradient(reduce_max(x[0], Axes{1}, true));
         return log(sum(exp(x[0] - m), Axes{1})) + squeeze(m, Axes{1});
       }},
      // dot in every orientation
      binary("dot_matmul", [](auto a, auto b) { return dot(a, b); }, {{3, 4}}, {{4, 2}}),
      binary("dot_vector_matrix", [](auto a, auto b) { return dot(a, b); }, {{4}}, {{4, 3}}),
      binary("dot_matrix_vector", [](auto a, auto b) { return dot(a, b); }, {{3, 4}}, {{4}}),
      binary("dot_inner", [](auto a, auto b) { return dot(a, b); }, {{5}}, {{5}}),
      binary("dot_transposed_a", [](auto a, auto b) { return dot(a, {0}, {}, b, {0}, {}); }, {{4, 3}}, {{4, 2}}),
      binary("dot_transposed_b", [](auto a, auto b) { return dot(a, {1}, {}, b, {1}, {}); }, {{3, 4}}, {{2, 4}}),
      binary("dot_two_contractions", [](auto a, auto b) { return dot(a, {2, 0}, {}, b, {0, 1}, {}); }, {{2, 3, 4}}, {{4, 2, 3}}),
      binary("dot_outer", [](auto a, auto b) { return dot(a, {}, {}, b, {}, {}); }, {{3}}, {{2}}),
      binary("dot_batch", [](auto a, auto b) { return dot(a, {2}, {0}, b, {1}, {0}); }, {{2, 3, 4}}, {{2, 4, 5}}),
      binary("dot_batch_inner_axes", [](auto a, auto b) { return dot(a, {0}, {2}, b, {2}, {1}); }, {{4, 3, 2}}, {{5, 2, 4}}),
      // movement
      {"reshape", {{{2, 3}}}, [](const Xs& x) { return reshape(x[0], {3, 2}) * iota({3, 2}, 0, x[0].dtype()); }},
      {"transpose", {{{2, 3, 4}}}, [](const Xs& x) { return transpose(x[0], Axes{2, 0, 1}); }},
      {"broadcast_new_axes", {{{3}}}, [](const Xs& x) { return broadcast(x[0], {2, 3, 4}, Axes{1}); }},
      {"broadcast_stretch", {{{2, 1}}}, [](const Xs& x) { return broadcast(x[0], {3, 2, 4}); }},
      {"slice_strided", {{{5, 6}}}, [](const Xs& x) { return slice(x[0], {1, 0}, {2, 3}, Axes{2, 2}); }},
      {"pad", {{{3, 4}}}, [](const Xs& x) { return pad(x[0], 1.5, {{1, 2, 1}, {-1, 1, 0}}); }},
      {"pad_negative_interior", {{{4, 3}}}, [](const Xs& x) { return pad(x[0], 0.0, {{-2, -1, 2}, {0, -1, 1}}); }},
      {"concatenate", {{{2, 1}}, {{2, 3}}, {{2, 2}}}, [](const Xs& x) { return concatenate({x[0], x[1], x[2]}, 1); }},
      {"reverse", {{{3, 4}}}, [](const Xs& x) { return reverse(x[0], Axes{1}) * iota({3, 4}, 1, x[0].dtype()); }},
      {"squeeze_expand", {{{2, 1, 3}}}, [](const Xs& x) { return expand_dims(squeeze(x[0]), 0); }},
      // compositions: a shared input's cotangents accumulate
      {"reused_input", {{{3}}}, [](const Xs& x) { return x[0] * sin(x[0]) + exp(x[0]) * x[0]; }},
      {"softmax_cross_entropy", {{{4, 5}}}, [](const Xs& x) {
         const Tensor labels = as_type(equal(iota({4, 5}, 1), remainder(iota({4, 1}, 0), 5)), x[0].dtype());
         const Tensor shifted = x[0] - reduce_max(x[0], Axes{1}, true);
         return mean(negate(sum(labels * (shifted - log(sum(exp(shifted), Axes{1}, true))), Axes{1})));
       }},
  };
  return c;
}

}  // namespace

NXV_GRAD_CASE_SUITES(GradRules, cases());

}  // namespace nxv::testing
