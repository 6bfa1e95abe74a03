// The host-fallback choke point of the Vulkan backend (the public side is include/nxv/fallback.hpp).
#pragma once
#include <memory>
#include <span>
#include <string>

#include "nxv/backend.hpp"
#include "ops/op.hpp"

namespace nxv::vulkan {

// Whether a test asked for `call` to take the fallback even though a native kernel exists.
bool fallback_forced(const OpCall& call);

// For tests of the choke point itself: calls of `code`, or whose event name starts with `name_prefix`, take the
// fallback even where a native kernel exists, until clear_forced_fallbacks().
void force_fallback_for_testing(OpCode code);
void force_fallback_for_testing(const std::string& name_prefix);
void clear_forced_fallbacks();

// Runs `call` on the reference backend: downloads the inputs, executes, uploads the result to `target`.
// Counts the event, and warns or throws as NXV_FALLBACK says. The one way an op leaves the GPU. `lacking`: the
// device feature its kernel needs and the device lacks (capabilities.hpp); empty when there is no native kernel.
std::shared_ptr<Storage> run_on_host(Backend& target, const OpCall& call, std::span<const Tensor> inputs,
                                     const TensorType& out, const std::string& lacking = {});

}  // namespace nxv::vulkan
