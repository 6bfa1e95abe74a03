// The Vulkan backend: tensors live in device buffers, and execute() is one switch over OpCode that hands each
// call to its kernel family (src/vulkan/kernels/). Whatever a family does not run natively goes through the
// host-fallback choke point (fallback.cpp), which counts it.
#include "vulkan/runtime/storage.hpp"

#include "nxv/error.hpp"
#include "ops/op.hpp"
#include "vulkan/kernels/kernels.hpp"
#include "vulkan/kernels/layout.hpp"
#include "vulkan/runtime/capabilities.hpp"
#include "vulkan/runtime/device_mask.hpp"
#include "vulkan/runtime/fallback.hpp"

namespace nxv::vulkan {

namespace {

// Refuses a tensor larger than a device buffer before anything is built: an op without a native kernel at that
// size (creation past 2^32 elements) would otherwise build the whole tensor on the host for the upload to fail.
void check_fits_device(const TensorType& type, const auto& op) {
  const std::uint64_t limit = runtime().features().max_buffer_bytes, bytes = byte_size(type);
  if (bytes > limit)
    detail::fail(op(), ": a ", to_string(type), " tensor needs ", bytes, " bytes, more than the ", limit,
                 " bytes a buffer of the Vulkan device holds (maxStorageBufferRange, maxMemoryAllocationSize",
                 lowered_by_mask(), ")");
}

class VulkanBackend final : public Backend {
 public:
  std::string_view name() const override { return "vulkan"; }

  std::shared_ptr<Storage> upload(std::span<const std::byte> bytes, const TensorType& type) override {
    const std::size_t expected = byte_size(type);
    NXV_CHECK(bytes.size() == expected, "vulkan upload", "got ", bytes.size(), " bytes for ", to_string(type),
              ", expected ", expected);
    check_fits_device(type, [] { return "vulkan upload"; });
    BufferPtr buffer = runtime().allocate(bytes.size());
    runtime().upload(buffer, bytes);
    return std::make_shared<VulkanStorage>(std::move(buffer));
  }

  void download(const Tensor& t, std::span<std::byte> dst) override {
    runtime().download(buffer_of(t, "vulkan download"), dst);
  }

  std::shared_ptr<Storage> execute(const OpCall& call, std::span<const Tensor> inputs, const TensorType& out) override {
    // Views: the same bytes, in the same order (reshape), read as another dtype of the same width (bitcast) or as
    // complex numbers' pairs of reals (real_view, complex_view).
    if (call.code == OpCode::reshape || call.code == OpCode::bitcast || call.code == OpCode::real_view ||
        call.code == OpCode::complex_view)
      return inputs[0].storage();
    check_fits_device(out, [&] { return describe(call); });
    BufferPtr result;
    if (!fallback_forced(call)) try {
        if (run_native(call, inputs, out, result)) return std::make_shared<VulkanStorage>(std::move(result));
      } catch (const DeviceLacks& lacking) {  // its kernel needs a feature the device lacks: counted as such
        return run_on_host(*this, call, inputs, out, lacking.feature());
      }
    return run_on_host(*this, call, inputs, out);
  }

 private:
  static bool run_native(const OpCall& call, std::span<const Tensor> in, const TensorType& out, BufferPtr& result) {
    switch (call.code) {
      case OpCode::unary:
      case OpCode::unary_test:
      case OpCode::binary:
      case OpCode::binary_test:
      case OpCode::select:
      case OpCode::clip:
        return kernels::elementwise(call, in, out, result);
      case OpCode::cast:
        return kernels::cast(call, in, out, result);
      case OpCode::reduce:
      case OpCode::arg_reduce:
        return kernels::reduce(call, in, out, result);
      case OpCode::transpose:
      case OpCode::broadcast:
      case OpCode::slice:
      case OpCode::pad:
      case OpCode::concatenate:
      case OpCode::reverse:
        return kernels::movement(call, in, out, result);
      case OpCode::dot:
        return kernels::dot(call, in, out, result);
      case OpCode::conv:
        return kernels::conv(call, in, out, result);
      case OpCode::window_reduce:
      case OpCode::window_scatter:
        return kernels::window(call, in, out, result);
      case OpCode::iota:
      case OpCode::eye:
      case OpCode::full:
      case OpCode::random_uniform:
      case OpCode::random_normal:
        return kernels::creation(call, in, out, result);
      case OpCode::take:
      case OpCode::take_along_axis:
      case OpCode::gather:
      case OpCode::indexed_add:
      case OpCode::indexed_put:
      case OpCode::put_slice:
        return kernels::indexing(call, in, out, result);
      case OpCode::sort:
      case OpCode::argsort:
      case OpCode::cumulative:
        return kernels::sorting(call, in, out, result);
      case OpCode::cholesky:
      case OpCode::triangular_solve:
      case OpCode::lu:
      case OpCode::qr:
      case OpCode::eigh:
      case OpCode::svd:
        return kernels::linalg(call, in, out, result);
      case OpCode::fft:
        return kernels::fft(call, in, out, result);
      case OpCode::reshape:
      case OpCode::bitcast:
      case OpCode::real_view:
      case OpCode::complex_view:
        return false;  // handled in execute()
      default:
        return false;  // an op without a kernel family: the host fallback
    }
  }
};

}  // namespace

Backend& backend() {
  runtime();  // nxv::Error here when there is no usable device
  static VulkanBackend instance;
  return instance;
}

}  // namespace nxv::vulkan
