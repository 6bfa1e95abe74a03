// What the Sequential layer factories share.
#pragma once
#include "nxv/nn.hpp"

namespace nxv::nn {

// A layer without parameters or state that applies `fn`.
template <class F>
Layer stateless(std::string kind, F fn) {
  Layer layer;
  layer.kind = std::move(kind);
  layer.init = [](Key, const Shape&, DType, Backend&, Params&, Params&) {};
  layer.apply = [fn](const Params&, const Params&, const Tensor& x, const ApplyOptions&, Params&) { return fn(x); };
  return layer;
}

}  // namespace nxv::nn
