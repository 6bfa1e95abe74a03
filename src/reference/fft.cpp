// The reference kernel of OpCode::fft: each row of complex pairs widened to double, transformed by fft_rows (the
// readable mixed-radix/Bluestein oracle), and rounded back to the row's dtype once.
#include <vector>

#include "reference/dtype_dispatch.hpp"
#include "reference/fft_rows.hpp"
#include "reference/kernels.hpp"

namespace nxv::reference {

void fft(const FftAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst) {
  const std::int64_t n = out.shape[out.shape.size() - 2];
  const std::int64_t values = num_elements(out.shape);  // 2 per complex number
  if (values == 0) return;
  const std::int64_t rows = values / (2 * n);
  const std::byte* src = host_bytes(x);
  std::vector<double> data(static_cast<std::size_t>(values));
  visit_dtype(out.dtype, [&]<class S, class C>() {
    for (std::int64_t i = 0; i < values; ++i) data[i] = static_cast<double>(load<S, C>(src, i));
    fft_rows(data.data(), rows, n, attrs.inverse);
    for (std::int64_t i = 0; i < values; ++i) store<S, C>(dst, i, static_cast<C>(data[i]));
  });
}

}  // namespace nxv::reference
