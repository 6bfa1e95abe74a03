#include "train/models.hpp"

namespace nxv::train {

nn::Sequential make_model(const std::string& name) {
  if (name == "lenet")
    return nn::Sequential({nn::conv2d(6, {5, 5}, {.padding = Padding{{2, 2}, {2, 2}}}), nn::relu(),
                           nn::max_pool2d({2, 2}), nn::conv2d(16, {5, 5}), nn::relu(), nn::max_pool2d({2, 2}),
                           nn::flatten(), nn::dense(120), nn::relu(), nn::dense(84), nn::relu(), nn::dense(10)});
  if (name == "mlp") return nn::Sequential({nn::dense(128), nn::relu(), nn::dense(10)});
  if (name == "cnn")
    return nn::Sequential({nn::conv2d(8, {3, 3}, {.strides = {2, 2}, .padding = nn::same}), nn::relu(),
                           nn::conv2d(16, {3, 3}, {.strides = {2, 2}, .padding = nn::same}), nn::relu(), nn::flatten(),
                           nn::dense(10)});
  detail::fail("nxv-train: unknown model '", name, "', expected lenet, mlp or cnn");
}

data::ImageLayout image_layout(const std::string& name) {
  return name == "mlp" ? data::ImageLayout::flat : data::ImageLayout::nchw;
}

Shape input_shape(const std::string& name, std::int64_t rows, std::int64_t cols) {
  return image_layout(name) == data::ImageLayout::flat ? Shape{1, rows * cols} : Shape{1, 1, rows, cols};
}

}  // namespace nxv::train
