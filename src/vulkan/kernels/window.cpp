// OpCode::window_reduce (src/vulkan/kernels/window.comp) and OpCode::window_scatter
// (src/vulkan/kernels/window_scatter.comp: a SELECT pass writing each window's chosen x index, then a SCATTER pass that
// gathers, per x element, the source values of the windows that chose it -- deterministic, no atomics). The shaders
// take 4 axes: runs of axes without a window (size 1, stride 1, no padding) are merged into one, which leaves pooling
// over [N, C, H, W] with 3 and [N, C, D, H, W] with 4; more is left to the host fallback.
#include <cstdlib>
#include <vector>

#include "vulkan/kernels/kernels.hpp"
#include "vulkan/kernels/layout.hpp"
#include "vulkan/runtime/storage.hpp"

namespace nxv::vulkan::kernels {
namespace {

constexpr int kAxes = 4;

struct WindowPush {
  std::uint32_t count;
  std::uint32_t x_size[kAxes], out_size[kAxes], window[kAxes], stride[kAxes];
  std::int32_t low[kAxes];
  std::uint32_t dilation[kAxes];
};

struct Axis {
  std::int64_t x, out, window, stride, low, dilation;
  bool trivial() const { return window == 1 && stride == 1 && low == 0 && x == out; }
};

// The window geometry over 4 axes (leading ones padded), or false when more than 4 remain after merging.
bool window_push(const WindowAttrs& a, const Shape& x, const Shape& out, WindowPush& push) {
  std::vector<Axis> axes;
  for (int d = 0; d < x.size(); ++d) {
    const Axis axis{x[d], out[d], a.window[d], a.strides[d], a.pad_low[d], a.window_dilation[d]};
    if (axis.trivial() && !axes.empty() && axes.back().trivial()) {
      axes.back().x *= axis.x;
      axes.back().out *= axis.out;
    } else {
      axes.push_back(axis);
    }
  }
  if (axes.size() > kAxes) return false;
  while (axes.size() < kAxes) axes.insert(axes.begin(), Axis{1, 1, 1, 1, 0, 1});
  for (int d = 0; d < kAxes; ++d) {
    const Axis& axis = axes[static_cast<std::size_t>(d)];
    const std::int64_t reach = (axis.out - 1) * axis.stride + (axis.window - 1) * axis.dilation;
    if (std::abs(axis.low) > 0x3fffffff || reach > 0x3fffffff || !fits_u32(axis.x)) return false;
    push.x_size[d] = static_cast<std::uint32_t>(axis.x);
    push.out_size[d] = static_cast<std::uint32_t>(axis.out);
    push.window[d] = static_cast<std::uint32_t>(axis.window);
    push.stride[d] = static_cast<std::uint32_t>(axis.stride);
    push.low[d] = static_cast<std::int32_t>(axis.low);
    push.dilation[d] = static_cast<std::uint32_t>(axis.dilation);
  }
  return true;
}

enum class Pass : std::uint64_t { reduce = 0, select = 1, scatter = 2 };

const Pipeline* window_pipeline(Pass pass, DType dtype, ReduceFn fn) {
  static PipelineCache cache;
  static const char* const names[] = {"window_reduce_", "window_select_", "window_scatter_"};
  const std::int32_t spec[] = {static_cast<std::int32_t>(fn)};
  const auto key =
      static_cast<std::uint64_t>(dtype) | static_cast<std::uint64_t>(fn) << 8 | static_cast<std::uint64_t>(pass) << 16;
  return cache.get(
      key, [&] { return names[static_cast<int>(pass)] + std::string(variant_name(dtype)); }, spec);
}

void dispatch_items(const Pipeline* p, std::initializer_list<Binding> bindings, const WindowPush& push) {
  const Grid g = grid_for_items(push.count);
  runtime().dispatch(p, bindings, push_bytes(push), g.x, g.y);
}

}  // namespace

bool window(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result) {
  const Tensor& x = in[0];
  const WindowAttrs& a = call.attrs_as<WindowAttrs>();
  if (x.dtype() == DType::pred || out.dtype == DType::pred || x.dtype() != out.dtype) return false;
  if (!fits_u32(x.size()) || !fits_u32(num_elements(out.shape))) return false;
  const Shape windows = call.code == OpCode::window_reduce ? out.shape : in[1].shape();
  WindowPush push{};
  if (!window_push(a, x.shape(), windows, push)) return false;
  const std::int64_t window_count = num_elements(windows);

  if (call.code == OpCode::window_reduce) {
    result = allocate(out);
    push.count = static_cast<std::uint32_t>(window_count);
    if (push.count > 0)
      dispatch_items(window_pipeline(Pass::reduce, out.dtype, a.fn), {{&buffer_of(x), false}, {&result, true}}, push);
    return true;
  }
  if (call.code != OpCode::window_scatter || in[1].dtype() != out.dtype || in[2].dtype() != out.dtype) return false;
  if (window_count >= 0xffffffffLL) return false;  // 0xffffffff marks a window that selects nothing
  result = allocate(out);
  if (x.size() == 0) return true;
  BufferPtr selected = runtime().allocate(static_cast<std::size_t>(window_count) * sizeof(std::uint32_t));
  if (window_count > 0) {
    push.count = static_cast<std::uint32_t>(window_count);
    dispatch_items(window_pipeline(Pass::select, out.dtype, a.fn), {{&buffer_of(x), false}, {&selected, true}}, push);
  }
  push.count = static_cast<std::uint32_t>(x.size());
  dispatch_items(window_pipeline(Pass::scatter, out.dtype, a.fn),
                 {{&selected, false}, {&buffer_of(in[1]), false}, {&buffer_of(in[2]), false}, {&result, true}}, push);
  return true;
}

}  // namespace nxv::vulkan::kernels
