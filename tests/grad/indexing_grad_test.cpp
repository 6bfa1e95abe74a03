// Gradient rules of the indexing, sorting and scan ops (src/grad/rules_indexing.cpp), checked two ways: against
// central finite differences in f64 on the reference backend, and Vulkan against reference in f32 and f64 with
// zero fallbacks. Index data (constants captured by the functions) repeats indices and includes out-of-range
// ones, so the clamped reads and the dropped writes are differentiated too. Inputs are random, hence distinct,
// keeping sort and the running max/min away from their ties.
#include "nxv/indexing.hpp"
#include "support/grad_cases.hpp"

namespace nxv::testing {
namespace {

using Xs = std::vector<Tensor>;

template <class T>
Tensor indices(std::vector<T> values, const Shape& shape) {
  return tensor(values, shape, reference_backend());
}

struct IndexingCase {
  std::string name;
  std::vector<Shape> inputs;
  MultiFn fn;
  double low = -2.0, high = 2.0;
};

std::vector<GradCase> cases() {
  const Tensor take_idx = indices<std::int32_t>({2, 0, 2, -1, 7}, {5});
  const Tensor along_idx = indices<std::int64_t>({0, 2, 2, 1, 1, 1, 5, -2}, {2, 4});
  const Tensor rows = indices<std::int32_t>({1, 3, 1, 0, -1, 4}, {6, 1});
  const Tensor points = indices<std::int64_t>({0, 1, 2, 2, 0, 1, 2, 2, 3, 0}, {5, 2});
  const Tensor put_rows = indices<std::int32_t>({2, 0, 2, 5}, {4, 1});
  const std::vector<IndexingCase> table = {
      {"take_axis1", {{3, 4}}, [=](const Xs& x) { return take(x[0], take_idx, 1); }},
      {"take_axis0_matrix_indices",
       {{3, 2}},
       [=](const Xs& x) {
         return take(x[0], reshape(take_idx, {1, 5}), 0);
       }},
      {"take_along_axis", {{2, 3}}, [=](const Xs& x) { return take_along_axis(x[0], along_idx, 1); }},
      {"take_along_axis_axis0",
       {{3, 2}},
       [=](const Xs& x) {
         return take_along_axis(x[0], reshape(along_idx, {4, 2}), 0);
       }},
      {"gather_rows", {{4, 3}}, [=](const Xs& x) { return gather(x[0], rows); }},
      {"gather_points", {{3, 2}}, [=](const Xs& x) { return gather(x[0], points); }},
      {"indexed_add", {{4, 2}, {6, 2}}, [=](const Xs& x) { return indexed_add(x[0], rows, x[1]); }},
      {"indexed_put", {{4, 2}, {6, 2}}, [=](const Xs& x) { return indexed_put(x[0], rows, x[1]); }},
      {"indexed_put_repeats", {{3}, {4}}, [=](const Xs& x) { return indexed_put(x[0], put_rows, x[1]); }},
      {"put_slice",
       {{4, 3}, {2, 2}},
       [](const Xs& x) {
         return put_slice(x[0], {3, 1}, x[1]);
       }},
      {"sort", {{3, 5}}, [](const Xs& x) { return sort(x[0]); }},
      {"sort_descending_axis0", {{4, 3}}, [](const Xs& x) { return sort(x[0], 0, true); }},
      {"cumulative_sum", {{3, 4}}, [](const Xs& x) { return cumulative_sum(x[0], 1); }},
      {"cumulative_sum_reverse", {{3, 4}}, [](const Xs& x) { return cumulative_sum(x[0], 0, true); }},
      {"cumulative_product", {{2, 4}}, [](const Xs& x) { return cumulative_product(x[0], 1); }, 0.5, 1.5},
      {"cumulative_product_reverse", {{4}}, [](const Xs& x) { return cumulative_product(x[0], 0, true); }, -1.5, -0.5},
      {"cumulative_max", {{3, 6}}, [](const Xs& x) { return cumulative_max(x[0], 1); }},
      {"cumulative_max_reverse", {{6, 2}}, [](const Xs& x) { return cumulative_max(x[0], 0, true); }},
      {"cumulative_min", {{3, 6}}, [](const Xs& x) { return cumulative_min(x[0], 1); }},
      {"cumulative_min_reverse", {{2, 6}}, [](const Xs& x) { return cumulative_min(x[0], 1, true); }},
      {"top_k", {{3, 6}}, [](const Xs& x) { return top_k(x[0], 2).values; }},
      {"argsort_then_take", {{5}}, [](const Xs& x) { return take(x[0], argsort(x[0])) * x[0]; }},
  };
  std::vector<GradCase> out;
  for (const IndexingCase& c : table) {
    GradCase g{c.name, {}, c.fn};
    for (const Shape& s : c.inputs) g.inputs.push_back({s, c.low, c.high});
    g.seed = 7;
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace

NXV_GRAD_CASE_SUITES(Indexing, cases());

}  // namespace nxv::testing
