// The three networks of the training-step tests -- LeNet-style, a strided CNN and the MLP 784-128-10, batch 32 on
// 28x28 images -- as plain loss functions over named parameters, with a He-style initialisation. Shared by the
// residency tests (tests/grad/cnn_residency_test.cpp, residency_test.cpp) and the fusion compiler's step tests
// (tests/vulkan/fusion/).
#pragma once
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "nxv/conv.hpp"
#include "nxv/defn.hpp"
#include "nxv/grad.hpp"
#include "nxv/ops.hpp"

namespace nxv::testing::models {

constexpr std::int64_t kBatch = 32;

inline Tensor relu(const Tensor& x) { return max(x, 0.0); }
inline Tensor dense(const Tensor& x, const Params& p, const std::string& layer) {
  return dot(x, p.at(layer + ".w")) + p.at(layer + ".b");
}
inline Tensor conv_bias(const Tensor& x, const Params& p, const std::string& layer, const ConvOptions& o) {
  const Tensor b = p.at(layer + ".b");
  return conv(x, p.at(layer + ".w"), o) + reshape(b, {1, b.dim(0), 1, 1});
}
inline Tensor max_pool_2x2(const Tensor& x) {
  WindowOptions o;
  o.strides = {1, 1, 2, 2};
  return window_max(x, {1, 1, 2, 2}, o);
}

// Softmax cross-entropy: log-sum-exp with the max subtracted, one-hot labels from equal(iota, labels).
inline Tensor cross_entropy(const Tensor& logits, const Tensor& labels) {
  const Tensor shifted = logits - stop_gradient(reduce_max(logits, Axes{1}, true));
  const Tensor log_probs = shifted - log(sum(exp(shifted), Axes{1}, true));
  const Tensor one_hot =
      as_type(equal(expand_dims(labels, 1), iota({1, 10}, 1, labels.dtype(), labels.backend())), logits.dtype());
  return negate(mean(sum(one_hot * log_probs, Axes{1})));
}

inline Tensor lenet_loss(const Params& p, const Tensor& images, const Tensor& labels) {
  ConvOptions pad2;
  pad2.padding = {{2, 2}, {2, 2}};
  Tensor h = max_pool_2x2(relu(conv_bias(images, p, "conv1", pad2)));  // [32, 6, 14, 14]
  h = max_pool_2x2(relu(conv_bias(h, p, "conv2", {})));                // [32, 16, 5, 5]
  h = reshape(h, {kBatch, 400});
  h = relu(dense(h, p, "fc1"));
  h = relu(dense(h, p, "fc2"));
  return cross_entropy(dense(h, p, "fc3"), labels);
}

inline Tensor strided_loss(const Params& p, const Tensor& images, const Tensor& labels) {
  ConvOptions o;
  o.strides = {2, 2};
  o.padding = padding_same({3, 3});
  Tensor h = relu(conv_bias(images, p, "conv1", o));  // [32, 8, 14, 14]
  h = relu(conv_bias(h, p, "conv2", o));              // [32, 16, 7, 7]
  return cross_entropy(dense(reshape(h, {kBatch, 784}), p, "fc1"), labels);
}

inline Tensor mlp_loss(const Params& p, const Tensor& images, const Tensor& labels) {
  const Tensor h = relu(dense(reshape(images, {kBatch, 784}), p, "fc1"));
  return cross_entropy(dense(h, p, "fc2"), labels);
}

using Loss = Tensor (*)(const Params&, const Tensor&, const Tensor&);

struct Model {
  const char* name;
  Loss loss;
  std::vector<std::pair<std::string, Shape>> weights;  // biases get the weight's leading dimension (or last, dense)
};

inline const Model k_models[] = {
    {"lenet",
     lenet_loss,
     {{"conv1", {6, 1, 5, 5}}, {"conv2", {16, 6, 5, 5}}, {"fc1", {400, 120}}, {"fc2", {120, 84}}, {"fc3", {84, 10}}}},
    {"strided", strided_loss, {{"conv1", {8, 1, 3, 3}}, {"conv2", {16, 8, 3, 3}}, {"fc1", {784, 10}}}},
    {"mlp", mlp_loss, {{"fc1", {784, 128}}, {"fc2", {128, 10}}}},
};
inline const Model& k_lenet = k_models[0];
inline const Model& k_strided = k_models[1];
inline const Model& k_mlp = k_models[2];

// He-style initialisation, made on the reference backend (so that every backend starts from the same bits).
inline Params make_params(const Model& m, DType dtype) {
  Params p;
  std::uint64_t seed = 11;
  for (const auto& [layer, shape] : m.weights) {
    const bool is_conv = shape.size() == 4;
    const std::int64_t fan_in = is_conv ? shape[1] * shape[2] * shape[3] : shape[0];
    const std::int64_t outputs = is_conv ? shape[0] : shape[1];
    p[layer + ".w"] =
        normal(key(seed++), shape, dtype, 0.0, std::sqrt(2.0 / static_cast<double>(fan_in)), reference_backend());
    p[layer + ".b"] = normal(key(seed++), {outputs}, dtype, 0.0, 0.01, reference_backend());
  }
  return p;
}

inline Params moved(const Params& p, Backend& backend) {
  Params out;
  for (const auto& [name, t] : p) out[name] = t.to(backend);
  return out;
}

}  // namespace nxv::testing::models
