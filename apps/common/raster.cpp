#include "common/raster.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <string>

#include "nxv/error.hpp"

namespace nxv::io {

Image::Image(int width, int height, Rgb background) : width_(width), height_(height) {
  NXV_CHECK(width > 0 && height > 0 && width <= 1 << 14 && height <= 1 << 14, "Image", "got size ", width, "x", height,
            ", expected 1..16384 pixels each way");
  rgb_.resize(static_cast<std::size_t>(width) * height * 3);
  for (std::size_t i = 0; i < rgb_.size(); i += 3) {
    rgb_[i] = background.r;
    rgb_[i + 1] = background.g;
    rgb_[i + 2] = background.b;
  }
}

Rgb Image::pixel(int x, int y) const {
  const std::size_t i = (static_cast<std::size_t>(y) * width_ + x) * 3;
  return {rgb_[i], rgb_[i + 1], rgb_[i + 2]};
}

void Image::blend(int x, int y, Rgb c, double alpha) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_ || alpha <= 0) return;
  alpha = std::min(alpha, 1.0);
  std::uint8_t* p = &rgb_[(static_cast<std::size_t>(y) * width_ + x) * 3];
  const auto mix = [alpha](std::uint8_t old, std::uint8_t add) {
    return static_cast<std::uint8_t>(std::lround(old + (add - old) * alpha));
  };
  p[0] = mix(p[0], c.r);
  p[1] = mix(p[1], c.g);
  p[2] = mix(p[2], c.b);
}

void Image::fill_rect(int x0, int y0, int x1, int y1, Rgb c) {
  for (int y = std::max(y0, 0); y < std::min(y1, height_); ++y)
    for (int x = std::max(x0, 0); x < std::min(x1, width_); ++x) blend(x, y, c);
}

// Coverage of each pixel centre by the stroke = how far inside its edge the centre lies, clamped to [0, 1]:
// cheap and smooth enough for charts (no gamma correction).
void Image::line(double x0, double y0, double x1, double y1, double width, Rgb c, PixelRect clip) {
  const double half = width / 2;
  const double dx = x1 - x0, dy = y1 - y0;
  const double len2 = dx * dx + dy * dy;
  const int bx0 = std::max(clip.x0, static_cast<int>(std::floor(std::min(x0, x1) - half - 1)));
  const int bx1 = std::min(clip.x1 - 1, static_cast<int>(std::ceil(std::max(x0, x1) + half + 1)));
  const int by0 = std::max(clip.y0, static_cast<int>(std::floor(std::min(y0, y1) - half - 1)));
  const int by1 = std::min(clip.y1 - 1, static_cast<int>(std::ceil(std::max(y0, y1) + half + 1)));
  for (int y = by0; y <= by1; ++y) {
    for (int x = bx0; x <= bx1; ++x) {
      const double px = x + 0.5 - x0, py = y + 0.5 - y0;
      const double t = len2 > 0 ? std::clamp((px * dx + py * dy) / len2, 0.0, 1.0) : 0.0;
      const double d = std::hypot(px - t * dx, py - t * dy);
      blend(x, y, c, std::clamp(half + 0.5 - d, 0.0, 1.0));
    }
  }
}

void Image::disc(double cx, double cy, double radius, Rgb c) {
  line(cx, cy, cx, cy, 2 * radius, c, {0, 0, width_, height_});
}

namespace {

void put_u32(std::string& out, std::uint32_t v) {
  out += static_cast<char>(v >> 24);
  out += static_cast<char>(v >> 16);
  out += static_cast<char>(v >> 8);
  out += static_cast<char>(v);
}

// A PNG chunk: length, type, data, then the CRC-32 of type and data (PNG spec, section 5.3).
void put_chunk(std::string& out, const char type[4], const std::string& data) {
  put_u32(out, static_cast<std::uint32_t>(data.size()));
  const std::string body = std::string(type, 4) + data;
  out += body;
  put_u32(out, static_cast<std::uint32_t>(
                   crc32(0, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size()))));
}

}  // namespace

void write_png(const std::filesystem::path& path, const Image& image) {
  const std::size_t row_bytes = static_cast<std::size_t>(image.width()) * 3;
  std::string raw;  // each scanline is preceded by its filter type, 0 = none
  raw.reserve((row_bytes + 1) * image.height());
  for (int y = 0; y < image.height(); ++y) {
    raw += '\0';
    raw.append(reinterpret_cast<const char*>(image.rgb().data() + y * row_bytes), row_bytes);
  }
  uLongf packed_size = compressBound(static_cast<uLong>(raw.size()));
  std::string packed(packed_size, '\0');
  const int rc = compress2(reinterpret_cast<Bytef*>(packed.data()), &packed_size,
                           reinterpret_cast<const Bytef*>(raw.data()), static_cast<uLong>(raw.size()), 9);
  NXV_CHECK(rc == Z_OK, "write_png", path.string(), ": zlib compress2 failed with code ", rc);
  packed.resize(packed_size);

  std::string ihdr;
  put_u32(ihdr, static_cast<std::uint32_t>(image.width()));
  put_u32(ihdr, static_cast<std::uint32_t>(image.height()));
  ihdr += std::string("\x08\x02\x00\x00\x00", 5);  // 8 bits, truecolour RGB, deflate, filter 0, no interlace

  std::string png = "\x89PNG\r\n\x1a\n";
  put_chunk(png, "IHDR", ihdr);
  put_chunk(png, "IDAT", packed);
  put_chunk(png, "IEND", "");

  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  NXV_CHECK(out, "write_png", path.string(), ": cannot be created (", std::strerror(errno), ")");
  out.write(png.data(), static_cast<std::streamsize>(png.size()));
  NXV_CHECK(out.flush(), "write_png", path.string(), ": write error (disk full?)");
}

}  // namespace nxv::io
