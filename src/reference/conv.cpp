// The conv reference kernel (XLA's ConvGeneralDilated in canonical layouts: input [N, C, spatial...], kernel
// [O, I, spatial...], output [N / batch_groups, O, spatial...]).
//
// The normative order (include/nxv/conv.hpp): the terms x * w over k = channel * kernel_size + position (the
// group's input channels in increasing order, for each the kernel positions row-major), in chunks of
// kConvChunkTerms terms, each chunk summed serially from 0 -- the product rounded, then the sum (the library is
// built with -ffp-contract=off, so this is never an fma) -- and the chunk sums added in order. A tap that falls
// on padding or on a hole of the input dilation reads x = 0 and is still added. The Vulkan kernel
// (src/vulkan/kernels/conv.comp) runs the same sequence and chunks.
#include <array>

#include "nxv/conv.hpp"
#include "reference/dtype_dispatch.hpp"
#include "reference/kernels.hpp"

namespace nxv::reference {
namespace {

// The index arithmetic of a canonical conv, with 1 or 2 spatial axes padded to 3 by leading size-1 axes: which
// input element each (output, kernel tap) pair reads. src/vulkan/kernels/conv.comp does the same arithmetic.
struct ConvGeometry {
  std::int64_t batch_out = 0, channels = 0, out_channels = 0, in_per_group = 0;
  std::int64_t feature_groups = 1, batch_groups = 1;
  std::array<std::int64_t, 3> in{}, kernel{}, out{}, stride{}, low{}, in_dilation{}, kernel_dilation{};
  std::int64_t in_size = 1, kernel_size = 1, out_size = 1;  // spatial element counts

  // Where output (n, o, ...) reads: the input offset of its batch element's first channel of o's group, and
  // the kernel offset of o's first input channel.
  struct Taps {
    std::int64_t x_base, w_base;
  };
  Taps taps(std::int64_t n, std::int64_t o) const {
    const std::int64_t group = o / (out_channels / feature_groups);
    const std::int64_t batch_group = o / (out_channels / batch_groups);
    const std::int64_t batch = batch_group * batch_out + n;
    return {(batch * channels + group * in_per_group) * in_size, o * in_per_group * kernel_size};
  }

  // The input index along spatial axis d read by output position `p` and kernel position `k`, or -1 on padding
  // or a hole of the input dilation.
  std::int64_t source(int d, std::int64_t p, std::int64_t k) const {
    const std::int64_t q = p * stride[d] + k * kernel_dilation[d] - low[d];
    if (in_dilation[d] == 1) return q >= 0 && q < in[d] ? q : -1;  // the common case, without divisions
    if (q < 0 || q % in_dilation[d] != 0) return -1;
    const std::int64_t i = q / in_dilation[d];
    return i < in[d] ? i : -1;
  }

  // Calls f(x_index or -1, w_index) for output spatial position p (row-major) over every tap in the normative
  // order: input channel of the group, then kernel positions row-major.
  template <class F>
  void for_each_tap(const Taps& t, std::int64_t p, F&& f) const {
    const std::int64_t px = p % out[2], py = (p / out[2]) % out[1], pz = p / (out[2] * out[1]);
    for (std::int64_t c = 0; c < in_per_group; ++c) {
      const std::int64_t x_channel = t.x_base + c * in_size;
      std::int64_t w_index = t.w_base + c * kernel_size;
      for (std::int64_t kz = 0; kz < kernel[0]; ++kz) {
        const std::int64_t iz = source(0, pz, kz);
        for (std::int64_t ky = 0; ky < kernel[1]; ++ky) {
          const std::int64_t iy = source(1, py, ky);
          for (std::int64_t kx = 0; kx < kernel[2]; ++kx, ++w_index) {
            const std::int64_t ix = source(2, px, kx);
            const bool inside = iz >= 0 && iy >= 0 && ix >= 0;
            f(inside ? x_channel + (iz * in[1] + iy) * in[2] + ix : -1, w_index);
          }
        }
      }
    }
  }
};

ConvGeometry conv_geometry(const ConvAttrs& a, const Shape& x, const Shape& w, const Shape& out) {
  ConvGeometry g;
  g.channels = x[1];
  g.out_channels = w[0];
  g.in_per_group = w[1];
  g.batch_out = out[0];
  g.feature_groups = a.feature_groups;
  g.batch_groups = a.batch_groups;
  const int spatial = x.size() - 2, shift = 3 - spatial;
  for (int d = 0; d < 3; ++d) {
    const int s = d - shift;  // the spatial axis, or < 0 for a padding axis of size 1
    g.in[d] = s < 0 ? 1 : x[s + 2];
    g.kernel[d] = s < 0 ? 1 : w[s + 2];
    g.out[d] = s < 0 ? 1 : out[s + 2];
    g.stride[d] = s < 0 ? 1 : a.strides[s];
    g.low[d] = s < 0 ? 0 : a.pad_low[s];
    g.in_dilation[d] = s < 0 ? 1 : a.input_dilation[s];
    g.kernel_dilation[d] = s < 0 ? 1 : a.kernel_dilation[s];
    g.in_size *= g.in[d];
    g.kernel_size *= g.kernel[d];
    g.out_size *= g.out[d];
  }
  return g;
}

}  // namespace

void conv(const ConvAttrs& attrs, const Tensor& x, const Tensor& w, const TensorType& out, std::byte* dst) {
  const ConvGeometry g = conv_geometry(attrs, x.shape(), w.shape(), out.shape);
  const std::byte* xs = host_bytes(x);
  const std::byte* ws = host_bytes(w);
  visit_dtype(out.dtype, [&]<class S, class C>() {
    std::int64_t i = 0;
    for (std::int64_t n = 0; n < g.batch_out; ++n)
      for (std::int64_t o = 0; o < g.out_channels; ++o) {
        const ConvGeometry::Taps taps = g.taps(n, o);
        for (std::int64_t p = 0; p < g.out_size; ++p) {
          C acc = C(0), total = C(0);  // the current chunk's sum, the sum of the finished chunks
          std::int64_t k = 0;
          g.for_each_tap(taps, p, [&](std::int64_t x_index, std::int64_t w_index) {
            if (k != 0 && k % kConvChunkTerms == 0) {
              total = k == kConvChunkTerms ? acc : C(total + acc);
              acc = C(0);
            }
            const C xv = x_index < 0 ? C(0) : load<S, C>(xs, x_index);
            const C product = xv * load<S, C>(ws, w_index);
            acc = acc + product;
            ++k;
          });
          store<S, C>(dst, i++, k > kConvChunkTerms ? C(total + acc) : acc);
        }
      }
  });
}

}  // namespace nxv::reference
