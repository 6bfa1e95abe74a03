// The on-disk cache directory shared by the pipeline cache and the fusion compiler's SPIR-V cache, and the
// file format both use: a fixed header (magic, format version, key, payload length, payload checksum) in front
// of the payload, so that a truncated, corrupt or foreign file is detected and ignored instead of trusted.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace nxv::vulkan {

// NXV_CACHE_DIR if set (the values "off" and "none" disable the cache), else $XDG_CACHE_HOME/nx_vulkan, else
// $HOME/.cache/nx_vulkan; nullopt when disabled or no home is known. Read on every call (tests change it).
std::optional<std::filesystem::path> cache_directory();

// 64-bit FNV-1a: a checksum against torn or corrupt files, not a defence against a malicious writer.
std::uint64_t fnv1a64(std::span<const std::byte> bytes, std::uint64_t seed = 0xcbf29ce484222325ull);

// A cache entry's payload if `path` holds a well-formed entry of `kind` (4 characters) whose key equals `key`;
// nullopt for a missing, truncated, corrupt or foreign file (with NXV_DEBUG set, the reason is printed).
std::optional<std::vector<std::byte>> read_cache_entry(const std::filesystem::path& path, std::string_view kind,
                                                       std::span<const std::byte> key);

// Writes an entry atomically (a temporary file renamed over `path`, so readers never see half a file) and
// creates the directory if needed. False, with no exception, when the directory is not writable.
bool write_cache_entry(const std::filesystem::path& path, std::string_view kind, std::span<const std::byte> key,
                       std::span<const std::byte> payload);

}  // namespace nxv::vulkan
