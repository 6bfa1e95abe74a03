// shaderc compilation and the SPIR-V cache (design in shader_cache.hpp).
#include "vulkan/fusion/shader_cache.hpp"

#include <shaderc/shaderc.hpp>

#include <cstdio>
#include <cstring>
#include <sstream>

#include "nxv/error.hpp"
#include "vulkan/fusion/glsl_sources.hpp"
#include "vulkan/runtime/disk_cache.hpp"
#include "vulkan/runtime/spirv_check.hpp"

namespace nxv::vulkan::fusion {
namespace {

constexpr char kEntryKind[] = "SPRV";
// Part of every key: a change of options or of the compiler's version must not reuse old entries.
constexpr char kOptions[] = "compute glsl450 vulkan1.2 -O shaderc-2023.2\n";
// Where the generated source "is", so that its includes resolve as glslc's -I src/vulkan/kernels -I src do at build
// time.
constexpr char kMainPath[] = "src/vulkan/kernels/fused.comp";

// Resolves #include "x" against the including file's directory, then src/vulkan/kernels/, then src/, over the embedded
// sources only (nothing is read from disk).
class EmbeddedIncluder final : public shaderc::CompileOptions::IncluderInterface {
 public:
  shaderc_include_result* GetInclude(const char* requested, shaderc_include_type, const char* requesting,
                                     std::size_t) override {
    const std::filesystem::path from = std::filesystem::path(requesting).parent_path();
    auto* result = new Result;
    for (const std::filesystem::path& base :
         {from, std::filesystem::path("src/vulkan/kernels"), std::filesystem::path("src")}) {
      const std::string path = (base / requested).lexically_normal().generic_string();
      if (auto text = glsl_source(path)) {
        result->name = path;
        result->content = *text;
        break;
      }
    }
    if (result->name.empty()) result->content = std::string("no embedded GLSL source for ") + requested;
    result->result = {result->name.c_str(), result->name.size(), result->content.data(), result->content.size(),
                      result};
    return &result->result;
  }
  void ReleaseInclude(shaderc_include_result* data) override { delete static_cast<Result*>(data->user_data); }

 private:
  struct Result {
    std::string name, content;
    shaderc_include_result result;
  };
};

std::string numbered(const std::string& text) {
  std::istringstream in(text);
  std::ostringstream out;
  int line = 1;
  for (std::string l; std::getline(in, l); ++line) out << line << ": " << l << "\n";
  return out.str();
}

// The options, a digest of every embedded include (a new math library must not reuse shaders compiled against the
// old one: the generated text is the same), then the generated text.
const std::string& key_prefix() {
  static const std::string prefix = [] {
    std::uint64_t digest = 0;
    for (std::string_view text : embedded_glsl_sources())
      digest =
          digest * 1099511628211ull ^ vulkan::fnv1a64(std::as_bytes(std::span<const char>(text.data(), text.size())));
    char buf[40];
    std::snprintf(buf, sizeof buf, "includes %016llx\n", static_cast<unsigned long long>(digest));
    return std::string(kOptions) + buf;
  }();
  return prefix;
}

std::string cache_key(const std::string& glsl) { return key_prefix() + glsl; }

std::uint64_t key_hash(const std::string& key) {
  return vulkan::fnv1a64(std::as_bytes(std::span<const char>(key.data(), key.size())));
}

std::string hex(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

Spirv compile_glsl(const std::string& glsl, const std::string& name) {
  shaderc::Compiler compiler;
  shaderc::CompileOptions options;
  options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_2);
  options.SetOptimizationLevel(shaderc_optimization_level_performance);
  options.SetIncluder(std::make_unique<EmbeddedIncluder>());
  const shaderc::SpvCompilationResult result =
      compiler.CompileGlslToSpv(glsl, shaderc_compute_shader, kMainPath, options);
  if (result.GetCompilationStatus() != shaderc_compilation_status_success)
    detail::fail("fusion compiler: shaderc could not compile the generated shader ", name, ": ",
                 result.GetErrorMessage(), "\n", numbered(glsl));
  return Spirv(result.cbegin(), result.cend());
}

ShaderCache::ShaderCache(std::optional<std::filesystem::path> directory) : directory_(std::move(directory)) {}

std::optional<std::filesystem::path> ShaderCache::file_for(const std::string& glsl) const {
  std::lock_guard lock(mutex_);
  if (!directory_) return std::nullopt;
  return *directory_ / "spirv" / (hex(key_hash(cache_key(glsl))) + ".spv");
}

ShaderCache::Entry ShaderCache::get(const std::string& glsl) {
  const std::string key = cache_key(glsl);
  const std::string name = "fused_" + hex(key_hash(key));
  std::optional<std::filesystem::path> directory;
  {
    std::lock_guard lock(mutex_);
    if (auto it = memory_.find(key); it != memory_.end()) {
      ++stats_.memory_hits;
      return it->second;
    }
    directory = directory_;
  }
  // The disk and shaderc work runs unlocked, so that threads compiling different kernels (the fusion compiler
  // compiles a plan's kernels in parallel) do not wait for each other. Two threads that miss on the same source
  // both compile it; the first to finish wins, and the bits are the same.
  const auto key_bytes = std::as_bytes(std::span<const char>(key.data(), key.size()));
  std::optional<std::filesystem::path> file;
  if (directory) file = *directory / "spirv" / (name.substr(6) + ".spv");
  std::shared_ptr<const Spirv> spirv;
  bool from_disk = false, rejected = false;
  if (file) {
    const bool present = std::filesystem::exists(*file);  // before a corrupt file is removed
    // A right checksum over wrong words is still wrong: the driver trusts SPIR-V, so it is validated first.
    if (auto payload = vulkan::read_cache_entry(*file, kEntryKind, key_bytes, vulkan::spirv_problem)) {
      auto words = std::make_shared<Spirv>(payload->size() / 4);
      std::memcpy(words->data(), payload->data(), payload->size());
      spirv = std::move(words);
      from_disk = true;
    } else {
      rejected = present;  // foreign (kept), or corrupt (removed, named on stderr): recompiled and rewritten below
    }
  }
  bool unwritable = false;
  if (!spirv) {
    spirv = std::make_shared<const Spirv>(compile_glsl(glsl, name));
    unwritable = file && !vulkan::write_cache_entry(*file, kEntryKind, key_bytes, std::as_bytes(std::span(*spirv)));
  }
  std::lock_guard lock(mutex_);
  ++(from_disk ? stats_.disk_hits : stats_.compiles);
  if (rejected) ++stats_.disk_rejected;
  if (unwritable && directory_) {
    std::fprintf(stderr,
                 "nxv: warning: cannot write the shader cache directory %s; compiled shaders are kept in memory "
                 "only for the rest of this process\n",
                 directory_->c_str());
    directory_.reset();
  }
  return memory_.emplace(key, Entry{name, std::move(spirv)}).first->second;
}

ShaderCache::Stats ShaderCache::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

std::optional<std::filesystem::path> ShaderCache::directory() const {
  std::lock_guard lock(mutex_);
  return directory_;
}

ShaderCache& shader_cache() {
  static ShaderCache cache(vulkan::cache_directory());
  return cache;
}

}  // namespace nxv::vulkan::fusion
