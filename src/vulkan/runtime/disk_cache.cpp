// Cache files: "NXVC" | kind (4 bytes) | format version u32 | key length u32 | payload length u64 |
// payload FNV-1a u64 | key | payload. Every field is checked on reading; any mismatch means "not cached", and
// damage (as opposed to another kind, version or key) evicts the file.
#include "vulkan/runtime/disk_cache.hpp"
#include "core/settings.hpp"

#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <system_error>
#include <utility>

namespace nxv::vulkan {
namespace {

constexpr char kMagic[4] = {'N', 'X', 'V', 'C'};
constexpr std::uint32_t kFormatVersion = 1;

struct Header {
  char magic[4];
  char kind[4];
  std::uint32_t version;
  std::uint32_t key_bytes;
  std::uint64_t payload_bytes;
  std::uint64_t payload_checksum;
};
static_assert(sizeof(Header) == 32);

// No cache entry is near 4 GiB: a longer file, or a header that claims more, is garbage.
constexpr std::uint64_t kMaxPayload = std::uint64_t{1} << 32;

ParsedCacheEntry foreign(const char* why) { return {.payload = std::nullopt, .problem = why, .corrupt = false}; }
ParsedCacheEntry corrupt(std::string why) {
  return {.payload = std::nullopt, .problem = std::move(why), .corrupt = true};
}

}  // namespace

std::optional<std::filesystem::path> cache_directory() {
  if (settings::is_set(settings::Id::CACHE_DIR)) {
    const std::string dir = settings::value(settings::Id::CACHE_DIR);
    if (dir == "off" || dir == "none") return std::nullopt;
    return std::filesystem::path(dir);
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/')
    return std::filesystem::path(xdg) / "nx_vulkan";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home == '/')
    return std::filesystem::path(home) / ".cache" / "nx_vulkan";
  return std::nullopt;
}

std::uint64_t fnv1a64(std::span<const std::byte> bytes, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (std::byte b : bytes) h = (h ^ static_cast<std::uint8_t>(b)) * 0x100000001b3ull;
  return h;
}

ParsedCacheEntry parse_cache_entry(std::span<const std::byte> file, std::string_view kind,
                                   std::span<const std::byte> key) {
  Header h{};
  if (file.size() < sizeof h) return corrupt("shorter than its header");
  std::memcpy(&h, file.data(), sizeof h);
  if (std::memcmp(h.magic, kMagic, 4) != 0) return corrupt("not an nx_vulkan cache file");
  if (kind.size() != 4 || std::memcmp(h.kind, kind.data(), 4) != 0) return foreign("another kind of cache file");
  if (h.version != kFormatVersion) return foreign("another format version");
  if (h.key_bytes != key.size()) return foreign("another key (device, driver or content)");
  const auto rest = file.subspan(sizeof h);
  if (rest.size() < key.size()) return corrupt("truncated key");
  if (!std::equal(key.begin(), key.end(), rest.begin())) return foreign("another key (device, driver or content)");
  const auto payload = rest.subspan(key.size());
  if (h.payload_bytes > kMaxPayload) return corrupt("implausible payload length");
  if (payload.size() < h.payload_bytes) return corrupt("truncated payload");
  if (payload.size() > h.payload_bytes) return corrupt("trailing bytes");
  if (fnv1a64(payload) != h.payload_checksum) return corrupt("checksum mismatch");
  return {.payload = std::vector<std::byte>(payload.begin(), payload.end()), .problem = {}, .corrupt = false};
}

std::optional<std::vector<std::byte>> read_cache_entry(const std::filesystem::path& path, std::string_view kind,
                                                       std::span<const std::byte> key, const PayloadCheck& check) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return std::nullopt;  // a miss, not worth a message
  const std::streamoff size = in.tellg();
  ParsedCacheEntry entry;
  if (size < 0 || static_cast<std::uint64_t>(size) > sizeof(Header) + key.size() + kMaxPayload) {
    entry = corrupt("implausible length");
  } else {
    std::vector<std::byte> bytes(static_cast<std::size_t>(size));
    in.seekg(0);
    if (!in.read(reinterpret_cast<char*>(bytes.data()), size)) return std::nullopt;  // changed while read: a miss
    entry = parse_cache_entry(bytes, kind, key);
    if (entry.payload && check) {
      if (std::string problem = check(*entry.payload); !problem.empty()) entry = corrupt(std::move(problem));
    }
  }
  if (entry.payload) return std::move(entry.payload);
  if (entry.corrupt) {
    // Evicted, so that a later run neither trips over it nor reports it again.
    std::error_code ec;
    std::filesystem::remove(path, ec);
    std::fprintf(stderr, "nxv: removed the corrupt cache file %s (%s); it will be rebuilt\n", path.c_str(),
                 entry.problem.c_str());
  } else if (settings::flag(settings::Id::DEBUG)) {
    std::fprintf(stderr, "nxv: ignoring cache file %s: %s\n", path.c_str(), entry.problem.c_str());
  }
  return std::nullopt;
}

bool write_cache_entry(const std::filesystem::path& path, std::string_view kind, std::span<const std::byte> key,
                       std::span<const std::byte> payload) {
  if (kind.size() != 4) return false;
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) return false;
  static std::atomic<unsigned> serial{0};
  std::filesystem::path temp = path;
  temp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(serial++);
  Header h{};
  std::memcpy(h.magic, kMagic, 4);
  std::memcpy(h.kind, kind.data(), 4);
  h.version = kFormatVersion;
  h.key_bytes = static_cast<std::uint32_t>(key.size());
  h.payload_bytes = payload.size();
  h.payload_checksum = fnv1a64(payload);
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out.write(reinterpret_cast<const char*>(&h), sizeof h);
    out.write(reinterpret_cast<const char*>(key.data()), static_cast<std::streamsize>(key.size()));
    out.write(reinterpret_cast<const char*>(payload.data()), static_cast<std::streamsize>(payload.size()));
    if (!out.flush()) {
      out.close();
      std::filesystem::remove(temp, ec);
      return false;
    }
  }
  std::filesystem::rename(temp, path, ec);
  if (!ec) return true;
  std::filesystem::remove(temp, ec);
  return false;
}

}  // namespace nxv::vulkan
