// Initialisers: Glorot (Xavier) and He (Kaiming) scaling, uniform and normal, from counter-based keys.
#include <cmath>

#include "nxv/nn.hpp"

namespace nxv::nn::init {

Fans fans(const Shape& shape) {
  if (shape.empty()) return {};
  if (shape.size() == 1) return {static_cast<double>(shape[0]), static_cast<double>(shape[0])};
  if (shape.size() == 2) return {static_cast<double>(shape[0]), static_cast<double>(shape[1])};
  double receptive_field = 1;
  for (int i = 2; i < shape.size(); ++i) receptive_field *= static_cast<double>(shape[i]);
  return {static_cast<double>(shape[1]) * receptive_field, static_cast<double>(shape[0]) * receptive_field};
}

Tensor glorot_uniform(Key key, const Shape& shape, DType dtype, Backend& backend) {
  const Fans f = fans(shape);
  const double limit = std::sqrt(6.0 / (f.in + f.out));
  return uniform(key, shape, dtype, -limit, limit, backend);
}

Tensor glorot_normal(Key key, const Shape& shape, DType dtype, Backend& backend) {
  const Fans f = fans(shape);
  return normal(key, shape, dtype, 0.0, std::sqrt(2.0 / (f.in + f.out)), backend);
}

Tensor he_uniform(Key key, const Shape& shape, DType dtype, Backend& backend) {
  const double limit = std::sqrt(6.0 / fans(shape).in);
  return uniform(key, shape, dtype, -limit, limit, backend);
}

Tensor he_normal(Key key, const Shape& shape, DType dtype, Backend& backend) {
  return normal(key, shape, dtype, 0.0, std::sqrt(2.0 / fans(shape).in), backend);
}

Tensor zeros(Key, const Shape& shape, DType dtype, Backend& backend) { return nxv::zeros(shape, dtype, backend); }

Tensor ones(Key, const Shape& shape, DType dtype, Backend& backend) { return nxv::ones(shape, dtype, backend); }

}  // namespace nxv::nn::init
