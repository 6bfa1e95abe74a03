// Tensors in the IDX format (http://yann.lecun.com/exdb/mnist/, the format of MNIST and Fashion-MNIST), any rank
// and any of the element types IDX defines. (src/data/idx.hpp reads the image/label pairs of a data set.)
//
// Layout: two zero bytes, a type code (0x08 u8, 0x09 s8, 0x0B s16, 0x0C s32, 0x0D f32, 0x0E f64), the number of
// dimensions, that many big-endian u32 dimensions, then the elements row-major, big-endian. IDX has no code for
// pred, u16, u32, s64 or u64.
#pragma once
#include <filesystem>

#include "nxv/backend.hpp"
#include "nxv/tensor.hpp"

namespace nxv::io {

// Writes `t` (any backend) to `path`, gzip-compressed when the name ends in ".gz". Throws nxv::Error for a dtype
// IDX cannot hold (naming those it can), a dimension beyond 2^32 - 1, a rank above 255, or a write failure.
void save_idx(const std::filesystem::path& path, const Tensor& t);

// Reads an IDX file, plain or gzip-compressed, onto `backend`. Throws nxv::Error naming the file for anything but
// a regular file, a header that is not IDX (nonzero leading bytes, an unknown type code), a truncated file, and
// bytes after the elements the header declares.
Tensor load_idx(const std::filesystem::path& path, Backend& backend = default_backend());

}  // namespace nxv::io
