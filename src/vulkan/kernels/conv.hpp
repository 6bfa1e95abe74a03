// The conv kernel's launch (src/vulkan/kernels/conv.cpp), for the fusion compiler's generated copies of
// src/vulkan/kernels/conv.comp, which run an epilogue after the store of each output (codegen.hpp). Only unsplit convs
// (one chunk of terms, or partials too large to split) qualify: a split conv's outputs come from the combine pass.
#pragma once
#include <array>
#include <cstdint>
#include <span>

#include "nxv/tensor.hpp"
#include "ops/op.hpp"
#include "vulkan/runtime/runtime.hpp"

namespace nxv::vulkan::kernels {

inline constexpr std::size_t kConvPushWords = 25;  // conv.comp's push block, before an epilogue's words

struct ConvLaunch {
  std::array<std::int32_t, 7> specialization{};  // RM, RN, CHUNK, SPLIT (0), KB, DILATED, FAST
  std::array<std::uint32_t, kConvPushWords> push{};
  std::array<std::uint32_t, 3> groups{};
};
// Whether conv() runs this call natively, unsplit, on a non-empty result (types only, no device work).
bool runs_unsplit_conv(const OpCall& call, const TensorType& x, const TensorType& w, const TensorType& out);
ConvLaunch unsplit_conv_launch(const OpCall& call, const TensorType& x, const TensorType& w, const TensorType& out);
// Dispatches `launch` with `pipeline` (conv.comp's layout, then `extra` bindings), pushing conv.comp's block and
// then `extra_push`.
void dispatch_conv(const Pipeline* pipeline, const ConvLaunch& launch, const BufferPtr& x, const BufferPtr& w,
                   const BufferPtr& result, std::span<const Binding> extra = {},
                   std::span<const std::uint32_t> extra_push = {});

}  // namespace nxv::vulkan::kernels
