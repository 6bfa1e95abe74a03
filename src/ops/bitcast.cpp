// Front end of bitcast (Nx.bitcast): a tensor's bits read as another dtype of the same width. Backends execute it
// as a view (OpCode::bitcast shares the input's storage, as reshape), so it costs no dispatch and no copy.
#include "ops/apply.hpp"

namespace nxv {

Tensor bitcast(const Tensor& x, DType dtype) {
  check_defined(x, "bitcast");
  // pred holds 0 or 1 in a byte: any other bit pattern would be no pred value (Nx refuses it too).
  NXV_CHECK(x.dtype() != DType::pred && dtype != DType::pred, "bitcast", "got ", to_string(x.type()), " to ",
            name(dtype), ", expected numeric dtypes (pred has no bit pattern to reinterpret)");
  NXV_CHECK(size_of(x.dtype()) == size_of(dtype), "bitcast", "got ", to_string(x.type()), " (", 8 * size_of(x.dtype()),
            " bits) to ", name(dtype), " (", 8 * size_of(dtype), " bits), expected dtypes of the same bit width");
  if (x.dtype() == dtype) return x;
  return apply(OpCall{OpCode::bitcast, {}}, {x}, {x.shape(), dtype});
}

}  // namespace nxv
