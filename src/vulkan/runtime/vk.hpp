// Vulkan-Hpp with RAII handles, for the runtime's own .cpp files only (it costs ~4 s of compile time per
// translation unit here, so it is the library's precompiled header and never appears in a public header).
// The build defines VULKAN_HPP_NO_CONSTRUCTORS (structs are filled with designated initializers) and
// VULKAN_HPP_DISPATCH_LOADER_DYNAMIC=0: vk::raii objects carry their own dispatch tables, loaded through
// vkGetInstanceProcAddr / vkGetDeviceProcAddr, so extension functions (vkCmdPushDescriptorSetKHR) just work.
#pragma once
#include <vulkan/vulkan_raii.hpp>
