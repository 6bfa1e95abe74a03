// Parity of the movement ops at every rank up to 8: transpose, broadcast, slice (strided), pad (negative and
// interior), concatenate, reverse, and the views (reshape, squeeze, expand_dims). Every dtype: they move bytes,
// and element sizes 1, 4 and 8 take different shader variants.
#include <numeric>

#include "support/parity.hpp"

namespace nxv::testing {
namespace {

Shape shape_of_rank(int rank) {
  static const std::int64_t dims[] = {2, 3, 1, 4, 2, 3, 2, 2};
  return Shape(dims, dims + rank);
}

TEST(MovementParity, TransposeEveryRank) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes) {
    for (int r = 2; r <= kMaxRank; ++r) {
      Axes reversed;
      for (int i = r - 1; i >= 0; --i) reversed.push_back(i);
      expect_parity("transpose:" + std::string(name(t)), [&](auto& in) { return transpose(in[0], reversed); },
                    {test_data(t, shape_of_rank(r), 61)});
      Axes rotated;
      for (int i = 0; i < r; ++i) rotated.push_back((i + 1) % r);
      expect_parity("transpose:" + std::string(name(t)), [&](auto& in) { return transpose(in[0], rotated); },
                    {test_data(t, shape_of_rank(r), 62)});
    }
    expect_parity("transpose:" + std::string(name(t)), [](auto& in) { return transpose(in[0]); },
                  {test_data(t, {300, 257}, 63)});
    expect_parity("transpose:" + std::string(name(t)), [](auto& in) { return transpose(in[0]); },
                  {test_data(t, {0, 5}, 64)});
  }
}

TEST(MovementParity, Broadcast) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes) {
    const std::string cell = "broadcast:" + std::string(name(t));
    expect_parity(cell, [](auto& in) { return broadcast(in[0], {4, 3}); }, {test_data(t, {3}, 71)});
    expect_parity(cell, [](auto& in) { return broadcast(in[0], {3, 4}, Axes{0}); }, {test_data(t, {3}, 72)});
    expect_parity(cell,
                  [](auto& in) {
                    return broadcast(in[0], {2, 3, 1, 4, 2, 3, 2, 2}, Axes{1, 3});
                  },
                  {test_data(t, {3, 1}, 73)});
    expect_parity(cell, [](auto& in) { return broadcast(in[0], {5, 0}); }, {test_data(t, {1, 0}, 74)});
    expect_parity(cell, [](auto& in) { return broadcast(in[0], {1000, 70}); }, {test_data(t, {}, 75)});
  }
}

TEST(MovementParity, SliceWithStrides) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes) {
    const std::string cell = "slice:" + std::string(name(t));
    expect_parity(cell, [](auto& in) { return slice(in[0], {1, 2}, {3, 2}, Axes{2, 3}); }, {test_data(t, {7, 9}, 81)});
    expect_parity(cell, [](auto& in) { return slice(in[0], {0}, {0}); }, {test_data(t, {5}, 82)});
    expect_parity(
        cell,
        [](auto& in) {
          return slice(in[0], {1, 0, 0, 1, 0, 1, 1, 0}, {1, 2, 1, 2, 2, 1, 1, 2}, Axes{1, 2, 1, 2, 1, 1, 1, 1});
        },
        {test_data(t, shape_of_rank(8), 83)});
    expect_parity(cell,
                  [](auto& in) {
                    return slice(in[0], {3, 5}, {100, 50}, Axes{2, 5});
                  },
                  {test_data(t, {300, 257}, 84)});
  }
}

TEST(MovementParity, PadNegativeAndInterior) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes) {
    const std::string cell = "pad:" + std::string(name(t));
    expect_parity(cell, [](auto& in) { return pad(in[0], 7, {{1, 2, 0}, {0, 3, 1}}); }, {test_data(t, {3, 4}, 91)});
    expect_parity(cell,
                  [](auto& in) {
                    return pad(in[0], -1.5, {{-1, 2, 2}, {2, -3, 0}});
                  },
                  {test_data(t, {4, 5}, 92)});
    expect_parity(cell, [](auto& in) { return pad(in[0], 0, {{2, 2, 1}}); }, {test_data(t, {0}, 93)});
    expect_parity(cell, [](auto& in) { return pad(in[0], 1, {{1, 1, 0}}); }, {test_data(t, {1}, 94)});
    std::vector<PadConfig> cfg8;
    for (int i = 0; i < 8; ++i) cfg8.push_back({i % 3 - 1 > 0 ? 1 : 0, i % 2, i % 2});
    expect_parity(cell, [&](auto& in) { return pad(in[0], 3, cfg8); }, {test_data(t, shape_of_rank(8), 95)});
  }
}

TEST(MovementParity, ConcatenateAnyAxis) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes) {
    const std::string cell = "concatenate:" + std::string(name(t));
    for (int axis = 0; axis < 3; ++axis) {
      Shape a{2, 3, 4}, b{2, 3, 4};
      b[axis] = 1;
      Shape c = a;
      c[axis] = 0;
      expect_parity(cell, [axis](auto& in) { return concatenate(in, axis); },
                    {test_data(t, a, 101), test_data(t, b, 102), test_data(t, c, 103), test_data(t, a, 104)});
    }
    Shape r8 = shape_of_rank(8);
    expect_parity(cell, [](auto& in) { return concatenate(in, 7); }, {test_data(t, r8, 105), test_data(t, r8, 106)});
  }
}

TEST(MovementParity, ReverseAnyAxes) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes) {
    const std::string cell = "reverse:" + std::string(name(t));
    expect_parity(cell, [](auto& in) { return reverse(in[0]); }, {test_data(t, {1001}, 111)});
    expect_parity(cell, [](auto& in) { return reverse(in[0], Axes{1}); }, {test_data(t, {3, 5, 2}, 112)});
    expect_parity(cell,
                  [](auto& in) {
                    return reverse(in[0], Axes{0, 3, 5, 7});
                  },
                  {test_data(t, shape_of_rank(8), 113)});
  }
}

TEST(MovementParity, ViewsShareStorage) {
  NXV_REQUIRE_VULKAN();
  const Tensor x = test_data(DType::f32, {2, 3, 4}, 121).to(vulkan::backend());
  const Tensor r = reshape(x, {4, -1});
  EXPECT_EQ(r.storage(), x.storage());
  EXPECT_EQ(r.shape(), (Shape{4, 6}));
  EXPECT_EQ(squeeze(expand_dims(x, 1)).storage(), x.storage());
  expect_parity("reshape:f32",
                [](auto& in) {
                  return transpose(reshape(in[0], {6, 4}));
                },
                {test_data(DType::f32, {2, 3, 4}, 122)});
}

}  // namespace
}  // namespace nxv::testing
