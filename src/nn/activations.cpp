// Activations, as compositions of elementwise ops (so their gradients come from the ops' rules).
#include <cmath>

#include "nxv/grad.hpp"
#include "nxv/nn.hpp"

namespace nxv::nn {

Tensor relu(const Tensor& x) { return max(x, 0.0); }

Tensor leaky_relu(const Tensor& x, double alpha) { return select(greater(x, 0.0), x, x * alpha); }

Tensor gelu(const Tensor& x) { return x * (1.0 + erf(x * (1.0 / std::sqrt(2.0)))) * 0.5; }

Tensor silu(const Tensor& x) { return x * sigmoid(x); }

Tensor log_softmax(const Tensor& x, int axis) {
  // The shift only guards exp against overflow; log_softmax doesn't depend on it, so it gets no gradient.
  const Tensor shifted = x - stop_gradient(reduce_max(x, Axes{axis}, true));
  return shifted - log(sum(exp(shifted), Axes{axis}, true));
}

Tensor softmax(const Tensor& x, int axis) {
  const Tensor e = exp(x - stop_gradient(reduce_max(x, Axes{axis}, true)));
  return e / sum(e, Axes{axis}, true);
}

}  // namespace nxv::nn
