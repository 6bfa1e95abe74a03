// The networks nxv-train knows, by name.
#pragma once
#include <string>

#include "data/batches.hpp"
#include "nxv/nn.hpp"

namespace nxv::train {

// lenet: conv 5x5 1->6 (padding 2), relu, max-pool 2x2, conv 5x5 6->16, relu, max-pool 2x2, flatten,
//        dense 400->120, relu, 120->84, relu, 84->10.
// mlp:   dense 784->128, relu, 128->10 (on flat images).
// cnn:   conv 3x3 1->8 stride 2 same, relu, conv 3x3 8->16 stride 2 same, relu, flatten, dense 784->10.
nn::Sequential make_model(const std::string& name);
// How the model wants its images: flat for the MLP, NCHW for the others.
data::ImageLayout image_layout(const std::string& name);
// The input shape (batch size 1) for images of rows x cols.
Shape input_shape(const std::string& name, std::int64_t rows, std::int64_t cols);

}  // namespace nxv::train
