// The op-parity harness: runs an op on the reference backend and on the Vulkan backend over the same inputs
// and checks that the results are bit-identical (NaNs compare equal whatever their payload), with zero host
// fallbacks. Every op test of the suite goes through expect_parity(), which also counts the op × dtype cells.
//
// How to add an op (the suites under tests/parity/ are this harness's users):
//  1. An elementwise function: one row of src/shared/elementwise.def (id, name, dtype class, expression in the
//     C++/GLSL subset) and its declaration in include/nxv/ops.hpp. Its front-end function, reference kernel,
//     Vulkan shader variant, fusion-compiler code and the test tables (support/op_tables.hpp) come from the row,
//     so the parity and fused suites already run it over every dtype, shape and special value. New math goes
//     into src/shared/math.glsl.h (f64) with its f32 overload in src/shared/elementwise_helpers.glsl.h, and its
//     ULP bound into tests/shared/math_test.cpp. (softplus was added this way: 7 files.)
//  2. Any other op: its attributes and shape rule in src/ops/, a reference kernel in src/reference/, a Vulkan
//     kernel in src/vulkan/kernels/ and its case in src/vulkan/backend.cpp, then a test here calling
//     expect_parity() for every dtype it accepts, over empty, rank-0, size-1 and several-workgroup shapes.
//  3. Its gradient: a rule in src/grad/ (a case of the family's switch) and a row of the case table beside the
//     rules' tests (tests/grad/rules_test.cpp): support/grad_cases.hpp checks it against finite differences and
//     runs it on Vulkan against the reference.
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "nxv/fallback.hpp"
#include "nxv/ops.hpp"
#include "nxv/vulkan.hpp"

namespace nxv::testing {

using OpFn = std::function<Tensor(const std::vector<Tensor>&)>;

// Skips the calling test when there is no Vulkan device (CI always has lavapipe, so nothing is skipped there).
#define NXV_REQUIRE_VULKAN()                                             \
  do {                                                                   \
    if (!::nxv::vulkan::available()) GTEST_SKIP() << "no Vulkan device"; \
  } while (0)

// Every dtype but pred, and the integer dtypes, in real_dtypes' order: the dtype lists of the suites whose ops take
// numbers (a new dtype joins them by its row in src/shared/dtypes.def).
std::vector<DType> numeric_dtypes();
std::vector<DType> integer_dtypes();

// Records "op:dtype" cells covered by parity checks, for the suite's summary line.
std::set<std::string>& parity_cells();

// Compares two host tensors element by element: same type, bit-identical values, NaN == NaN.
// Returns an empty string when equal, else a description of the first mismatches.
std::string compare_exact(const Tensor& expected, const Tensor& actual);

// Whether the Vulkan device flushes f32 denormals to zero. NVIDIA does, and reports shaderDenormPreserveFloat32 =
// false, so no shader can ask it not to; lavapipe keeps them. Detected once, by adding the smallest f32 denormal to
// itself on the device.
bool vulkan_flushes_f32_denormals();
// `t` with every f32 denormal replaced by a zero of the same sign (other dtypes: `t` itself), on t's backend.
Tensor flush_f32_denormals(const Tensor& t);

// Runs `op` on `inputs` (reference tensors) on both backends; expects bit-identical results and no fallback.
// `cell` names the op × dtype cell ("add:f32"). The stated bound on a device that flushes f32 denormals: f32
// inputs are flushed before both backends see them and f32 results are compared flushed; everything else is
// bit-identical.
void expect_parity(const std::string& cell, const OpFn& op, const std::vector<Tensor>& inputs);

// Deterministic test data on the reference backend. Float pools mix special values (NaN, ±inf, ±0, denormals,
// extremes) with random values; integer pools mix extremes (INT_MIN, INT_MAX, 0, ±1) with random values.
Tensor test_data(DType dtype, const Shape& shape, std::uint64_t seed, bool special_values = true);
// Random floats in [low, high) (for ops whose interesting domain is narrow).
Tensor test_uniform(DType dtype, const Shape& shape, std::uint64_t seed, double low, double high);

}  // namespace nxv::testing
