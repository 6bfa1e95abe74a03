// copy_buffers (src/vulkan/kernels/copy_many.cpp, src/vulkan/kernels/copy_many.comp): any number of copies, 8 per
// dispatch, byte counts that end inside a word, empty copies, one copy longer than a grid row covers (the shader's
// stride loop), and a byte count beyond a buffer as an error.
#include <gtest/gtest.h>

#include <numeric>

#include "nxv/error.hpp"
#include "support/runtime.hpp"
#include "vulkan/kernels/kernels.hpp"

namespace nxv::vulkan::test {
namespace {

// Bytes seed, seed + step, seed + 2 step, ...
BufferPtr bytes_buffer(Runtime& rt, std::size_t n, std::uint8_t seed, std::uint8_t step = 7) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(seed + step * i);
  BufferPtr b = rt.allocate(n);
  rt.upload(b, std::as_bytes(std::span(v)));
  return b;
}

std::vector<std::uint8_t> read_bytes(Runtime& rt, const BufferPtr& b, std::size_t n) {
  std::vector<std::uint8_t> v(n);
  rt.download(b, std::as_writable_bytes(std::span(v)));
  return v;
}

TEST(VulkanKernels, CopyBuffersInGroupsOfEight) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  std::vector<kernels::BufferCopy> copies;
  const std::size_t sizes[] = {1, 3, 4, 5, 0, 64, 255, 1000, 4096, 7, 8, 9, 12345, 2, 17, 33, 100, 6, 1 << 16, 11};
  for (std::size_t i = 0; i < std::size(sizes); ++i)
    copies.push_back({bytes_buffer(rt, std::max<std::size_t>(sizes[i], 1), static_cast<std::uint8_t>(i)),
                      bytes_buffer(rt, sizes[i] + 8, 0xEE, 0), sizes[i]});
  const auto before = counters();
  kernels::copy_buffers(copies);
  EXPECT_EQ(counters().dispatches - before.dispatches, 3u) << "19 non-empty copies: 3 dispatches of up to 8";
  for (std::size_t i = 0; i < copies.size(); ++i) {
    const std::vector<std::uint8_t> want = read_bytes(rt, copies[i].src, sizes[i]);
    const std::vector<std::uint8_t> got = read_bytes(rt, copies[i].dst, sizes[i] + 8);
    EXPECT_TRUE(std::equal(want.begin(), want.end(), got.begin())) << "copy " << i << " of " << sizes[i] << " bytes";
    // Past the copied words the destination keeps its bytes.
    for (std::size_t b = (sizes[i] + 3) / 4 * 4; b < sizes[i] + 8; ++b) ASSERT_EQ(got[b], 0xEE) << "copy " << i;
  }
}

TEST(VulkanKernels, CopyBuffersLongerThanOneGridRow) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  const std::size_t words = 65535u * 256u + 77u;  // the x grid is capped at 65535 workgroups of 256
  std::vector<std::uint32_t> v(words);
  std::iota(v.begin(), v.end(), 1u);
  const BufferPtr src = rt.allocate(words * 4), dst = rt.allocate(words * 4);
  rt.upload(src, std::as_bytes(std::span(v)));
  kernels::copy_buffers(std::vector<kernels::BufferCopy>{{src, dst, words * 4}});
  std::vector<std::uint32_t> got(words);
  rt.download(dst, std::as_writable_bytes(std::span(got)));
  EXPECT_EQ(got, v);
}

TEST(VulkanKernels, CopyBuffersPastAnEndIsAnError) {
  NXV_REQUIRE_VULKAN();
  Runtime& rt = runtime();
  const BufferPtr small = rt.allocate(8), large = rt.allocate(64);
  EXPECT_THROW(kernels::copy_buffers(std::vector<kernels::BufferCopy>{{small, large, 64}}), Error);
  EXPECT_THROW(kernels::copy_buffers(std::vector<kernels::BufferCopy>{{large, small, 12}}), Error);
}

}  // namespace
}  // namespace nxv::vulkan::test
