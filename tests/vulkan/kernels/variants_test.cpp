// The shader variants that the build compiles from the dtype table (kernels.cmake parses src/shared/dtypes.def at
// configure time) are the ones the C++ side asks for by variant_name(), with the GLSL types glsl_type() gives the
// fusion compiler. No device needed: the SPIR-V is embedded in the library.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "nxv/dtype.hpp"
#include "vulkan/kernels/layout.hpp"
#include "vulkan/runtime/shader_registry.hpp"

namespace nxv::vulkan::kernels {
namespace {

struct Row {
  DType type;
  std::string_view name, glsl_store, glsl_compute, glsl_kind, variant;
};

constexpr Row kRows[] = {
#define NXV_DTYPE(name, bytes, kind, bits, value, storage, compute, glsl_store, glsl_compute, glsl_kind, variant) \
  {DType::name, #name, #glsl_store, #glsl_compute, #glsl_kind, #variant},
#include "shared/dtypes.def"
};

bool compiled(const std::string& shader) { return !embedded_shader(shader).empty(); }

TEST(ShaderVariants, EveryDTypesVariantIsCompiledUnderItsRowsName) {
  for (const Row& r : kRows) {
    EXPECT_EQ(variant_name(r.type), r.variant) << r.name;
    const std::string v(r.variant);
    // One family of each kernels.cmake, conv.cmake and indexing.cmake loop over NXV_NUMERIC_VARIANTS.
    for (const char* family : {"unary_", "unary_test_", "binary_", "reduce_", "dot_", "window_reduce_", "sort_tile_"})
      EXPECT_TRUE(compiled(family + v)) << family << v << " (for " << r.name << ") is not embedded";
    // And those over NXV_ALL_DTYPES, named after the dtype itself.
    EXPECT_TRUE(compiled("iota_" + std::string(r.name))) << "iota_" << r.name;
    for (const Row& to : kRows)
      if (to.type != r.type)
        EXPECT_TRUE(compiled("cast_" + std::string(r.name) + "_" + std::string(to.name)))
            << "cast_" << r.name << "_" << to.name;
  }
}

TEST(ShaderVariants, PredSharesTheU8Variant) {
  EXPECT_STREQ(variant_name(DType::pred), "u8");
  EXPECT_FALSE(compiled("unary_pred")) << "pred has no variant of its own";
  EXPECT_FALSE(compiled("reduce_pred"));
}

TEST(ShaderVariants, TheFusionCompilersGlslTypesAreTheRows) {
  for (const Row& r : kRows) {
    EXPECT_EQ(glsl_type(r.type).store, r.glsl_store) << r.name;
    EXPECT_EQ(glsl_type(r.type).compute, r.glsl_compute) << r.name;
    EXPECT_EQ(glsl_type(r.type).kind, r.glsl_kind) << r.name;
  }
}

}  // namespace
}  // namespace nxv::vulkan::kernels
