// The on-disk cache directory shared by the pipeline cache and the fusion compiler's SPIR-V cache, and the
// file format both use: a fixed header (magic, format version, key, payload length, payload checksum) in front
// of the payload, so that a truncated, corrupt or foreign file is detected and ignored instead of trusted; each
// reader also checks the payload itself (a right checksum over wrong bytes is still wrong).
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nxv::vulkan {

// NXV_CACHE_DIR if set (the values "off" and "none" disable the cache), else $XDG_CACHE_HOME/nx_vulkan, else
// $HOME/.cache/nx_vulkan; nullopt when disabled or no home is known. Read on every call (tests change it).
std::optional<std::filesystem::path> cache_directory();

// 64-bit FNV-1a: a checksum against torn or corrupt files, not a defence against a malicious writer.
std::uint64_t fnv1a64(std::span<const std::byte> bytes, std::uint64_t seed = 0xcbf29ce484222325ull);

// What a cache file's bytes hold: its payload, or why it is not usable. `corrupt` tells damage (truncated, a wrong
// checksum, a payload its reader refuses) from an entry that is merely another kind's, format version's or key's.
struct ParsedCacheEntry {
  std::optional<std::vector<std::byte>> payload;
  std::string problem;  // empty when `payload` is set
  bool corrupt = false;
};
// Parses the bytes of a cache file against the `kind` (4 characters) and `key` its reader expects. Needs no file
// and no device (the fuzz target tests/fuzz/cache_entry_fuzz.cpp drives it).
ParsedCacheEntry parse_cache_entry(std::span<const std::byte> file, std::string_view kind,
                                   std::span<const std::byte> key);

// A reader's own check of a payload that passed the file checks: empty if usable, else what is wrong with it.
using PayloadCheck = std::function<std::string(std::span<const std::byte>)>;

// A cache entry's payload if `path` holds a well-formed entry of `kind` whose key equals `key` and whose payload
// passes `check`; nullopt for a missing, foreign or corrupt file. A corrupt file is removed and named once on
// stderr (its reader then rebuilds the entry); a foreign one is left alone (with NXV_DEBUG set, the reason is
// printed), as the next write replaces it.
std::optional<std::vector<std::byte>> read_cache_entry(const std::filesystem::path& path, std::string_view kind,
                                                       std::span<const std::byte> key, const PayloadCheck& check = {});

// Writes an entry atomically (a temporary file renamed over `path`, so readers never see half a file) and
// creates the directory if needed. False, with no exception, when the directory is not writable.
bool write_cache_entry(const std::filesystem::path& path, std::string_view kind, std::span<const std::byte> key,
                       std::span<const std::byte> payload);

}  // namespace nxv::vulkan
