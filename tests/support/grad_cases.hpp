// The gradient-rule suites' one harness: a case is a function of float tensors and the ranges its inputs are drawn
// from (kept away from the rule's non-differentiable points), checked two ways by the parameterised suites of
// grad_cases_test.cpp: against central finite differences in f64 on the reference backend (GradFiniteDifference),
// and Vulkan against the reference in f32 and f64 with zero host fallbacks (GradParity). A file of cases
// instantiates both with NXV_GRAD_CASE_SUITES(Prefix, cases()).
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/grad_checks.hpp"

namespace nxv::testing {

struct GradInput {
  Shape shape;
  double low = -2.0, high = 2.0;
};

struct GradCase {
  std::string name;
  std::vector<GradInput> inputs;
  MultiFn fn;
  GradTolerance tol = {};
  std::uint64_t seed = 42;  // of the inputs' random values
};

struct GradParityCase {
  GradCase c;
  DType dtype;
};

// The case's inputs in `dtype`, on the reference backend.
std::vector<Tensor> make_inputs(const GradCase& c, DType dtype);
// Each case in f32 and in f64.
std::vector<GradParityCase> in_f32_and_f64(const std::vector<GradCase>& cases);

void PrintTo(const GradCase& c, std::ostream* os);
void PrintTo(const GradParityCase& p, std::ostream* os);

class GradFiniteDifference : public ::testing::TestWithParam<GradCase> {};
class GradParity : public ::testing::TestWithParam<GradParityCase> {};

}  // namespace nxv::testing

#define NXV_GRAD_CASE_SUITES(prefix, cases)                                                                \
  INSTANTIATE_TEST_SUITE_P(                                                                                \
      prefix, GradFiniteDifference, ::testing::ValuesIn(cases),                                            \
      [](const ::testing::TestParamInfo<::nxv::testing::GradCase>& info) { return info.param.name; });     \
  INSTANTIATE_TEST_SUITE_P(prefix, GradParity, ::testing::ValuesIn(::nxv::testing::in_f32_and_f64(cases)), \
                           [](const ::testing::TestParamInfo<::nxv::testing::GradParityCase>& info) {      \
                             return info.param.c.name + "_" + std::string(::nxv::name(info.param.dtype));  \
                           })
