// Convolution, window reductions (pooling) and window scatters, with Nx's semantics (Nx.conv, Nx.window_*,
// Nx.window_scatter_max/min), which are XLA's ConvGeneralDilated / ReduceWindow / SelectAndScatter.
//
// Numerics, the same on every backend (bit-identical):
//  - conv: each output sums the terms x * w over k = 0, 1, ..., K - 1, where k runs over the input channels of
//    its group in increasing order and, for each channel, the kernel positions in row-major order. The sequence
//    is cut into chunks of kConvChunkTerms consecutive terms; each chunk is summed serially, acc = 0; acc = acc +
//    x * w (a rounded product, then a rounded sum: never a fused multiply-add), and the chunk sums are added in
//    order (s0 + s1, then + s2, ...). With K <= kConvChunkTerms that is one serial sum. (The chunks let a GPU
//    split the long contractions of kernel gradients, e.g. 25088 terms for 150 outputs, over many workgroups
//    without changing the result.) Padding and the holes of input dilation are zeros that take part in the sum
//    (0 * inf is NaN, as in XLA, where padding is zero-valued elements).
//  - window_sum/product/max/min fold acc = op(acc, x) from the identity over the window in row-major order;
//    padding is the identity (it never changes the result). max/min propagate NaN.
//  - window_scatter_max/min: each window selects the LAST maximum (minimum) in row-major window order, as Nx's
//    reference does: an element replaces the current choice when it is greater (less) or equal (-0.0 equals
//    +0.0). NaN counts as larger (and smaller) than every number, so the last NaN of a window is selected (so a
//    max-pool's gradient over a window of relu zeros goes to its last zero). Padding is never selected; a window
//    that is all padding selects nothing. out = init + the sum of the source values of the windows that selected
//    each position, added in increasing window order (row-major over the windows).
#pragma once
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "nxv/ops.hpp"

namespace nxv {

// The chunk length of conv's summation order (above).
inline constexpr std::int64_t kConvChunkTerms = 256;

using Padding = std::vector<std::pair<std::int64_t, std::int64_t>>;  // (low, high) per axis; negative cuts

// Nx's conv options. Empty lists mean the defaults: strides 1, padding valid (no padding), dilations 1,
// permutations the identity.
//  - input_permutation: canonical axis i of the input ([N, C, spatial...]) is axis input_permutation[i] of the
//    tensor given (NHWC: {0, 3, 1, 2}); kernel_permutation likewise for [O, I, spatial...]; output_permutation:
//    canonical output axis i ([N, O, spatial...]) becomes axis output_permutation[i] of the result (NHWC:
//    {0, 3, 1, 2} again).
//  - feature_group_size G: C = G * I and O % G == 0; output channel o sees the input channels of group
//    o / (O / G), i.e. [g * I, (g + 1) * I) (grouped and depthwise convolutions).
//  - batch_group_size B: N % B == 0, O % B == 0; the output batch is N / B and output channel o sees the input
//    batch elements g * (N / B) + n of group g = o / (O / B) (used by the kernel gradient of grouped convs).
//  - padding applies to the input after input dilation; the output spatial size is
//    floor((dilated input + low + high - dilated kernel) / stride) + 1, which must be >= 1.
//  - precision: dot's contract (include/nxv/precision.hpp) for conv's sum: exact is the order above with a rounded
//    product and sum per term, bit-identical everywhere; fast takes one fused multiply-add per term in the same
//    order (chunks included), each output within gamma(K) * sum_k |x_k w_k| of the exact value. Unset: the
//    current mode (PrecisionScope, jit, NXV_PRECISION), as for dot. The gradient convs keep the forward's mode.
struct ConvOptions {
  Axes strides;
  Padding padding;
  Axes input_dilation, kernel_dilation;
  std::int64_t feature_group_size = 1, batch_group_size = 1;
  OptAxes input_permutation, kernel_permutation, output_permutation;
  std::optional<Precision> precision;
};

// Nx's :same padding for a window of `window` (already dilated) over each axis: k - 1 in total, the extra one
// on the high side; strides are not taken into account (as Nx).
Padding padding_same(const Shape& window);
// Nx's :valid padding: none.
Padding padding_valid(int rank);

// Nx.conv for 1, 2 or 3 spatial dimensions. Operands of different dtypes are promoted; the result is a float
// (integer operands give f32).
Tensor conv(const Tensor& input, const Tensor& kernel, const ConvOptions& options = {});
// The padding that `same` means for this conv (the dilated kernel's spatial size minus one per spatial axis,
// the extra one high), for options.padding.
Padding conv_padding_same(const Tensor& input, const Tensor& kernel, const ConvOptions& options = {});

// Window options, one entry per axis of the tensor (empty: strides 1, no padding, dilations 1).
struct WindowOptions {
  Axes strides;
  Padding padding;
  Axes window_dilations;
};

// Reductions over windows of `window` (one size per axis of x): the output has, per axis,
// floor((x + low + high - dilated window) / stride) + 1 elements. Types: the input's (pred counts as u8).
Tensor window_sum(const Tensor& x, const Shape& window, const WindowOptions& options = {});
Tensor window_product(const Tensor& x, const Shape& window, const WindowOptions& options = {});
Tensor window_max(const Tensor& x, const Shape& window, const WindowOptions& options = {});
Tensor window_min(const Tensor& x, const Shape& window, const WindowOptions& options = {});
// window_sum divided by the window's element count (padding included, as Nx), as a float.
Tensor window_mean(const Tensor& x, const Shape& window, const WindowOptions& options = {});

// Nx.window_scatter_max/min: for each window of x (as window_max would form them), source's element for that
// window is added to the position of the window's last maximum (minimum); every position starts at `init`
// (a scalar). source has window_max's output shape; the result has x's shape and the dtype that promotes
// source and init. Window dilations are supported as well.
Tensor window_scatter_max(const Tensor& x, const Tensor& source, const Tensor& init, const Shape& window,
                          const WindowOptions& options = {});
Tensor window_scatter_min(const Tensor& x, const Tensor& source, const Tensor& init, const Shape& window,
                          const WindowOptions& options = {});

}  // namespace nxv
