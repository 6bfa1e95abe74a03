// Run-time GLSL -> SPIR-V (shaderc, linked statically) behind a two-level cache: in memory per process, and on
// disk under the nx_vulkan cache directory (vulkan/disk_cache.hpp: NXV_CACHE_DIR, XDG_CACHE_HOME, ~/.cache), keyed
// by the full GLSL text plus the compile options, so an entry is reused only for exactly the same source. A disk
// entry is validated when loaded (the cache file header, its checksum, then SPIRV-Tools' validator); anything else
// is recompiled, and a corrupt file is replaced with a message naming it. A cache directory that cannot be written
// falls back to memory with one warning.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace nxv::vulkan::fusion {

using Spirv = std::vector<std::uint32_t>;

// Compiles a compute shader; nxv::Error with shaderc's messages (and the numbered source) when it fails.
Spirv compile_glsl(const std::string& glsl, const std::string& name);

class ShaderCache {
 public:
  // `directory`: where entries live (created on the first write); nullopt keeps them in memory only.
  explicit ShaderCache(std::optional<std::filesystem::path> directory);

  struct Stats {
    std::uint64_t memory_hits = 0, disk_hits = 0, compiles = 0, disk_rejected = 0;
  };
  // The SPIR-V of `glsl`, and its name ("fused_" + 16 hex digits of the key's hash). Thread-safe; threads that
  // miss compile at the same time, each without holding the cache's lock.
  struct Entry {
    std::string name;
    std::shared_ptr<const Spirv> spirv;
  };
  Entry get(const std::string& glsl);

  Stats stats() const;
  // The directory in use: nullopt when memory only (none configured, or not writable).
  std::optional<std::filesystem::path> directory() const;
  // The file an entry for `glsl` lives in (whether or not it exists); nullopt when memory only.
  std::optional<std::filesystem::path> file_for(const std::string& glsl) const;

 private:
  mutable std::mutex mutex_;
  std::optional<std::filesystem::path> directory_;
  std::map<std::string, Entry> memory_;  // key: the full cache key text
  Stats stats_;
};

// The process-wide cache, over vulkan::cache_directory() as it is at first use.
ShaderCache& shader_cache();

}  // namespace nxv::vulkan::fusion
