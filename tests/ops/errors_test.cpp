// Bad input gives an nxv::Error whose message names the op, what it got and what it expected: never a crash.
#include <gtest/gtest.h>

#include "nxv/ops.hpp"

namespace nxv {
namespace {

// Expects `fn` to throw nxv::Error with every one of `parts` in its message.
template <class F>
void expect_error(F&& fn, std::initializer_list<const char*> parts) {
  try {
    fn();
    ADD_FAILURE() << "expected an nxv::Error mentioning " << *parts.begin();
  } catch (const Error& e) {
    const std::string msg = e.what();
    for (const char* p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "message: " << msg << "\nmissing: " << p;
  }
}

Tensor f32(const Shape& s) { return zeros(s, DType::f32, reference_backend()); }

TEST(OpErrors, MismatchedShapes) {
  expect_error([] { add(f32({2, 3}), f32({4})); }, {"add", "[2, 3]", "[4]", "broadcast"});
  expect_error([] { dot(f32({2, 3}), f32({4, 5})); }, {"dot", "size 3", "size 4"});
  expect_error([] { concatenate({f32({2, 3}), f32({2, 4})}, 0); }, {"concatenate", "f32[2, 3]", "f32[2, 4]"});
  expect_error([] { reshape(f32({2, 3}), {4, 2}); }, {"reshape", "f32[2, 3]", "[4, 2]"});
  expect_error([] { select(f32({2}), f32({3}), f32({3})); }, {"select", "[2]", "[3]"});
}

TEST(OpErrors, BadAxes) {
  expect_error([] { sum(f32({2, 3}), Axes{2}); }, {"sum", "axis 2", "rank 2"});
  expect_error([] { sum(f32({2, 3}), Axes{0, 0}); }, {"sum", "repeated"});
  expect_error([] { transpose(f32({2, 3}), Axes{0}); }, {"transpose", "expected 2"});
  expect_error([] { argmax(f32({2, 3}), -3); }, {"argmax", "axis -3"});
  expect_error([] { squeeze(f32({2, 3}), Axes{0}); }, {"squeeze", "size 2", "expected 1"});
  expect_error([] { broadcast(f32({3}), {4, 2}); }, {"broadcast", "f32[3]", "[4, 2]"});
}

TEST(OpErrors, WrongDtypes) {
  expect_error([] { bitwise_and(f32({2}), f32({2})); }, {"bitwise_and", "expected integer", "f32[2]"});
  expect_error([] { uniform(key(1), {2}, DType::s32, 0, 1, reference_backend()); }, {"uniform", "float", "s32"});
  expect_error([] { dtype_from_name("f16"); }, {"unknown dtype", "f16"});
  expect_error([] { (void)f32({2}).to_vector<double>(); }, {"to_vector", "f32", "f64"});
}

TEST(OpErrors, RankTooLarge) {
  expect_error([] { Shape s{1, 1, 1, 1, 1, 1, 1, 1, 1}; }, {"maximum rank is 8"});
  expect_error([] { expand_dims(f32({1, 1, 1, 1, 1, 1, 1, 1}), 0); }, {"maximum rank is 8"});
}

TEST(OpErrors, ReadingPastASlice) {
  expect_error([] { slice(f32({5}), {3}, {3}); }, {"slice", "reads past the end", "expected < 5"});
  expect_error([] { slice(f32({5, 5}), {0, 0}, {2, 2}, Axes{1, 0}); }, {"slice", "stride 0"});
  expect_error([] { pad(f32({2}), 0, {{-2, -1, 0}}); }, {"pad", "cuts more"});
  expect_error(
      [] {
        from_data<float>(std::vector<float>{1, 2, 3}, {2, 2}, reference_backend());
      },
      {"from_data", "3 values", "expected 4"});
}

TEST(OpErrors, UndefinedTensorsAndBackends) {
  expect_error([] { exp(Tensor()); }, {"undefined"});
  expect_error([] { (void)Tensor().shape(); }, {"undefined"});
}

}  // namespace
}  // namespace nxv
