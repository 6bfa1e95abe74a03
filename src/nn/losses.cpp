// Losses and metrics. Each is a mean over the batch axis, written with ops so it runs where the logits are.
#include "nxv/nn.hpp"

namespace nxv::nn {

namespace {

void check_classification(const char* op, const Tensor& logits, const Tensor& labels) {
  NXV_CHECK(logits.rank() == 2 && labels.rank() == 1 && labels.dim(0) == logits.dim(0), op, "got logits ",
            to_string(logits.type()), " and labels ", to_string(labels.type()), ", expected [N, C] and [N]");
  NXV_CHECK(is_integer(labels.dtype()), op, "labels are ", name(labels.dtype()), ", expected an integer type");
}

// [N, C] pred: column j of row i is true where j == labels[i].
Tensor one_hot(const Tensor& labels, std::int64_t classes, Backend& backend) {
  const Tensor columns = iota({labels.dim(0), classes}, 1, labels.dtype(), backend);
  return equal(columns, reshape(labels, {labels.dim(0), 1}));
}

}  // namespace

Tensor softmax_cross_entropy(const Tensor& logits, const Tensor& labels) {
  check_classification("softmax_cross_entropy", logits, labels);
  // select, not a product with the one-hot: 0 * log_softmax would be NaN where a logit is -inf.
  const Tensor zero = scalar(0.0, logits.dtype(), logits.backend());
  const Tensor hot = one_hot(labels, logits.dim(1), logits.backend());
  const Tensor picked = sum(select(hot, log_softmax(logits, 1), zero), Axes{1});
  return -mean(picked);
}

Tensor binary_cross_entropy(const Tensor& logits, const Tensor& targets) {
  NXV_CHECK(logits.shape() == targets.shape(), "binary_cross_entropy", "got logits ", to_string(logits.type()),
            " and targets ", to_string(targets.type()), ", expected the same shape");
  return mean(max(logits, 0.0) - logits * targets + log1p(exp(-abs(logits))));
}

Tensor mean_squared_error(const Tensor& predictions, const Tensor& targets) {
  return mean(square(predictions - targets));
}

Tensor correct_count(const Tensor& logits, const Tensor& labels) {
  check_classification("correct_count", logits, labels);
  return sum(as_type(equal(argmax(logits, 1), as_type(labels, DType::s64)), DType::s64));
}

Tensor accuracy(const Tensor& logits, const Tensor& labels) {
  check_classification("accuracy", logits, labels);
  return mean(as_type(equal(argmax(logits, 1), as_type(labels, DType::s64)), logits.dtype()));
}

}  // namespace nxv::nn
