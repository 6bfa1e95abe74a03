// The on-disk cache (src/vulkan/runtime/disk_cache.hpp) and the pipeline cache kept in it: entries round-trip;
// truncated, corrupt and foreign files are ignored, never trusted, and the corrupt ones evicted and named;
// NXV_CACHE_DIR picks (or disables) the directory; a runtime writes the pipelines it created when it is destroyed
// and the next runtime starts from them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "support/env.hpp"
#include "support/runtime.hpp"
#include "support/temp_dir.hpp"
#include "vulkan/runtime/diagnostics.hpp"
#include "vulkan/runtime/disk_cache.hpp"

namespace nxv::vulkan {
namespace {

using io_test::read_bytes;
using io_test::TempDir;
using io_test::write_bytes;

std::span<const std::byte> bytes_of(const std::string& s) { return std::as_bytes(std::span(s)); }

using nxv::test::EnvGuard;

TEST(DiskCache, EntryRoundTrips) {
  TempDir dir;
  const auto file = dir / "sub" / "entry.bin";
  ASSERT_TRUE(write_cache_entry(file, "TEST", bytes_of("key"), bytes_of("payload bytes")));
  const auto got = read_cache_entry(file, "TEST", bytes_of("key"));
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(got->data()), got->size()), "payload bytes");
}

TEST(DiskCache, MissingTruncatedCorruptAndForeignFilesAreIgnored) {
  TempDir dir;
  const auto file = dir / "entry.bin";
  EXPECT_FALSE(read_cache_entry(file, "TEST", bytes_of("key")).has_value()) << "missing file";
  ASSERT_TRUE(write_cache_entry(file, "TEST", bytes_of("key"), bytes_of("payload bytes")));
  const std::string good = read_bytes(file);

  EXPECT_FALSE(read_cache_entry(file, "TEST", bytes_of("another key")).has_value()) << "foreign key";
  EXPECT_FALSE(read_cache_entry(file, "PIPE", bytes_of("key")).has_value()) << "another kind";
  for (std::size_t keep : {std::size_t{0}, std::size_t{10}, std::size_t{32}, good.size() - 1}) {
    write_bytes(file, good.substr(0, keep));
    EXPECT_FALSE(read_cache_entry(file, "TEST", bytes_of("key")).has_value()) << "truncated to " << keep;
  }
  std::string flipped = good;
  flipped.back() ^= 0x01;  // a payload byte: only the checksum can tell
  write_bytes(file, flipped);
  EXPECT_FALSE(read_cache_entry(file, "TEST", bytes_of("key")).has_value()) << "corrupt payload";
  write_bytes(file, good + "x");
  EXPECT_FALSE(read_cache_entry(file, "TEST", bytes_of("key")).has_value()) << "trailing bytes";
  write_bytes(file, std::string(good.size(), '\xff'));
  EXPECT_FALSE(read_cache_entry(file, "TEST", bytes_of("key")).has_value()) << "garbage";
}

// Damage evicts the file and names it once on stderr (the reader rebuilds it); another kind, version or key is no
// damage: the file stays, and the next write replaces it.
TEST(DiskCache, CorruptFilesAreRemovedAndNamedForeignOnesKept) {
  TempDir dir;
  const auto file = dir / "entry.bin";
  ASSERT_TRUE(write_cache_entry(file, "TEST", bytes_of("key"), bytes_of("payload bytes")));
  const std::string good = read_bytes(file);

  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(read_cache_entry(file, "TEST", bytes_of("another key")).has_value());
  EXPECT_FALSE(read_cache_entry(file, "PIPE", bytes_of("key")).has_value());
  ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(std::filesystem::exists(file)) << "a foreign entry is not damage";

  std::string flipped = good;
  flipped.back() ^= 0x01;
  for (const auto& [what, bytes] : {std::pair{"checksum", flipped}, std::pair{"truncated", good.substr(0, 40)},
                                    std::pair{"trailing", good + "x"}}) {
    SCOPED_TRACE(what);
    write_bytes(file, bytes);
    ::testing::internal::CaptureStderr();
    EXPECT_FALSE(read_cache_entry(file, "TEST", bytes_of("key")).has_value());
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_FALSE(std::filesystem::exists(file)) << "evicted";
    EXPECT_NE(err.find(file.string()), std::string::npos) << err;
    EXPECT_EQ(err.find(file.string()), err.rfind(file.string())) << "named once: " << err;
  }
}

TEST(DiskCache, PayloadRefusedByItsReaderIsEvictedWithTheReason) {
  TempDir dir;
  const auto file = dir / "entry.bin";
  ASSERT_TRUE(write_cache_entry(file, "TEST", bytes_of("key"), bytes_of("payload bytes")));
  const auto refuse = [](std::span<const std::byte> payload) -> std::string {
    return payload.size() == 13 ? "thirteen bytes are never right" : "";
  };
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(read_cache_entry(file, "TEST", bytes_of("key"), refuse).has_value());
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(std::filesystem::exists(file));
  EXPECT_NE(err.find("thirteen bytes are never right"), std::string::npos) << err;
  EXPECT_NE(err.find(file.string()), std::string::npos) << err;
}

TEST(DiskCache, ParsesFromBytesAndTellsDamageFromForeign) {
  TempDir dir;
  const auto file = dir / "entry.bin";
  ASSERT_TRUE(write_cache_entry(file, "TEST", bytes_of("key"), bytes_of("payload bytes")));
  const std::string good = read_bytes(file);
  const auto parsed = parse_cache_entry(bytes_of(good), "TEST", bytes_of("key"));
  ASSERT_TRUE(parsed.payload.has_value()) << parsed.problem;
  EXPECT_EQ(parsed.payload->size(), 13u);
  const auto foreign = parse_cache_entry(bytes_of(good), "TEST", bytes_of("kez"));
  EXPECT_FALSE(foreign.payload.has_value());
  EXPECT_FALSE(foreign.corrupt) << foreign.problem;
  const auto torn = parse_cache_entry(bytes_of(good.substr(0, good.size() - 1)), "TEST", bytes_of("key"));
  EXPECT_FALSE(torn.payload.has_value());
  EXPECT_TRUE(torn.corrupt) << torn.problem;
}

TEST(DiskCache, UnwritableDirectoryReportsFalse) {
  TempDir dir;
  write_bytes(dir / "a_file", "not a directory");
  EXPECT_FALSE(write_cache_entry(dir / "a_file" / "entry.bin", "TEST", bytes_of("k"), bytes_of("v")));
}

TEST(DiskCache, DirectoryFollowsTheEnvironment) {
  {
    EnvGuard cache("NXV_CACHE_DIR", "/some/where");
    EXPECT_EQ(cache_directory(), std::filesystem::path("/some/where"));
  }
  for (const char* off : {"off", "none"}) {
    EnvGuard cache("NXV_CACHE_DIR", off);
    EXPECT_FALSE(cache_directory().has_value()) << off;
  }
  EnvGuard cache("NXV_CACHE_DIR", std::nullopt);
  {
    EnvGuard xdg("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(cache_directory(), std::filesystem::path("/xdg/nx_vulkan"));
  }
  EnvGuard xdg("XDG_CACHE_HOME", std::nullopt);
  EnvGuard home("HOME", "/home/someone");
  EXPECT_EQ(cache_directory(), std::filesystem::path("/home/someone/.cache/nx_vulkan"));
}

// Creates one pipeline in a runtime of its own, so that the runtime has something to save.
PipelineCacheInfo run_one_pipeline() {
  auto rt = make_runtime({});
  rt->pipeline("test_add_scalar");
  return pipeline_cache_info(*rt);
}

TEST(PipelineDiskCacheVulkan, SecondRuntimeStartsFromTheFirstOnesPipelines) {
  NXV_REQUIRE_VULKAN();
  TempDir dir;
  EnvGuard cache("NXV_CACHE_DIR", dir.path().string());
  const PipelineCacheInfo first = run_one_pipeline();
  EXPECT_EQ(first.loaded_bytes, 0u) << "an empty cache directory is a cold start";
  EXPECT_EQ(first.pipelines_created, 1u);
  ASSERT_EQ(first.file.parent_path(), dir.path());
  ASSERT_TRUE(std::filesystem::exists(first.file)) << "written when the runtime was destroyed";

  const PipelineCacheInfo second = run_one_pipeline();
  EXPECT_EQ(second.file, first.file);
  EXPECT_GT(second.loaded_bytes, 0u) << "the second runtime starts from the saved data";
}

TEST(PipelineDiskCacheVulkan, CorruptFileIsIgnoredAndReplaced) {
  NXV_REQUIRE_VULKAN();
  TempDir dir;
  EnvGuard cache("NXV_CACHE_DIR", dir.path().string());
  const PipelineCacheInfo first = run_one_pipeline();
  std::string bytes = read_bytes(first.file);
  ASSERT_GT(bytes.size(), 64u);
  bytes[bytes.size() / 2] ^= 0x5a;
  write_bytes(first.file, bytes);

  const PipelineCacheInfo second = run_one_pipeline();
  EXPECT_EQ(second.loaded_bytes, 0u) << "a corrupt file must not reach the driver";
  EXPECT_GT(run_one_pipeline().loaded_bytes, 0u) << "the second runtime rewrote a good file";
}

TEST(PipelineDiskCacheVulkan, UnwritableOrDisabledCacheStillRuns) {
  NXV_REQUIRE_VULKAN();
  TempDir dir;
  write_bytes(dir / "a_file", "not a directory");
  {
    EnvGuard cache("NXV_CACHE_DIR", (dir / "a_file").string());
    EXPECT_EQ(run_one_pipeline().pipelines_created, 1u);  // the save fails with a warning, not an error
  }
  EnvGuard cache("NXV_CACHE_DIR", "off");
  const PipelineCacheInfo info = run_one_pipeline();
  EXPECT_TRUE(info.file.empty());
  EXPECT_EQ(info.loaded_bytes, 0u);
}

}  // namespace
}  // namespace nxv::vulkan
