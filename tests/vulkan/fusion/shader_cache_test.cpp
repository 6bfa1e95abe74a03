// The SPIR-V cache of the fusion compiler: miss (compile), memory hit, disk hit in a new cache over the same
// directory, a corrupt or truncated file detected and recompiled, an unwritable directory falling back to memory
// with exactly one warning, and compile errors naming the shader. No GPU needed: only shaderc runs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "nxv/error.hpp"
#include "vulkan/fusion/shader_cache.hpp"

namespace nxv::vulkan::fusion {
namespace {

namespace fs = std::filesystem;

fs::path fresh_directory() {
  static std::atomic<int> serial{0};
  const fs::path p = fs::temp_directory_path() /
                     ("nxv-shader-cache-test-" + std::to_string(::getpid()) + "-" + std::to_string(serial++));
  fs::remove_all(p);
  return p;
}

// A compute shader over the embedded helper library (so the includer is exercised); `salt` makes it unique.
std::string shader(int salt) {
  return "#version 450\n#extension GL_GOOGLE_include_directive : require\n#include \"lib/common.glsl\"\n"
         "#include \"lib/elementwise.glsl\"\nlayout(local_size_x = 1) in;\n"
         "layout(std430, binding = 0) buffer B { float x[]; };\n"
         "void main() { x[0] = nxv_exp(x[0]) + " +
         std::to_string(salt) + ".0; }\n";
}

std::vector<char> read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
void write_all(const fs::path& p, const std::vector<char>& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

TEST(ShaderCache, MissThenMemoryHitThenDiskHit) {
  const fs::path dir = fresh_directory();
  ShaderCache first(dir);
  const auto a = first.get(shader(1));
  ASSERT_GE(a.spirv->size(), 5u);
  EXPECT_EQ((*a.spirv)[0], 0x07230203u);
  EXPECT_EQ(first.stats().compiles, 1u);
  const auto again = first.get(shader(1));
  EXPECT_EQ(first.stats().memory_hits, 1u);
  EXPECT_EQ(again.spirv, a.spirv);
  EXPECT_EQ(again.name, a.name);
  ASSERT_TRUE(first.file_for(shader(1)).has_value());
  EXPECT_TRUE(fs::exists(*first.file_for(shader(1))));

  ShaderCache second(dir);  // a new process, as far as the cache can tell
  const auto b = second.get(shader(1));
  EXPECT_EQ(second.stats().disk_hits, 1u);
  EXPECT_EQ(second.stats().compiles, 0u);
  EXPECT_EQ(*b.spirv, *a.spirv);
  EXPECT_EQ(b.name, a.name);
  EXPECT_NE(second.get(shader(2)).name, a.name);  // another source, another entry
  fs::remove_all(dir);
}

TEST(ShaderCache, CorruptOrTruncatedFilesAreRecompiled) {
  const fs::path dir = fresh_directory();
  ShaderCache writer(dir);
  const auto good = writer.get(shader(3));
  const fs::path file = *writer.file_for(shader(3));
  const std::vector<char> original = read_all(file);
  ASSERT_GT(original.size(), 64u);

  std::vector<char> flipped = original;
  flipped[flipped.size() - 9] ^= 0x10;  // a payload byte: the checksum no longer matches
  std::vector<char> truncated(original.begin(), original.end() - 7);
  std::vector<char> garbage(original.size(), 'x');
  for (const auto& [what, bytes] :
       {std::pair{"flipped", flipped}, std::pair{"truncated", truncated}, std::pair{"garbage", garbage}}) {
    SCOPED_TRACE(what);
    write_all(file, bytes);
    ShaderCache reader(dir);
    const auto e = reader.get(shader(3));
    EXPECT_EQ(reader.stats().disk_rejected, 1u);
    EXPECT_EQ(reader.stats().disk_hits, 0u);
    EXPECT_EQ(reader.stats().compiles, 1u);
    EXPECT_EQ(*e.spirv, *good.spirv);
    EXPECT_EQ(read_all(file), original);  // rewritten with the good entry
    ShaderCache after(dir);
    after.get(shader(3));
    EXPECT_EQ(after.stats().disk_hits, 1u);
  }
  fs::remove_all(dir);
}

TEST(ShaderCache, UnwritableDirectoryFallsBackToMemoryWithOneWarning) {
  // A directory below a regular file can never be created. (chmod would not do: the tests may run as root, which
  // ignores permission bits; where they don't, a read-only directory is checked below as well.)
  const fs::path base = fresh_directory();
  fs::create_directories(base);
  { std::ofstream(base / "file") << "x"; }
  std::vector<fs::path> unwritable{base / "file" / "cache"};
  if (::geteuid() != 0) {
    fs::create_directories(base / "ro");
    fs::permissions(base / "ro", fs::perms::owner_read | fs::perms::owner_exec);
    unwritable.push_back(base / "ro");
  }
  for (const fs::path& dir : unwritable) {
    SCOPED_TRACE(dir.string());
    ShaderCache cache(dir);
    ::testing::internal::CaptureStderr();
    const auto a = cache.get(shader(4));
    const auto b = cache.get(shader(5));
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(cache.stats().compiles, 2u);
    EXPECT_FALSE(cache.directory().has_value());
    std::size_t warnings = 0;
    for (std::size_t at = err.find("warning"); at != std::string::npos; at = err.find("warning", at + 1)) ++warnings;
    EXPECT_EQ(warnings, 1u) << err;
    EXPECT_NE(err.find(dir.string()), std::string::npos) << err;
    EXPECT_EQ(cache.get(shader(4)).spirv, a.spirv);  // still cached, in memory
    EXPECT_NE(b.name, a.name);
  }
  if (fs::exists(base / "ro")) fs::permissions(base / "ro", fs::perms::owner_all, fs::perm_options::replace);
  fs::remove_all(base);
}

TEST(ShaderCache, CompileErrorsNameTheShaderAndShowTheSource) {
  ShaderCache cache(std::nullopt);
  try {
    cache.get("#version 450\nlayout(local_size_x = 1) in;\nvoid main() { undefined_thing(); }\n");
    FAIL() << "expected nxv::Error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("fused_"), std::string::npos) << what;
    EXPECT_NE(what.find("undefined_thing"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace nxv::vulkan::fusion
