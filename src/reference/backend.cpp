// ReferenceBackend: tensors as host byte arrays and every op as a plain C++ loop (the kernels in this folder).
// It is the oracle the Vulkan backend is checked against, so it favours obviously-correct over fast.
#include <unistd.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <new>

#include "core/checked_math.hpp"
#include "nxv/backend.hpp"
#include "reference/kernels.hpp"

namespace nxv {
namespace reference {
namespace {

const HostStorage& host_storage(const Tensor& t) {
  const auto* storage = dynamic_cast<const HostStorage*>(t.storage().get());
  NXV_CHECK(storage != nullptr, "reference", "a ", to_string(t.type()), " tensor on the '", t.backend().name(),
            "' backend was given to the reference backend (move it with Tensor::to first)");
  NXV_CHECK(storage->bytes.size() >= byte_size(t.type()), "reference", "storage of ", storage->bytes.size(),
            " bytes is too small for ", to_string(t.type()));
  return *storage;
}

// The machine's physical memory: no reference tensor may be larger. Refusing up front (rather than asking the
// allocator) keeps a 10^12-element zeros from bad_alloc, from the OOM killer under overcommit, and from a
// sanitizer allocator's abort on an oversized request.
std::size_t host_memory_bytes() {
  static const std::size_t bytes = [] {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page)
                                 : std::numeric_limits<std::size_t>::max();
  }();
  return bytes;
}

// Host storage for a tensor of `type`: nxv::Error naming `op`, never std::bad_alloc, when it cannot be had. `op` is
// a string or a callable making one, only for the error (describing the op on every call costs microseconds).
template <class Op>
std::shared_ptr<HostStorage> allocate(const TensorType& type, const Op& op) {
  const std::size_t bytes = byte_size(type);
  NXV_CHECK(bytes <= host_memory_bytes(), detail::message_part(op), "a ", to_string(type), " tensor needs ", bytes,
            " bytes, more than the host's ", host_memory_bytes(), " bytes of memory (reference backend)");
  try {
    auto storage = std::make_shared<HostStorage>();
    storage->bytes.resize(bytes);
    return storage;
  } catch (const std::bad_alloc&) {
    detail::fail(detail::message_part(op), ": out of host memory allocating ", bytes, " bytes for a ", to_string(type),
                 " tensor (reference backend)");
  }
}

class ReferenceBackend final : public Backend {
 public:
  std::string_view name() const override { return "reference"; }

  std::shared_ptr<Storage> upload(std::span<const std::byte> bytes, const TensorType& type) override {
    NXV_CHECK(bytes.size() == byte_size(type), "reference upload", "got ", bytes.size(), " bytes for ", to_string(type),
              ", expected ", byte_size(type));
    auto storage = allocate(type, std::string_view("reference upload"));
    std::copy(bytes.begin(), bytes.end(), storage->bytes.begin());
    return storage;
  }

  void download(const Tensor& t, std::span<std::byte> dst) override {
    NXV_CHECK(dst.size() == byte_size(t.type()), "reference download", "destination of ", dst.size(), " bytes for ",
              to_string(t.type()), ", expected ", byte_size(t.type()));
    const HostStorage& storage = host_storage(t);
    std::copy_n(storage.bytes.begin(), dst.size(), dst.begin());
  }

  // The one switch over OpCode. No `default:`, so -Wswitch names any OpCode added without a case here.
  std::shared_ptr<Storage> execute(const OpCall& call, Inputs in, const TensorType& out) override {
    auto arg = [&](std::size_t i) -> const Tensor& {
      NXV_CHECK(i < in.size(), describe(call), "the reference backend expects at least ", i + 1, " inputs, got ",
                in.size());
      return in[i];
    };
    std::shared_ptr<HostStorage> result;
    auto dst = [&] {  // the result's bytes, for the kernel to fill
      result = allocate(out, [&] { return describe(call); });
      return result->bytes.data();
    };
    switch (call.code) {
      case OpCode::unary:
        unary(call.attrs_as<UnaryAttrs>(), arg(0), out, dst());
        break;
      case OpCode::unary_test:
        unary_test(call.attrs_as<UnaryAttrs>(), arg(0), out, dst());
        break;
      case OpCode::binary:
        binary(call.attrs_as<BinaryAttrs>(), arg(0), arg(1), out, dst());
        break;
      case OpCode::binary_test:
        binary_test(call.attrs_as<BinaryAttrs>(), arg(0), arg(1), out, dst());
        break;
      case OpCode::select:
        select(arg(0), arg(1), arg(2), out, dst());
        break;
      case OpCode::clip:
        clip(arg(0), arg(1), arg(2), out, dst());
        break;
      case OpCode::cast:
        cast(arg(0), out, dst());
        break;
      case OpCode::reduce:
        reduce(call.attrs_as<ReduceAttrs>(), arg(0), out, dst());
        break;
      case OpCode::arg_reduce:
        arg_reduce(call.attrs_as<ArgReduceAttrs>(), arg(0), out, dst());
        break;
      case OpCode::reshape:
        return arg(0).storage();  // a view: the input's row-major bytes are the result's
      case OpCode::transpose:
        transpose(call.attrs_as<TransposeAttrs>(), arg(0), out, dst());
        break;
      case OpCode::broadcast:
        broadcast(call.attrs_as<BroadcastAttrs>(), arg(0), out, dst());
        break;
      case OpCode::slice:
        slice(call.attrs_as<SliceAttrs>(), arg(0), out, dst());
        break;
      case OpCode::pad:
        pad(call.attrs_as<PadAttrs>(), arg(0), out, dst());
        break;
      case OpCode::concatenate:
        concatenate(call.attrs_as<AxisAttrs>(), in, out, dst());
        break;
      case OpCode::reverse:
        reverse(call.attrs_as<ReverseAttrs>(), arg(0), out, dst());
        break;
      case OpCode::dot:
        dot(call.attrs_as<DotAttrs>(), arg(0), arg(1), out, dst());
        break;
      case OpCode::iota:
        iota(call.attrs_as<AxisAttrs>(), out, dst());
        break;
      case OpCode::eye:
        eye(out, dst());
        break;
      case OpCode::full:
        full(call.attrs_as<FullAttrs>(), out, dst());
        break;
      case OpCode::random_uniform:
        random_uniform(call.attrs_as<UniformAttrs>(), out, dst());
        break;
      case OpCode::random_normal:
        random_normal(call.attrs_as<NormalAttrs>(), out, dst());
        break;
      case OpCode::conv:
        conv(call.attrs_as<ConvAttrs>(), arg(0), arg(1), out, dst());
        break;
      case OpCode::window_reduce:
        window_reduce(call.attrs_as<WindowAttrs>(), arg(0), out, dst());
        break;
      case OpCode::window_scatter:
        window_scatter(call.attrs_as<WindowAttrs>(), arg(0), arg(1), arg(2), out, dst());
        break;
      case OpCode::take:
        take(call.attrs_as<AxisAttrs>(), arg(0), arg(1), out, dst());
        break;
      case OpCode::take_along_axis:
        take_along_axis(call.attrs_as<AxisAttrs>(), arg(0), arg(1), out, dst());
        break;
      case OpCode::gather:
        gather(arg(0), arg(1), out, dst());
        break;
      case OpCode::indexed_add:
        indexed_add(arg(0), arg(1), arg(2), out, dst());
        break;
      case OpCode::indexed_put:
        indexed_put(arg(0), arg(1), arg(2), out, dst());
        break;
      case OpCode::put_slice:
        put_slice(call.attrs_as<PutSliceAttrs>(), arg(0), arg(1), out, dst());
        break;
      case OpCode::sort:
        sort(call.attrs_as<SortAttrs>(), arg(0), out, dst());
        break;
      case OpCode::argsort:
        argsort(call.attrs_as<SortAttrs>(), arg(0), out, dst());
        break;
      case OpCode::cumulative:
        cumulative(call.attrs_as<CumulativeAttrs>(), arg(0), out, dst());
        break;
      case OpCode::bitcast:
      case OpCode::real_view:
      case OpCode::complex_view:
        return arg(0).storage();  // a view: the same bytes read as a dtype of the same width, or as pairs
      case OpCode::cholesky:
        cholesky(arg(0), out, dst());
        break;
      case OpCode::triangular_solve:
        triangular_solve(call.attrs_as<TriangularSolveAttrs>(), arg(0), arg(1), out, dst());
        break;
      case OpCode::lu:
        lu(arg(0), out, dst());
        break;
      case OpCode::qr:
        qr(call.attrs_as<QrAttrs>(), arg(0), out, dst());
        break;
      case OpCode::eigh:
        eigh(arg(0), out, dst());
        break;
      case OpCode::svd:
        svd(arg(0), out, dst());
        break;
      case OpCode::fft:
        fft(call.attrs_as<FftAttrs>(), arg(0), out, dst());
        break;
    }
    NXV_CHECK(result != nullptr, describe(call), "the reference backend has no kernel for op code ",
              static_cast<int>(call.code));
    return result;
  }
};

}  // namespace

const std::byte* host_bytes(const Tensor& t) { return host_storage(t).bytes.data(); }

}  // namespace reference

Backend& reference_backend() {
  static reference::ReferenceBackend backend;
  return backend;
}

}  // namespace nxv
