// Cache files: "NXVC" | kind (4 bytes) | format version u32 | key length u32 | payload length u64 |
// payload FNV-1a u64 | key | payload. Every field is checked on reading; any mismatch means "not cached".
#include "vulkan/runtime/disk_cache.hpp"
#include "core/settings.hpp"

#include <unistd.h>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <system_error>

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

bool debug_enabled() { return settings::flag(settings::Id::DEBUG); }

std::nullopt_t reject(const std::filesystem::path& path, const char* why) {
  if (debug_enabled()) std::fprintf(stderr, "nxv: ignoring cache file %s: %s\n", path.c_str(), why);
  return std::nullopt;
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

std::optional<std::vector<std::byte>> read_cache_entry(const std::filesystem::path& path, std::string_view kind,
                                                       std::span<const std::byte> key) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;  // a miss, not worth a message
  Header h{};
  if (!in.read(reinterpret_cast<char*>(&h), sizeof h)) return reject(path, "shorter than its header");
  if (std::memcmp(h.magic, kMagic, 4) != 0 || kind.size() != 4 || std::memcmp(h.kind, kind.data(), 4) != 0)
    return reject(path, "not an nx_vulkan cache file of this kind");
  if (h.version != kFormatVersion) return reject(path, "another format version");
  if (h.key_bytes != key.size()) return reject(path, "another key (device, driver or content)");
  std::vector<std::byte> stored_key(key.size());
  if (!in.read(reinterpret_cast<char*>(stored_key.data()), static_cast<std::streamsize>(stored_key.size())))
    return reject(path, "truncated key");
  if (!std::equal(stored_key.begin(), stored_key.end(), key.begin(), key.end()))
    return reject(path, "another key (device, driver or content)");
  constexpr std::uint64_t kMaxPayload = std::uint64_t{1}
                                        << 32;  // no cache entry is near 4 GiB; a bigger one is garbage
  if (h.payload_bytes > kMaxPayload) return reject(path, "implausible payload length");
  std::vector<std::byte> payload(h.payload_bytes);
  if (!in.read(reinterpret_cast<char*>(payload.data()), static_cast<std::streamsize>(payload.size())))
    return reject(path, "truncated payload");
  if (in.peek() != std::char_traits<char>::eof()) return reject(path, "trailing bytes");
  if (fnv1a64(payload) != h.payload_checksum) return reject(path, "checksum mismatch");
  return payload;
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
