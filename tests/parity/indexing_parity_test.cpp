// Parity of the indexing, sorting and scan ops (include/nxv/indexing.hpp): Vulkan = reference bit for bit with
// zero host fallbacks, for every value dtype and both index dtypes. Index data deliberately includes repeats and
// out-of-range values (negative and past the end), since both backends must clamp reads and drop writes alike;
// float indexed_add with many repeats checks the accumulation order; sorts check stability on many ties, NaN and
// signed zeros, and rows long enough to need several merge passes.
#include <random>

#include "nxv/indexing.hpp"
#include "support/parity.hpp"

namespace nxv::testing {
namespace {

const std::vector<DType> kValueTypes = numeric_dtypes();
constexpr DType kIndexTypes[] = {DType::s32, DType::s64};

std::string cell(const char* op, DType t) { return std::string(op) + ":" + std::string(name(t)); }

// Random integers in [low, high) as an index tensor of `dtype` on the reference backend.
Tensor random_indices(DType dtype, const Shape& shape, std::int64_t low, std::int64_t high, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> pick(low, high - 1);
  std::vector<std::int64_t> v(static_cast<std::size_t>(num_elements(shape)));
  for (auto& x : v) x = pick(rng);
  return as_type(tensor(v, shape, reference_backend()), dtype);
}

// Values drawn from {0, 1, 2} (as `dtype`): sorts with many ties.
Tensor few_values(DType dtype, const Shape& shape, std::uint64_t seed) {
  return as_type(random_indices(DType::s32, shape, 0, 3, seed), dtype);
}

TEST(IndexingParity, TakeEveryAxisAndRankUpToEight) {
  NXV_REQUIRE_VULKAN();
  for (DType t : kValueTypes)
    for (DType it : kIndexTypes) {
      const Tensor x = test_data(t, {4, 5, 3}, 11);
      for (int axis = 0; axis < 3; ++axis)
        expect_parity(cell("take", t), [axis](auto& in) { return take(in[0], in[1], axis); },
                      {x, random_indices(it, {2, 3}, -2, 8, 12 + axis)});
      const Tensor x7 = test_data(t, {2, 1, 3, 2, 1, 2, 2}, 13);
      expect_parity(cell("take", t), [](auto& in) { return take(in[0], in[1], 3); },
                    {x7, random_indices(it, {3}, -1, 3, 14)});
      expect_parity(cell("take", t), [](auto& in) { return take(in[0], in[1], 1); },
                    {x, random_indices(it, {0}, 0, 1, 15)});
      expect_parity(cell("take", t), [](auto& in) { return take(in[0], in[1], 0); },
                    {test_data(t, {0, 2}, 16), random_indices(it, {0}, 0, 1, 17)});
    }
}

TEST(IndexingParity, TakeAlongAxisWithBroadcastingAndRankEight) {
  NXV_REQUIRE_VULKAN();
  for (DType t : kValueTypes)
    for (DType it : kIndexTypes) {
      expect_parity(cell("take_along_axis", t), [](auto& in) { return take_along_axis(in[0], in[1], 1); },
                    {test_data(t, {4, 6}, 21), random_indices(it, {4, 9}, -3, 9, 22)});
      expect_parity(cell("take_along_axis", t), [](auto& in) { return take_along_axis(in[0], in[1], 0); },
                    {test_data(t, {5, 1, 3}, 23), random_indices(it, {2, 4, 1}, 0, 5, 24)});
      const Shape s8{2, 1, 2, 3, 1, 2, 2, 2};
      expect_parity(cell("take_along_axis", t), [](auto& in) { return take_along_axis(in[0], in[1], 3); },
                    {test_data(t, s8, 25), random_indices(it, {2, 1, 2, 4, 1, 2, 2, 2}, -1, 4, 26)});
    }
}

TEST(IndexingParity, GatherElementsAndSlices) {
  NXV_REQUIRE_VULKAN();
  for (DType t : kValueTypes)
    for (DType it : kIndexTypes) {
      const Tensor x = test_data(t, {4, 3, 5}, 31);
      for (int k = 1; k <= 3; ++k)
        expect_parity(cell("gather", t), [](auto& in) { return gather(in[0], in[1]); },
                      {x, random_indices(it, {6, k}, -2, 7, 32 + k)});
      expect_parity(cell("gather", t), [](auto& in) { return gather(in[0], in[1]); },
                    {test_data(t, {2, 2, 1, 2, 2, 1, 2, 3}, 36), random_indices(it, {2, 2, 5}, 0, 2, 37)});
      expect_parity(cell("gather", t), [](auto& in) { return gather(in[0], in[1]); },
                    {x, random_indices(it, {0, 2}, 0, 1, 38)});
    }
}

TEST(IndexingParity, IndexedAddRepeatsAndOutOfRange) {
  NXV_REQUIRE_VULKAN();
  for (DType t : kValueTypes)
    for (DType it : kIndexTypes) {
      // 3000 updates onto 7 rows: hundreds of float additions per element, in update order.
      expect_parity(cell("indexed_add", t), [](auto& in) { return indexed_add(in[0], in[1], in[2]); },
                    {test_data(t, {7, 3}, 41, false), random_indices(it, {3000, 1}, -1, 8, 42),
                     test_data(t, {3000, 3}, 43, false)});
      expect_parity(
          cell("indexed_add", t), [](auto& in) { return indexed_add(in[0], in[1], in[2]); },
          {test_data(t, {4, 3, 2}, 44), random_indices(it, {5, 2, 2}, -1, 4, 45), test_data(t, {5, 2, 2}, 46)});
      expect_parity(cell("indexed_add", t), [](auto& in) { return indexed_add(in[0], in[1], in[2]); },
                    {test_data(t, {4, 3}, 47), random_indices(it, {0, 1}, 0, 1, 48), test_data(t, {0, 3}, 49)});
      expect_parity(
          cell("indexed_add", t), [](auto& in) { return indexed_add(in[0], in[1], in[2]); },
          {test_data(t, {2, 2, 1, 2, 1, 2, 2, 2}, 50), random_indices(it, {9, 8}, 0, 2, 51), test_data(t, {9}, 52)});
    }
}

TEST(IndexingParity, IndexedPutLastUpdateWins) {
  NXV_REQUIRE_VULKAN();
  for (DType t : kValueTypes)
    for (DType it : kIndexTypes) {
      expect_parity(cell("indexed_put", t), [](auto& in) { return indexed_put(in[0], in[1], in[2]); },
                    {test_data(t, {6, 2}, 61), random_indices(it, {40, 1}, -2, 8, 62), test_data(t, {40, 2}, 63)});
      expect_parity(cell("indexed_put", t), [](auto& in) { return indexed_put(in[0], in[1], in[2]); },
                    {test_data(t, {3, 4}, 64), random_indices(it, {10, 2}, 0, 4, 65), test_data(t, {10}, 66)});
    }
  expect_parity("indexed_put:pred", [](auto& in) { return indexed_put(in[0], in[1], in[2]); },
                {test_data(DType::pred, {5}, 67), random_indices(DType::s32, {9, 1}, -1, 6, 68),
                 test_data(DType::pred, {9}, 69)});
}

TEST(IndexingParity, PutSliceClampedAndRankEight) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes) {
    expect_parity(cell("put_slice", t),
                  [](auto& in) {
                    return put_slice(in[0], {1, 7}, in[1]);
                  },
                  {test_data(t, {4, 5}, 71), test_data(t, {2, 3}, 72)});
    expect_parity(cell("put_slice", t),
                  [](auto& in) {
                    return put_slice(in[0], {0, 1, -3, 0, 1, 0, 5, 0}, in[1]);
                  },
                  {test_data(t, {2, 3, 2, 1, 3, 2, 2, 2}, 73), test_data(t, {1, 2, 1, 1, 2, 2, 1, 2}, 74)});
    expect_parity(cell("put_slice", t),
                  [](auto& in) {
                    return put_slice(in[0], {0, 0}, in[1]);
                  },
                  {test_data(t, {3, 0}, 75), test_data(t, {1, 0}, 76)});
  }
}

TEST(IndexingParity, SortAndArgsortStableOnTiesNaNAndZeros) {
  NXV_REQUIRE_VULKAN();
  for (DType t : kValueTypes)
    for (bool desc : {false, true}) {
      const std::vector<Tensor> inputs[] = {
          {test_data(t, {5, 37}, 81)},    // special values: NaN, +-inf, +-0, extremes
          {few_values(t, {3, 300}, 82)},  // many ties
          {test_data(t, {1}, 83)},
          {test_data(t, {0, 4}, 84)},
      };
      for (const auto& in : inputs) {
        expect_parity(
            cell("sort", t), [desc](auto& x) { return sort(x[0], -1, desc); }, in);
        expect_parity(
            cell("argsort", t), [desc](auto& x) { return argsort(x[0], -1, desc); }, in);
      }
      // a middle axis (moved last and back)
      expect_parity(cell("argsort", t), [desc](auto& x) { return argsort(x[0], 1, desc); },
                    {test_data(t, {3, 50, 4}, 85)});
      expect_parity(cell("sort", t), [desc](auto& x) { return sort(x[0], 0, desc); }, {few_values(t, {64, 3}, 86)});
    }
  expect_parity("argsort:pred", [](auto& x) { return argsort(x[0]); }, {test_data(DType::pred, {2, 33}, 87)});
}

// 5000 elements: tiles of 1024, then merge passes of width 1024, 2048 and 4096.
TEST(IndexingParity, SortLongRowsNeedingSeveralMergePasses) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::f32, DType::s64, DType::u8})
    for (bool desc : {false, true}) {
      expect_parity(cell("argsort", t), [desc](auto& x) { return argsort(x[0], -1, desc); },
                    {test_data(t, {2, 5000}, 91)});
      expect_parity(cell("sort", t), [desc](auto& x) { return sort(x[0], -1, desc); }, {few_values(t, {5000}, 92)});
    }
  expect_parity(cell("argsort", DType::f64), [](auto& x) { return argsort(x[0], 0); },
                {test_data(DType::f64, {3000, 2}, 93)});
}

TEST(IndexingParity, CumulativeEveryFunctionDirectionAndAxis) {
  NXV_REQUIRE_VULKAN();
  using Scan = Tensor (*)(const Tensor&, int, bool);
  const std::pair<const char*, Scan> scans[] = {{"cumulative_sum", cumulative_sum},
                                                {"cumulative_product", cumulative_product},
                                                {"cumulative_max", cumulative_max},
                                                {"cumulative_min", cumulative_min}};
  for (DType t : kValueTypes)
    for (const auto& [op, scan] : scans)
      for (bool reverse : {false, true}) {
        const Scan f = scan;
        for (int axis = 0; axis < 3; ++axis)
          expect_parity(cell(op, t), [f, axis, reverse](auto& x) { return f(x[0], axis, reverse); },
                        {test_data(t, {4, 33, 3}, 101 + axis)});
        expect_parity(cell(op, t), [f, reverse](auto& x) { return f(x[0], 0, reverse); }, {test_data(t, {0, 3}, 105)});
        expect_parity(cell(op, t), [f, reverse](auto& x) { return f(x[0], 6, reverse); },
                      {test_data(t, {2, 1, 2, 1, 2, 2, 3, 2}, 106)});
      }
}

TEST(IndexingParity, TopK) {
  NXV_REQUIRE_VULKAN();
  for (DType t : kValueTypes) {
    expect_parity(cell("top_k", t), [](auto& x) { return top_k(x[0], 3).values; }, {few_values(t, {4, 10}, 111)});
    expect_parity(cell("top_k", t), [](auto& x) { return top_k(x[0], 5).indices; }, {test_data(t, {3, 2, 17}, 112)});
  }
}

}  // namespace
}  // namespace nxv::testing
