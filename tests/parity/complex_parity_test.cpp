// Parity of the complex ops (src/ops/complex.cpp, complex_lowering.cpp) on Vulkan: every op with a complex form,
// on c64 and c128 with the special-value pools in either part, over empty, rank-0, size-1 and multi-workgroup
// shapes, bit-identical to the reference with no host fallback (the lowering gives both backends the same real
// ops). The accuracy of the formulas themselves is tests/ops/complex_test.cpp's.
#include "nxv/defn.hpp"
#include "support/parity.hpp"

namespace nxv::testing {
namespace {

const Shape kShapes[] = {{3, 5, 7}, {}, {0, 4}, {1}, {4097}};

// On a device that flushes f32 denormals the composite formulas flush their intermediate values too, which the
// harness's bound (inputs and results flushed) does not cover: c64 draws no special values there.
bool specials(DType t) { return !(t == DType::c64 && vulkan_flushes_f32_denormals()); }

TEST(ComplexParity, UnaryOps) {
  NXV_REQUIRE_VULKAN();
  const std::vector<std::pair<const char*, Tensor (*)(const Tensor&)>> ops = {{"negate", negate},
                                                                              {"abs", abs},
                                                                              {"sign", sign},
                                                                              {"square", square},
                                                                              {"exp", exp},
                                                                              {"log", log},
                                                                              {"sqrt", sqrt},
                                                                              {"rsqrt", rsqrt},
                                                                              {"sin", sin},
                                                                              {"cos", cos},
                                                                              {"real", real},
                                                                              {"imag", imag},
                                                                              {"conjugate", conjugate},
                                                                              {"phase", phase},
                                                                              {"is_nan", is_nan},
                                                                              {"reciprocal", reciprocal},
                                                                              {"is_infinity", is_infinity},
                                                                              {"logical_not", logical_not}};
  for (DType t : complex_dtypes)
    for (const auto& [op_name, op] : ops)
      for (const Shape& s : kShapes)
        // A copy to capture: clang does not capture structured bindings (C++20's P1091 is not in clang 14).
        expect_parity(std::string(op_name) + ":" + std::string(name(t)), [fn = op](auto& in) { return fn(in[0]); },
                      {test_data(t, s, 301, specials(t))});
}

TEST(ComplexParity, BinaryOpsBroadcastAndPromote) {
  NXV_REQUIRE_VULKAN();
  const std::vector<std::pair<const char*, Tensor (*)(const Tensor&, const Tensor&)>> ops = {
      {"add", add}, {"subtract", subtract}, {"multiply", multiply},   {"divide", divide},
      {"pow", pow}, {"equal", equal},       {"not_equal", not_equal}, {"logical_and", logical_and}};
  for (DType t : complex_dtypes)
    for (const auto& [op_name, op] : ops) {
      const std::string cell = std::string(op_name) + ":" + std::string(name(t));
      for (const Shape& s : kShapes)
        expect_parity(cell, [fn = op](auto& in) { return fn(in[0], in[1]); },
                      {test_data(t, s, 302, specials(t)), test_data(t, s, 303, specials(t))});
      // [5, 1] with [7] broadcast; a real operand (f32) promotes.
      expect_parity(cell, [fn = op](auto& in) { return fn(in[0], in[1]); },
                    {test_data(t, {5, 1}, 304, specials(t)), test_data(DType::f32, {7}, 305, specials(t))});
    }
}

TEST(ComplexParity, MovementIndexingAndCasts) {
  NXV_REQUIRE_VULKAN();
  for (DType t : complex_dtypes) {
    const std::string dt(name(t));
    const Tensor x = test_data(t, {4, 6, 5}, 306, specials(t));
    expect_parity("transpose:" + dt, [](auto& in) { return transpose(in[0], Axes{2, 0, 1}); }, {x});
    expect_parity("slice:" + dt, [](auto& in) { return slice(in[0], {1, 0, 1}, {2, 3, 2}, Axes{1, 2, 2}); }, {x});
    expect_parity("pad:" + dt, [](auto& in) { return pad(in[0], -1.5, {{1, 0, 1}, {0, 2, 0}, {-1, 1, 0}}); }, {x});
    expect_parity("reverse:" + dt, [](auto& in) { return reverse(in[0], Axes{0, 2}); }, {x});
    expect_parity("concatenate:" + dt, [](auto& in) { return concatenate({in[0], in[0]}, 1); }, {x});
    expect_parity("broadcast:" + dt, [](auto& in) { return broadcast(in[0], {3, 4, 6, 5}); }, {x});
    expect_parity("take:" + dt, [](auto& in) { return take(in[0], in[1], 1); },
                  {x, test_uniform(DType::s64, {7}, 307, 0, 6)});
    expect_parity("select:" + dt, [](auto& in) { return select(in[0], in[1], in[2]); },
                  {test_data(DType::pred, {4, 6, 5}, 308), x, test_data(t, {5}, 309, specials(t))});
    expect_parity("put_slice:" + dt,
                  [](auto& in) {
                    return put_slice(in[0], {1, 2, 0}, in[1]);
                  },
                  {x, test_data(t, {2, 2, 5}, 310, specials(t))});
    for (DType to : {DType::f32, DType::s32, DType::pred, DType::c64, DType::c128})
      expect_parity("as_type:" + dt + "->" + std::string(name(to)), [to](auto& in) { return as_type(in[0], to); }, {x});
    expect_parity("as_type:f64->" + dt, [t](auto& in) { return as_type(in[0], t); },
                  {test_data(DType::f64, {33}, 311)});
  }
}

TEST(ComplexParity, ReductionsAndDot) {
  NXV_REQUIRE_VULKAN();
  for (DType t : complex_dtypes) {
    const std::string dt(name(t));
    // Finite draws: sums of infinities of either sign are NaN on both backends alike, but say nothing more.
    const Tensor x = test_uniform(t, {5, 7, 9}, 312, -2, 2);
    expect_parity("sum:" + dt, [](auto& in) { return sum(in[0], Axes{0, 2}); }, {x});
    expect_parity("product:" + dt, [](auto& in) { return product(in[0], Axes{1}); }, {x});
    expect_parity("mean:" + dt, [](auto& in) { return mean(in[0]); }, {x});
    expect_parity("cumulative_sum:" + dt, [](auto& in) { return cumulative_sum(in[0], 2); }, {x});
    expect_parity("dot:" + dt, [](auto& in) { return matmul(in[0], in[1]); },
                  {test_uniform(t, {3, 17, 33}, 313, -1, 1), test_uniform(t, {3, 33, 9}, 314, -1, 1)});
    expect_parity("sum:" + dt, [](auto& in) { return sum(in[0]); }, {test_data(t, {0, 3}, 315)});
  }
}

TEST(ComplexParity, JitFusesTheLoweredOps) {
  NXV_REQUIRE_VULKAN();
  // The lowered real ops and the two views under jit: the fusion compiler on Vulkan, the evaluator on the reference.
  auto f = [](const Tensor& a, const Tensor& b) { return sum(exp(a) * conjugate(b) / (a + 2.0), Axes{1}); };
  for (DType t : complex_dtypes)
    expect_parity("jit:" + std::string(name(t)), [&](auto& in) { return jit(f)(in[0], in[1]); },
                  {test_uniform(t, {7, 33}, 316, -2, 2), test_uniform(t, {7, 33}, 317, -2, 2)});
}

}  // namespace
}  // namespace nxv::testing
