// Parity of dot: the four 2-D orientations that gradients produce, batch axes, several contraction axes,
// vectors, sizes that are not multiples of the tile, K = 0, every numeric dtype.
#include "support/parity.hpp"

namespace nxv::testing {
namespace {

struct DotCase {
  const char* name;
  Shape a, b;
  Axes ca, ba, cb, bb;
};
const DotCase k_cases[] = {
    {"[1]/[0]", {37, 29}, {29, 41}, {1}, {}, {0}, {}},
    {"[1]/[1]", {37, 29}, {41, 29}, {1}, {}, {1}, {}},
    {"[0]/[0]", {29, 37}, {29, 41}, {0}, {}, {0}, {}},
    {"[0]/[1]", {29, 37}, {41, 29}, {0}, {}, {1}, {}},
    {"batch", {3, 17, 9}, {3, 9, 11}, {2}, {0}, {1}, {0}},
    {"batch-last", {17, 9, 3}, {11, 3, 9}, {1}, {2}, {2}, {1}},
    {"two-contractions", {4, 5, 6}, {6, 5, 7}, {1, 2}, {}, {1, 0}, {}},
    {"vector-matrix", {29}, {29, 13}, {0}, {}, {0}, {}},
    {"outer", {5}, {6}, {}, {}, {}, {}},
    {"k=0", {4, 0}, {0, 3}, {1}, {}, {0}, {}},
    {"large", {130, 200}, {200, 70}, {1}, {}, {0}, {}},
};

TEST(DotParity, EveryOrientationEveryDtype) {
  NXV_REQUIRE_VULKAN();
  for (DType t : numeric_dtypes()) {
    for (const DotCase& c : k_cases) {
      // Integer data stays small so that products are meaningful (overflow wraps identically anyway).
      const Tensor a = is_float(t) ? test_uniform(t, c.a, 131, -2, 2) : test_uniform(t, c.a, 131, 0, 20);
      const Tensor b = is_float(t) ? test_uniform(t, c.b, 132, -2, 2) : test_uniform(t, c.b, 132, 0, 20);
      SCOPED_TRACE(c.name);
      expect_parity("dot:" + std::string(name(t)), [&](auto& in) { return dot(in[0], c.ca, c.ba, in[1], c.cb, c.bb); },
                    {a, b});
    }
    expect_parity("dot:" + std::string(name(t)), [](auto& in) { return dot(in[0], in[1]); },
                  {test_data(t, {8, 16}, 133), test_data(t, {16, 8}, 134)});
  }
}

}  // namespace
}  // namespace nxv::testing
