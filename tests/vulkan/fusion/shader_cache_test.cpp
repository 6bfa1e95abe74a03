// The SPIR-V cache of the fusion compiler: miss (compile), memory hit, disk hit in a new cache over the same
// directory, a corrupt or truncated file detected and recompiled, a checksummed entry around bad SPIR-V replaced
// and named, an unwritable directory falling back to memory with exactly one warning, and compile errors naming
// the shader. No GPU needed: only shaderc runs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "nxv/error.hpp"
#include "vulkan/fusion/shader_cache.hpp"
#include "vulkan/runtime/disk_cache.hpp"

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

// The fusion compiler compiles a plan's kernels on several threads: gets of different and of equal sources at
// once each return SPIR-V equal to a lone compile's, and every get is counted once.
TEST(ShaderCache, ConcurrentGetsAgreeWithALoneCompile) {
  ShaderCache cache(fresh_directory());
  constexpr int kThreads = 8, kSources = 4;
  std::vector<ShaderCache::Entry> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back([&, t] { got[t] = cache.get(shader(100 + t % kSources)); });
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) {
    const Spirv alone = compile_glsl(shader(100 + t % kSources), "alone");
    EXPECT_EQ(*got[t].spirv, alone) << "thread " << t;
    EXPECT_EQ(got[t].name, got[t % kSources].name);
  }
  const ShaderCache::Stats s = cache.stats();
  EXPECT_EQ(s.compiles + s.memory_hits + s.disk_hits, static_cast<std::uint64_t>(kThreads));
  EXPECT_GE(s.compiles, static_cast<std::uint64_t>(kSources));
  // Afterwards each source is one memory entry: a fifth get of each is a memory hit.
  for (int k = 0; k < kSources; ++k) EXPECT_EQ(cache.get(shader(100 + k)).spirv, cache.get(shader(100 + k)).spirv);
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

// The entry `file_bytes` holds (header | key | payload, vulkan/runtime/disk_cache.cpp) with another payload and a
// right length and checksum for it: damage only a check of the SPIR-V itself can see.
std::vector<char> with_payload(const std::vector<char>& file_bytes, const std::vector<std::uint32_t>& words,
                               std::size_t extra_bytes = 0) {
  std::uint32_t key_bytes;
  std::memcpy(&key_bytes, file_bytes.data() + 12, 4);
  std::vector<char> out(file_bytes.begin(), file_bytes.begin() + 32 + key_bytes);
  const auto* payload = reinterpret_cast<const char*>(words.data());
  out.insert(out.end(), payload, payload + words.size() * 4);
  out.insert(out.end(), extra_bytes, '\0');
  const std::uint64_t length = out.size() - 32 - key_bytes;
  const std::uint64_t checksum =
      vulkan::fnv1a64(std::as_bytes(std::span(out.data() + 32 + key_bytes, static_cast<std::size_t>(length))));
  std::memcpy(out.data() + 16, &length, 8);
  std::memcpy(out.data() + 24, &checksum, 8);
  return out;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A well-formed entry (right checksum) around wrong SPIR-V used to be trusted: every later run failed with
// "malformed SPIR-V instruction" (or read past the words, with NXV_FLOAT_CONTROLS=0), the entry was never evicted
// and no message named it. Now the words are validated: the entry is recompiled and replaced, named once on stderr.
TEST(ShaderCache, ChecksummedEntryAroundBadSpirvIsReplacedAndNamed) {
  const fs::path dir = fresh_directory();
  ShaderCache writer(dir);
  const Spirv good = *writer.get(shader(6)).spirv;
  const fs::path file = *writer.file_for(shader(6));
  const std::vector<char> original = read_all(file);

  std::vector<std::uint32_t> garbage(good.begin(), good.begin() + 5);  // a right header over junk
  garbage.insert(garbage.end(), {0xdeadbeefu, 0x12345678u, 0xffffffffu});
  std::vector<std::uint32_t> past_end = good;
  past_end.insert(past_end.end(), {(100u << 16) | 71u, 1, 33});  // an OpDecorate claiming 100 words
  std::vector<std::uint32_t> zero_count = good;
  zero_count.push_back(0);
  std::vector<std::uint32_t> bad_magic = good;
  bad_magic[0] = 0x03022307;
  const std::vector<std::uint32_t> truncated(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(good.size() / 2));
  const std::vector<std::uint32_t> header_only(good.begin(), good.begin() + 3);
  const std::vector<std::pair<const char*, std::vector<char>>> cases = {
      {"junk after the header", with_payload(original, garbage)},
      {"a word count past the end", with_payload(original, past_end)},
      {"a word count of zero", with_payload(original, zero_count)},
      {"another magic number", with_payload(original, bad_magic)},
      {"truncated words", with_payload(original, truncated)},
      {"shorter than a header", with_payload(original, header_only)},
      {"not whole words", with_payload(original, good, 2)},
      {"no words", with_payload(original, {})},
  };
  for (const auto& [what, bytes] : cases) {
    SCOPED_TRACE(what);
    write_all(file, bytes);
    ShaderCache reader(dir);
    ::testing::internal::CaptureStderr();
    const auto e = reader.get(shader(6));
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(*e.spirv, good);
    EXPECT_EQ(reader.stats().disk_rejected, 1u);
    EXPECT_EQ(reader.stats().compiles, 1u);
    EXPECT_EQ(read_all(file), original) << "replaced by the good entry";
    EXPECT_EQ(occurrences(err, file.string()), 1u) << err;
    EXPECT_NE(err.find("corrupt"), std::string::npos) << err;

    ShaderCache after(dir);  // the next run
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(*after.get(shader(6)).spirv, good);
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "") << "reported once, not on every run";
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
