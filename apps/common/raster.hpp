// An RGB image in memory and the few anti-aliased drawing primitives the PNG charts need.
#pragma once
#include <cstdint>
#include <filesystem>
#include <vector>

namespace nxv::io {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
};

// A clip rectangle in pixels: [x0, x1) × [y0, y1).
struct PixelRect {
  int x0, y0, x1, y1;
};

class Image {
 public:
  Image(int width, int height, Rgb background);

  int width() const { return width_; }
  int height() const { return height_; }
  const std::vector<std::uint8_t>& rgb() const { return rgb_; }  // row-major, 3 bytes per pixel
  Rgb pixel(int x, int y) const;

  // Mixes `c` into the pixel with weight `alpha` in [0, 1]; pixels outside the image are ignored.
  void blend(int x, int y, Rgb c, double alpha = 1.0);
  void fill_rect(int x0, int y0, int x1, int y1, Rgb c);  // [x0, x1) × [y0, y1)
  void hline(int x0, int x1, int y, Rgb c) { fill_rect(x0, y, x1 + 1, y + 1, c); }
  void vline(int x, int y0, int y1, Rgb c) { fill_rect(x, y0, x + 1, y1 + 1, c); }
  // An anti-aliased segment `width` pixels wide with round ends, drawn only inside `clip`.
  void line(double x0, double y0, double x1, double y1, double width, Rgb c, PixelRect clip);
  // An anti-aliased filled disc.
  void disc(double cx, double cy, double radius, Rgb c);

 private:
  int width_, height_;
  std::vector<std::uint8_t> rgb_;
};

// Writes `image` as an 8-bit RGB PNG (signature, IHDR, one zlib-compressed IDAT with filter 0 rows, IEND).
void write_png(const std::filesystem::path& path, const Image& image);

}  // namespace nxv::io
