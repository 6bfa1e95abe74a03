// nxv-info: every Vulkan device, what it supports, whether nx_vulkan can use it, and which one it would pick.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>

#include "core/settings.hpp"
#include "nxv/error.hpp"
#include "nxv/vulkan.hpp"
#include "vulkan/runtime/device_mask.hpp"

namespace {

using nxv::vulkan::DeviceDescription;

const char* kUsage =
    "usage: nxv-info [--help] [--json | --settings]\n"
    "Lists the Vulkan devices nx_vulkan can see, their features and limits, whether each is usable, and the one\n"
    "the library picks (NXV_DEVICE=<index or name substring> overrides the choice).\n"
    "  --json       print the same as one JSON object\n"
    "  --settings   print every NXV_* environment variable (name, values, default, effect) as a Markdown table\n";

std::string api_version(std::uint32_t v) {
  return std::to_string(v >> 22 & 0x7f) + "." + std::to_string(v >> 12 & 0x3ff) + "." + std::to_string(v & 0xfff);
}

// Driver versions are vendor-encoded: NVIDIA packs 10.8.8.6 bits; Mesa and most others use the API encoding.
std::string driver_version(const DeviceDescription& d) {
  const std::uint32_t v = d.driver_version;
  if (d.vendor_id == 0x10de)
    return std::to_string(v >> 22) + "." + std::to_string(v >> 14 & 0xff) + "." + std::to_string(v >> 6 & 0xff) + "." +
           std::to_string(v & 0x3f);
  return api_version(v);
}

std::string bytes(std::uint64_t n) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(n);
  int unit = 0;
  while (value >= 1024 && unit < 4) value /= 1024, ++unit;
  char text[32];
  std::snprintf(text, sizeof text, value == static_cast<std::uint64_t>(value) ? "%.0f %s" : "%.2f %s", value,
                units[unit]);
  return text;
}

std::string gib(std::uint64_t n) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(n) / (1ull << 30));
  return text;
}

const char* yes(bool b) { return b ? "yes" : "no"; }

// What nx_vulkan uses of the device, one row each; what NXV_DEVICE_MASK hides or lowers is marked as masked.
void print_feature_tiers(const DeviceDescription& d) {
  const nxv::vulkan::DeviceMask& mask = nxv::vulkan::device_mask();  // (list_devices() has checked it)
  const auto row = [](const char* name, const std::string& value) {
    std::cout << "    " << name << std::string(std::max<std::size_t>(26 - std::strlen(name), 1), ' ') << value << "\n";
  };
  // A feature the kernels may need: where it is missing, those kernels' ops take the counted host fallback.
  const auto feature = [&](bool has, bool masked) {
    return std::string(yes(has)) + (masked ? " (masked by NXV_DEVICE_MASK)" : "") +
           (has ? "" : "; kernels that need it fall back to the host");
  };
  std::cout << "  feature tiers\n";
  row("f64", feature(d.float64, mask.float64));
  row("int64", feature(d.int64, mask.int64));
  row("int8 arithmetic, storage", feature(d.int8 && d.storage8, mask.int8));
  row("int16 arithmetic, storage", feature(d.int16 && d.storage16, mask.int16));
  row("f16 arithmetic", feature(d.float16, mask.float16));
  std::string push = yes(d.push_descriptors);
  if (!d.push_descriptors)
    push += std::string(mask.push_descriptors ? " (masked by NXV_DEVICE_MASK)" : "") +
            "; bindings through descriptor sets recycled per batch";
  row("push descriptors", push);
  row("subgroup size", std::to_string(d.subgroup_size));
  const auto masked_to = [](std::uint64_t value, const std::string& text) {
    return value != 0 ? " (masked by NXV_DEVICE_MASK to at most " + text + ")" : std::string();
  };
  row("shared memory", bytes(d.max_shared_memory) + masked_to(mask.shared_memory, bytes(mask.shared_memory)));
  row("workgroup invocations",
      std::to_string(d.max_workgroup_invocations) + " (x " + std::to_string(d.max_workgroup_size[0]) + ", y " +
          std::to_string(d.max_workgroup_size[1]) + ", z " + std::to_string(d.max_workgroup_size[2]) + ")" +
          masked_to(mask.invocations, std::to_string(mask.invocations)));
  row("workgroup count x", std::to_string(d.max_workgroup_count_x));
  row("push constants", bytes(d.max_push_constants));
  row("storage buffer range",
      bytes(d.max_storage_buffer_range) + masked_to(mask.buffer_range, bytes(mask.buffer_range)));
  row("allocation size", bytes(d.max_allocation_size));
  row("cooperative matrix f16", std::string(yes(d.cooperative_matrix_f16)) +
                                    " (VK_NV_cooperative_matrix, 16x16x16 f16 -> f32: f16 dots in fast mode)");
  row("float controls", std::string("keep denormals f32 ") + yes(d.denorm_preserve_f32) + ", f64 " +
                            yes(d.denorm_preserve_f64) + "; keep signed zero/inf/NaN f32 " +
                            yes(d.signed_zero_inf_nan_f32) + ", f64 " + yes(d.signed_zero_inf_nan_f64));
}

void print_text(const std::vector<DeviceDescription>& devices, int picked, const std::string& reason) {
  std::cout << "Vulkan devices: " << devices.size() << "\n";
  for (const auto& d : devices) {
    std::cout << "\n[" << d.index << "] " << d.name << (d.index == picked ? "   <- picked" : "") << "\n";
    std::cout << "  type                " << d.type << "\n";
    std::cout << "  driver              " << d.driver_name << (d.driver_info.empty() ? "" : " (" + d.driver_info + ")")
              << ", version " << driver_version(d) << "\n";
    std::cout << "  Vulkan API          " << api_version(d.api_version) << "\n";
    for (std::size_t h = 0; h < d.heap_sizes.size(); ++h)
      std::cout << "  memory heap " << h << "       " << gib(d.heap_sizes[h])
                << (d.heap_device_local[h] ? ", device-local" : "") << "\n";
    print_feature_tiers(d);
    if (!d.masked.empty()) std::cout << "  masked              " << d.masked << " (NXV_DEVICE_MASK)\n";
    std::cout << "  usable              " << (d.usable ? "yes" : "no: " + d.unusable_reason) << "\n";
  }
  if (picked >= 0)
    std::cout << "\nnx_vulkan picks device " << picked << ": " << reason << "\n";
  else
    std::cout << "\nnx_vulkan picks no device: " << reason << "\n";
}

std::string json_string(const std::string& s) {
  std::ostringstream out;
  out << '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\')
      out << '\\' << c;
    else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out << escaped;
    } else {
      out << c;
    }
  }
  out << '"';
  return out.str();
}

void print_json(const std::vector<DeviceDescription>& devices, int picked, const std::string& reason) {
  std::cout << "{\"devices\": [";
  for (const auto& d : devices) {
    std::cout << (d.index ? "," : "") << "\n  {\"index\": " << d.index << ", \"name\": " << json_string(d.name)
              << ", \"type\": " << json_string(d.type) << ", \"driver_name\": " << json_string(d.driver_name)
              << ", \"driver_info\": " << json_string(d.driver_info)
              << ", \"api_version\": " << json_string(api_version(d.api_version))
              << ", \"driver_version\": " << json_string(driver_version(d)) << ", \"vendor_id\": " << d.vendor_id
              << ", \"device_id\": " << d.device_id << ", \"heaps\": [";
    for (std::size_t h = 0; h < d.heap_sizes.size(); ++h)
      std::cout << (h ? ", " : "") << "{\"bytes\": " << d.heap_sizes[h]
                << ", \"device_local\": " << (d.heap_device_local[h] ? "true" : "false") << "}";
    const auto b = [](bool v) { return v ? "true" : "false"; };
    std::cout << "], \"subgroup_size\": " << d.subgroup_size << ", \"float64\": " << b(d.float64)
              << ", \"int64\": " << b(d.int64) << ", \"float16\": " << b(d.float16) << ", \"int8\": " << b(d.int8)
              << ", \"storage8\": " << b(d.storage8) << ", \"int16\": " << b(d.int16)
              << ", \"storage16\": " << b(d.storage16) << ", \"push_descriptors\": " << b(d.push_descriptors)
              << ", \"cooperative_matrix_f16\": " << b(d.cooperative_matrix_f16) << ", \"masked\": \"" << d.masked
              << "\""
              << ", \"denorm_preserve_f32\": " << b(d.denorm_preserve_f32)
              << ", \"denorm_preserve_f64\": " << b(d.denorm_preserve_f64)
              << ", \"signed_zero_inf_nan_f32\": " << b(d.signed_zero_inf_nan_f32)
              << ", \"signed_zero_inf_nan_f64\": " << b(d.signed_zero_inf_nan_f64)
              << ", \"max_workgroup_invocations\": " << d.max_workgroup_invocations
              << ", \"max_workgroup_count_x\": " << d.max_workgroup_count_x
              << ", \"max_shared_memory\": " << d.max_shared_memory
              << ", \"max_push_constants\": " << d.max_push_constants
              << ", \"max_storage_buffer_range\": " << d.max_storage_buffer_range
              << ", \"max_allocation_size\": " << d.max_allocation_size << ", \"usable\": " << b(d.usable)
              << ", \"unusable_reason\": " << json_string(d.unusable_reason) << "}";
  }
  std::cout << "\n], \"picked\": " << picked << ", \"reason\": " << json_string(reason) << "}\n";
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::cout << kUsage;
      return 0;
    }
    if (std::strcmp(argv[i], "--settings") == 0) {
      std::cout << nxv::settings::markdown_table();
      return 0;
    }
    if (std::strcmp(argv[i], "--json") != 0) {
      std::cerr << "nxv-info: unknown argument '" << argv[i] << "'\n" << kUsage;
      return 2;
    }
    json = true;
  }
  std::vector<nxv::vulkan::DeviceDescription> devices;
  try {
    nxv::settings::check_all();
    devices = nxv::vulkan::list_devices();  // (an unknown NXV_DEVICE_MASK feature is an error here)
  } catch (const nxv::Error& e) {
    std::cerr << "nxv-info: " << e.what() << "\n";
    return 2;
  }
  if (devices.empty()) {
    std::cerr << "nxv-info: no Vulkan device found: either no Vulkan loader (libvulkan1) or no driver "
                 "(e.g. mesa-vulkan-drivers for lavapipe, or the GPU vendor's driver) is installed.\n";
    return 1;
  }
  std::string reason;
  int picked = -1;
  try {
    picked = nxv::vulkan::pick_device(&reason);
  } catch (const nxv::Error& e) {
    reason = e.what();
  }
  json ? print_json(devices, picked, reason) : print_text(devices, picked, reason);
  return 0;
}
