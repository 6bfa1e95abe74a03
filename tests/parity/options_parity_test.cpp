// Parity of Nx's options on existing ops: argmax/argmin with tie_break: :high over every dtype (many ties, NaN),
// iota over a whole shape and batched eye in every dtype, gather / indexed_add / indexed_put along named axes, and
// slice / put_slice with device-resident start indices (in range, clamped from both sides, strided, empty),
// bit-identical with no host fallback; and Nx's tie rule for window_scatter_max/min.
#include "nxv/conv.hpp"
#include "nxv/grad.hpp"
#include "nxv/indexing.hpp"
#include "support/parity.hpp"

namespace nxv::testing {
namespace {

TEST(OptionsParity, ArgmaxArgminTieBreakHigh) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes) {
    const std::string sfx = ":" + std::string(name(t));
    for (std::optional<int> axis : {std::optional<int>{}, std::optional<int>{0}, std::optional<int>{-1}}) {
      for (bool keep : {false, true}) {
        expect_parity("argmax_high" + sfx, [&](auto& in) { return argmax(in[0], axis, keep, TieBreak::high); },
                      {test_data(t, {4, 9}, 121)});
        expect_parity("argmin_high" + sfx, [&](auto& in) { return argmin(in[0], axis, keep, TieBreak::high); },
                      {test_data(t, {4, 9}, 122)});
      }
    }
    // Few distinct values: many ties; rank 0 and size-1 axes.
    expect_parity("argmax_high" + sfx, [](auto& in) { return argmax(in[0], 1, false, TieBreak::high); },
                  {test_uniform(t, {16, 300}, 123, 0, 3)});
    expect_parity("argmin_high" + sfx, [](auto& in) { return argmin(in[0], std::nullopt, false, TieBreak::high); },
                  {test_uniform(t, {20000}, 124, 0, 3)});
    expect_parity("argmax_high" + sfx, [](auto& in) { return argmax(in[0], std::nullopt, false, TieBreak::high); },
                  {test_data(t, {}, 125)});
    expect_parity("argmin_high" + sfx, [](auto& in) { return argmin(in[0], 0, true, TieBreak::high); },
                  {test_data(t, {1, 7}, 126)});
  }
}

TEST(OptionsParity, IotaOverTheShapeAndBatchedEye) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes) {
    const std::string sfx = ":" + std::string(name(t));
    // Creation ops take no input: a zero-sized dummy keeps the harness's signature.
    for (const Shape& s : {Shape{3, 5, 7}, Shape{}, Shape{0, 4}, Shape{1}, Shape{300, 70}}) {
      expect_parity("iota_shape" + sfx, [&](auto& in) { return iota(s, std::nullopt, t, in[0].backend()); },
                    {test_data(t, {0}, 127)});
    }
    for (const Shape& s : {Shape{2, 3, 3}, Shape{4, 2, 5}, Shape{2, 0, 3, 3}, Shape{1, 1}, Shape{3, 64, 65}})
      expect_parity("eye_batched" + sfx, [&](auto& in) { return eye(s, t, in[0].backend()); },
                    {test_data(t, {0}, 128)});
  }
}

TEST(OptionsParity, SliceAndPutSliceWithDeviceStarts) {
  NXV_REQUIRE_VULKAN();
  const std::vector<std::pair<std::int64_t, std::int64_t>> starts = {{1, 2}, {-3, 40}, {5, -1}, {0, 0}, {9, 9}};
  for (DType t : real_dtypes) {
    const std::string sfx = ":" + std::string(name(t));
    const Tensor x = test_data(t, {6, 50}, 131);
    for (const auto& s : starts) {
      for (DType it : {DType::s32, DType::s64}) {
        const std::vector<Tensor> in = {x, scalar(static_cast<double>(s.first), it, reference_backend()),
                                        scalar(static_cast<double>(s.second), it, reference_backend())};
        expect_parity(
            "dynamic_slice" + sfx,
            [](auto& v) {
              return dynamic_slice(v[0], {v[1], v[2]}, {2, 7});
            },
            in);
        expect_parity(
            "dynamic_slice" + sfx,
            [](auto& v) {
              return dynamic_slice(v[0], {v[1], v[2]}, {3, 10}, Axes{2, 3});
            },
            in);
        expect_parity(
            "dynamic_slice" + sfx,
            [](auto& v) {
              return dynamic_slice(v[0], {v[1], v[2]}, {0, 4});
            },
            in);
        std::vector<Tensor> put = in;
        put.push_back(test_data(t, {3, 20}, 132));
        expect_parity(
            "dynamic_put_slice" + sfx,
            [](auto& v) {
              return dynamic_put_slice(v[0], {v[1], v[2]}, v[3]);
            },
            put);
      }
    }
    // Several workgroups of updates, and a rank-0 tensor.
    expect_parity("dynamic_put_slice" + sfx,
                  [](auto& v) {
                    return dynamic_put_slice(v[0], {v[1], v[2]}, v[3]);
                  },
                  {test_data(t, {300, 40}, 133), scalar(7, DType::s32, reference_backend()),
                   scalar(3, DType::s32, reference_backend()), test_data(t, {200, 30}, 134)});
    expect_parity("dynamic_put_slice" + sfx, [](auto& v) { return dynamic_put_slice(v[0], {}, v[1]); },
                  {test_data(t, {}, 135), test_data(t, {}, 136)});
  }
}

TEST(OptionsParity, IndexingAlongNamedAxes) {
  NXV_REQUIRE_VULKAN();
  // Indices repeat and fall outside (clamped reads, dropped writes), as in the plain ops' suites.
  const Tensor pairs = tensor<std::int32_t>({2, 1, 0, 4, 3, 3, -1, 9, 2, 1}, {5, 2}, reference_backend());
  const Tensor singles = tensor<std::int64_t>({3, 0, 3, 7, -2, 1}, {3, 2, 1}, reference_backend());
  for (DType t : real_dtypes) {
    const std::string sfx = ":" + std::string(name(t));
    const Tensor x = test_data(t, {4, 5, 6}, 151);
    for (const Axes& axes : {Axes{2, 0}, Axes{1, 2}, Axes{0, 1}}) {
      expect_parity("gather_axes" + sfx, [&](auto& in) { return gather(in[0], in[1], axes); }, {x, pairs});
      const Shape rest = axes == Axes{2, 0} ? Shape{5, 5} : axes == Axes{1, 2} ? Shape{5, 4} : Shape{5, 6};
      const Tensor updates = test_data(t, rest, 152);
      if (t != DType::pred)  // indexed_add sums, which pred does not (as the plain op)
        expect_parity("indexed_add_axes" + sfx, [&](auto& in) { return indexed_add(in[0], in[1], in[2], axes); },
                      {x, pairs, updates});
      expect_parity("indexed_put_axes" + sfx, [&](auto& in) { return indexed_put(in[0], in[1], in[2], axes); },
                    {x, pairs, updates});
    }
    expect_parity("gather_axes" + sfx, [](auto& in) { return gather(in[0], in[1], Axes{-2}); }, {x, singles});
    expect_parity("indexed_put_axes" + sfx, [](auto& in) { return indexed_put(in[0], in[1], in[2], Axes{1}); },
                  {x, singles, test_data(t, {3, 2, 4, 6}, 153)});
  }
}

// Nx's tie rule for window_scatter_max/min: a window of ties (relu zeros) sends its source to its LAST element in
// row-major window order, on both backends; so does the max-pool gradient.
TEST(OptionsParity, WindowScatterTiesGoToTheLastElement) {
  NXV_REQUIRE_VULKAN();
  const Tensor relu_zeros = max(test_uniform(DType::f32, {2, 4, 6}, 141, -1, 0), 0.0);  // all +0.0
  const Tensor source = test_uniform(DType::f32, {1, 2, 3}, 142, 1, 2);
  WindowOptions o;
  o.strides = {2, 2, 2};
  std::vector<float> want(48, 0.0f);
  const std::vector<float> src = source.to_vector<float>();
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) want[static_cast<std::size_t>(1 * 24 + (2 * i + 1) * 6 + 2 * j + 1)] = src[i * 3 + j];
  for (Backend* b : {&reference_backend(), &vulkan::backend()}) {
    const Tensor init = scalar(0.0, DType::f32, *b);
    EXPECT_EQ(window_scatter_max(relu_zeros.to(*b), source.to(*b), init, {2, 2, 2}, o).to_vector<float>(), want)
        << b->name();
    EXPECT_EQ(window_scatter_min(relu_zeros.to(*b), source.to(*b), init, {2, 2, 2}, o).to_vector<float>(), want)
        << b->name();
    // The max-pool gradient over the zeros: each window's cotangent lands on its last element.
    const Tensor g = grad([&](const Tensor& t) {
      return sum(window_max(t, {2, 2, 2}, o) * source.to(*b));
    })(relu_zeros.to(*b));
    EXPECT_EQ(g.to_vector<float>(), want) << b->name();
  }
  for (DType t : real_dtypes) {
    if (t == DType::pred) continue;
    const Tensor ties = as_type(test_uniform(DType::f32, {5, 8}, 143, 0, 2), t);  // many ties once converted
    expect_parity("window_scatter_max:" + std::string(name(t)),
                  [](auto& in) {
                    return window_scatter_max(in[0], in[1], scalar(0.0, in[1].dtype(), in[0].backend()), {2, 3});
                  },
                  {ties, test_data(t, {4, 6}, 144, false)});
  }
}

}  // namespace
}  // namespace nxv::testing
