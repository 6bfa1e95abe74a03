// The C++ readers of the dtype table (src/shared/dtypes.def) agree with its rows: the enum's order and real_dtypes,
// info(), dtype_from_name(), dtype_of and visit_dtype; and each row's C++ and GLSL columns describe the same types.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <string_view>
#include <type_traits>

#include "nxv/dtype.hpp"
#include "nxv/error.hpp"
#include "reference/dtype_dispatch.hpp"

namespace nxv {
namespace {

struct Row {
  DType type;
  std::string_view name;
  int bytes;
  DTypeKind kind;
  int bits;
  std::string_view glsl_store, glsl_compute, glsl_kind;
};

constexpr Row kRows[] = {
#define NXV_DTYPE(name, bytes, kind, bits, value, storage, compute, glsl_store, glsl_compute, glsl_kind, variant) \
  {DType::name, #name, bytes, DTypeKind::kind, bits, #glsl_store, #glsl_compute, #glsl_kind},
#include "shared/dtypes.def"
};

// A scalar type as the C++ and the GLSL spelling of it must agree: "4-byte unsigned integer", ... nxv::Half and
// nxv::BFloat16 are their bits, a uint16_t, as the shaders' buffers hold them.
template <class T>
std::string cpp_scalar() {
  if constexpr (is_half_v<T>) return cpp_scalar<decltype(T::bits)>();
  return std::to_string(sizeof(T)) + "-byte " +
         (std::is_floating_point_v<T> ? "float"
          : std::is_signed_v<T>       ? "signed integer"
                                      : "unsigned integer");
}
std::string glsl_scalar(std::string_view type) {
  static const std::map<std::string_view, std::string> k_known = {
      {"uint8_t", cpp_scalar<std::uint8_t>()},
      {"uint", cpp_scalar<std::uint32_t>()},
      {"int", cpp_scalar<std::int32_t>()},
      {"int64_t", cpp_scalar<std::int64_t>()},
      {"float", cpp_scalar<float>()},
      {"double", cpp_scalar<double>()},
      {"int8_t", cpp_scalar<std::int8_t>()},
      {"int16_t", cpp_scalar<std::int16_t>()},
      {"uint16_t", cpp_scalar<std::uint16_t>()},
      {"uint64_t", cpp_scalar<std::uint64_t>()},
  };
  const auto it = k_known.find(type);
  if (it == k_known.end()) ADD_FAILURE() << "this test does not know the GLSL type " << type << ": add it here";
  return it == k_known.end() ? std::string() : it->second;
}
std::string_view glsl_kind_of(DTypeKind kind) {
  return kind == DTypeKind::floating ? "FLOAT" : kind == DTypeKind::signed_int ? "INT" : "UINT";
}

TEST(DTypeTable, TheEnumAndAllDTypesListTheRowsInOrder) {
  ASSERT_EQ(std::size(kRows), real_dtypes.size());
  ASSERT_EQ(real_dtypes.size(), static_cast<std::size_t>(kNumRealDTypes));
  for (std::size_t i = 0; i < real_dtypes.size(); ++i) {
    EXPECT_EQ(real_dtypes[i], kRows[i].type) << "row " << i << " (" << kRows[i].name << ")";
    EXPECT_EQ(static_cast<std::size_t>(kRows[i].type), i) << kRows[i].name;
  }
}

TEST(DTypeTable, InfoAndNamesAreTheRows) {
  for (const Row& r : kRows) {
    const DTypeInfo& i = info(r.type);
    EXPECT_EQ(i.name, r.name);
    EXPECT_EQ(int{i.bytes}, r.bytes) << r.name;
    EXPECT_EQ(i.kind, r.kind) << r.name;
    EXPECT_EQ(int{i.bits}, r.bits) << r.name;
    EXPECT_LE(r.bits, 8 * r.bytes) << r.name << ": more value bits than its bytes hold";
    EXPECT_EQ(dtype_from_name(r.name), r.type);
  }
}

TEST(DTypeTable, AnUnknownNameIsAnErrorListingEveryDType) {
  try {
    dtype_from_name("s7");
    ADD_FAILURE() << "dtype_from_name(\"s7\") returned";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("unknown dtype name 's7' (expected pred, u8, "), std::string::npos) << message;
    for (const Row& r : kRows) EXPECT_NE(message.find(std::string(r.name)), std::string::npos) << message;
    EXPECT_NE(message.find(" or " + std::string(name(all_dtypes.back())) + ")"), std::string::npos) << message;
    for (DType t : complex_dtypes) EXPECT_NE(message.find(std::string(name(t))), std::string::npos) << message;
  }
}

TEST(DTypeTable, DTypeOfAndVisitDTypeUseTheRowsCppTypes) {
#define NXV_DTYPE(name, bytes, kind, bits, value, storage, compute, ...)          \
  EXPECT_EQ(dtype_of_v<value>, DType::name) << "dtype_of<" #value ">";            \
  reference::visit_dtype(DType::name, [&]<class S, class C>() {                   \
    EXPECT_TRUE((std::is_same_v<S, storage>)) << #name " is stored as " #storage; \
    EXPECT_TRUE((std::is_same_v<C, compute>)) << #name " computes in " #compute;  \
    EXPECT_EQ(sizeof(S), std::size_t{bytes}) << #name;                            \
  });
#include "shared/dtypes.def"
}

// The reference computes in the C++ compute type what the shaders compute in the GLSL one: they must be the same
// type, or the two backends' results part (shared/elementwise.def's expressions are written once for both).
TEST(DTypeTable, TheCppAndGlslTypesOfARowAreTheSame) {
  for (const Row& r : kRows) {
    reference::visit_dtype(r.type, [&]<class S, class C>() {
      EXPECT_EQ(glsl_scalar(r.glsl_store), cpp_scalar<S>()) << r.name << ": storage vs " << r.glsl_store;
      EXPECT_EQ(glsl_scalar(r.glsl_compute), cpp_scalar<C>()) << r.name << ": compute vs " << r.glsl_compute;
    });
    EXPECT_EQ(r.glsl_kind, glsl_kind_of(r.kind)) << r.name;
  }
}

}  // namespace
}  // namespace nxv
