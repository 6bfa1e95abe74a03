// Parity of the window ops (Vulkan = reference, bit for bit, zero fallbacks): pooling with strides, padding and
// dilation, overlapping and non-overlapping windows, windows over every axis, 5-D pooling, every numeric dtype;
// window_scatter_max/min with ties (relu zeros, all-zero and constant inputs), NaN, padding and overlap.
#include "nxv/conv.hpp"
#include "support/parity.hpp"

namespace nxv::testing {
namespace {

struct WindowCase {
  const char* name;
  Shape x, window;
  WindowOptions options;
};

WindowOptions with(auto&& set) {
  WindowOptions o;
  set(o);
  return o;
}

const WindowCase k_cases[] = {
    {"pool-2x2", {2, 3, 8, 8}, {1, 1, 2, 2}, with([](WindowOptions& o) {
       o.strides = {1, 1, 2, 2};
     })},
    {"pool-odd", {2, 3, 7, 9}, {1, 1, 2, 2}, with([](WindowOptions& o) {
       o.strides = {1, 1, 2, 2};
     })},
    {"overlap-3x3-same", {2, 2, 6, 7}, {1, 1, 3, 3}, with([](WindowOptions& o) {
       o.padding = {{0, 0}, {0, 0}, {1, 1}, {1, 1}};
     })},
    {"strided-padded-dilated", {2, 2, 9, 8}, {1, 1, 2, 3}, with([](WindowOptions& o) {
       o.strides = {1, 1, 2, 1};
       o.padding = {{0, 0}, {0, 0}, {1, 0}, {2, 1}};
       o.window_dilations = {1, 1, 2, 2};
     })},
    {"every-axis", {4, 3, 5, 5}, {2, 1, 3, 3}, with([](WindowOptions& o) {
       o.strides = {2, 1, 1, 2};
     })},
    {"pool-3d", {2, 2, 4, 4, 4}, {1, 1, 2, 2, 2}, with([](WindowOptions& o) {
       o.strides = {1, 1, 2, 2, 2};
     })},
    {"vector", {11}, {3}, with([](WindowOptions& o) {
       o.padding = {{2, 2}};
     })},
};

template <class F>
void for_each_case(F&& f) {
  for (const WindowCase& c : k_cases) {
    SCOPED_TRACE(c.name);
    f(c);
  }
}

TEST(WindowParity, ReductionsInEveryDtype) {
  NXV_REQUIRE_VULKAN();
  for (DType t : numeric_dtypes()) {
    const std::string dt(name(t));
    for_each_case([&](const WindowCase& c) {
      const Tensor x = is_float(t) ? test_uniform(t, c.x, 401, -2, 2) : test_uniform(t, c.x, 401, 0, 5);
      expect_parity("window_sum:" + dt, [&](auto& in) { return window_sum(in[0], c.window, c.options); }, {x});
      expect_parity("window_max:" + dt, [&](auto& in) { return window_max(in[0], c.window, c.options); }, {x});
      expect_parity("window_min:" + dt, [&](auto& in) { return window_min(in[0], c.window, c.options); }, {x});
      expect_parity("window_product:" + dt, [&](auto& in) { return window_product(in[0], c.window, c.options); }, {x});
    });
  }
}

TEST(WindowParity, SpecialValues) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::f32, DType::f64}) {
    const std::string dt(name(t));
    for_each_case([&](const WindowCase& c) {
      const Tensor x = test_data(t, c.x, 402);
      expect_parity("window_sum:" + dt, [&](auto& in) { return window_sum(in[0], c.window, c.options); }, {x});
      expect_parity("window_max:" + dt, [&](auto& in) { return window_max(in[0], c.window, c.options); }, {x});
      expect_parity("window_min:" + dt, [&](auto& in) { return window_min(in[0], c.window, c.options); }, {x});
    });
  }
}

// Scatters of random sources over x with many ties: relu of random data, all zeros, a constant.
TEST(WindowParity, ScatterTiesGoToTheFirstElementOnBothBackends) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::f32, DType::f64, DType::s32}) {
    const std::string dt(name(t));
    for_each_case([&](const WindowCase& c) {
      const Tensor random = is_float(t) ? test_uniform(t, c.x, 403, -1, 1) : test_uniform(t, c.x, 403, -3, 3);
      const Tensor source_shape = window_max(random, c.window, c.options);
      const Tensor source = is_float(t) ? test_uniform(t, source_shape.shape(), 404, -1, 1)
                                        : test_uniform(t, source_shape.shape(), 404, -9, 9);
      const Tensor init = scalar(0.25, t, reference_backend());
      for (const Tensor& x :
           {max(random, 0.0), zeros(c.x, t, reference_backend()), full(c.x, 3.0, t, reference_backend())}) {
        expect_parity("window_scatter_max:" + dt,
                      [&](auto& in) { return window_scatter_max(in[0], in[1], in[2], c.window, c.options); },
                      {as_type(x, t), source, init});
        expect_parity("window_scatter_min:" + dt,
                      [&](auto& in) { return window_scatter_min(in[0], in[1], in[2], c.window, c.options); },
                      {as_type(x, t), source, init});
      }
    });
  }
}

TEST(WindowParity, ScatterWithNanAndSpecialValues) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::f32, DType::f64}) {
    for_each_case([&](const WindowCase& c) {
      const Tensor x = test_data(t, c.x, 405);
      const Tensor source = test_uniform(t, window_max(x, c.window, c.options).shape(), 406, -1, 1);
      expect_parity("window_scatter_max:" + std::string(name(t)),
                    [&](auto& in) { return window_scatter_max(in[0], in[1], in[2], c.window, c.options); },
                    {x, source, scalar(0.0, t, reference_backend())});
    });
  }
}

}  // namespace
}  // namespace nxv::testing
