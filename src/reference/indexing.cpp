// Stride arithmetic shared by the reference kernels (see indexing.hpp).
#include "reference/indexing.hpp"

namespace nxv::reference {

Shape broadcast_strides(const Shape& in, const Shape& out) {
  const Shape in_strides = contiguous_strides(in);
  Shape strides = Shape::filled(out.size(), 0);
  const int skip = out.size() - in.size();  // leading output axes the input does not have
  for (int i = 0; i < in.size(); ++i)
    if (in[i] != 1) strides[skip + i] = in_strides[i];
  return strides;
}

}  // namespace nxv::reference
