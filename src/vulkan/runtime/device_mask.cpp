// NXV_DEVICE_MASK (device_mask.hpp): parsing its entries and applying them to a device's description.
#include "vulkan/runtime/device_mask.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <utility>

#include "core/settings.hpp"
#include "core/text.hpp"
#include "nxv/error.hpp"

namespace nxv::vulkan {
namespace {

constexpr const char* kAccepts =
    "f64, int64, int16, int8, f16, push-descriptors, buffer-range=SIZE with SIZE in bytes or with a KiB, MiB or GiB "
    "suffix (e.g. buffer-range=128MiB), shared-memory=SIZE, invocations=N, and minimum (all of these, at Vulkan's "
    "minimum limits: 128MiB, 16KiB, 128)";

// The entries that hide a feature, by name (`minimum` hides them all).
struct FeatureEntry {
  std::string_view name;
  bool DeviceMask::*hides;
};
constexpr FeatureEntry kFeatureEntries[] = {
    {"push-descriptors", &DeviceMask::push_descriptors},
    {"f64", &DeviceMask::float64},
    {"int64", &DeviceMask::int64},
    {"int16", &DeviceMask::int16},
    {"int8", &DeviceMask::int8},
    {"f16", &DeviceMask::float16},
};

bool DeviceMask::*feature_entry(std::string_view entry) {
  for (const FeatureEntry& f : kFeatureEntries)
    if (f.name == entry) return f.hides;
  return nullptr;
}

// Vulkan's minimum maxStorageBufferRange, maxComputeSharedMemorySize and maxComputeWorkGroupInvocations.
constexpr std::uint64_t kMinimumBufferRange = std::uint64_t{128} << 20, kMinimumSharedMemory = 16384;
constexpr std::uint64_t kMinimumInvocations = 128;

// A whole number of bytes > 0, optionally in KiB, MiB or GiB; nullopt when malformed or past 2^64.
std::optional<std::uint64_t> parse_size(std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data() || value == 0) return std::nullopt;
  const std::string_view suffix(end, static_cast<std::size_t>(text.data() + text.size() - end));
  for (const auto& [name, shift] : {std::pair<std::string_view, int>{"", 0}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30}})
    if (suffix == name) {
      if (value > (UINT64_MAX >> shift)) return std::nullopt;
      return value << shift;
    }
  return std::nullopt;
}

}  // namespace

DeviceMask parse_device_mask(std::string_view setting) {
  DeviceMask mask;
  // Two values of a limit (two entries, or one and `minimum`): the lower one, as a mask only ever lowers.
  const auto lower = [](std::uint64_t& limit, std::uint64_t value) {
    limit = limit == 0 ? value : std::min(limit, value);
  };
  // The entry's SIZE (or N, where `plain`), checked.
  const auto size_of = [](std::string_view entry, std::string_view name, bool plain) {
    const std::string_view text = name.size() < entry.size() ? entry.substr(name.size() + 1) : std::string_view();
    const std::optional<std::uint64_t> size = parse_size(text);
    if (!size || (plain && text.find_first_not_of("0123456789") != std::string_view::npos))
      detail::fail("NXV_DEVICE_MASK: malformed ", plain ? "count" : "size", " in '", entry, "' (it takes ", kAccepts,
                   ")");
    return *size;
  };
  while (!setting.empty()) {
    const std::size_t comma = std::min(setting.find(','), setting.size());
    const std::string_view entry = trim_whitespace(setting.substr(0, comma));
    setting.remove_prefix(std::min(comma + 1, setting.size()));
    if (entry.empty()) continue;
    const std::string_view name = entry.substr(0, entry.find('='));
    if (bool DeviceMask::*feature = feature_entry(entry)) {
      mask.*feature = true;
    } else if (entry == "minimum") {
      for (const FeatureEntry& f : kFeatureEntries) mask.*f.hides = true;
      lower(mask.buffer_range, kMinimumBufferRange);
      lower(mask.shared_memory, kMinimumSharedMemory);
      lower(mask.invocations, kMinimumInvocations);
    } else if (name == "buffer-range") {
      lower(mask.buffer_range, size_of(entry, name, false));
    } else if (name == "shared-memory") {
      lower(mask.shared_memory, size_of(entry, name, false));
    } else if (name == "invocations") {
      lower(mask.invocations, size_of(entry, name, true));
    } else {
      detail::fail("NXV_DEVICE_MASK: unknown entry '", entry, "' (it takes a comma-separated list of ", kAccepts, ")");
    }
    mask.entries += (mask.entries.empty() ? "" : ",") + std::string(entry);
  }
  return mask;
}

const DeviceMask& device_mask() {
  static const DeviceMask mask = parse_device_mask(settings::value(settings::Id::DEVICE_MASK));
  return mask;
}

std::string lowered_by_mask() {
  return device_mask().buffer_range != 0 ? "; lowered by NXV_DEVICE_MASK=" + device_mask().entries : "";
}

void apply_device_mask(const DeviceMask& mask, DeviceDescription& d) {
  if (mask.push_descriptors) d.push_descriptors = false;
  if (mask.float64) d.float64 = false;
  if (mask.int64) d.int64 = false;
  if (mask.int16) d.int16 = d.storage16 = false;
  if (mask.int8) d.int8 = d.storage8 = false;
  if (mask.float16) d.float16 = false;
  if (!d.float16 || !d.storage16) d.cooperative_matrix_f16 = false;  // its shaders need both
  if (mask.buffer_range != 0) d.max_storage_buffer_range = std::min(d.max_storage_buffer_range, mask.buffer_range);
  const auto lower = [](std::uint32_t& limit, std::uint64_t value) {
    if (value != 0 && value < limit) limit = static_cast<std::uint32_t>(value);
  };
  lower(d.max_shared_memory, mask.shared_memory);
  lower(d.max_workgroup_invocations, mask.invocations);
  for (std::uint32_t& size : d.max_workgroup_size) lower(size, mask.invocations);
  d.masked = mask.entries;
}

}  // namespace nxv::vulkan
