// PNG line charts (apps/common/png_plot, raster, bitmap_font): the file is a valid PNG and the chart draws its parts.
#include "common/png_plot.hpp"

#include <zlib.h>

#include <gtest/gtest.h>

#include <cmath>

#include "support/temp_dir.hpp"

namespace nxv::io {
namespace {

using io_test::TempDir;

std::uint32_t be32(const std::string& s, std::size_t at) {
  return std::uint32_t{static_cast<unsigned char>(s[at])} << 24 |
         std::uint32_t{static_cast<unsigned char>(s[at + 1])} << 16 |
         std::uint32_t{static_cast<unsigned char>(s[at + 2])} << 8 | static_cast<unsigned char>(s[at + 3]);
}

PlotSpec training_curves(int epochs) {
  PlotSpec spec;
  spec.title = "LeNet on Fashion-MNIST";
  spec.x_label = "epoch";
  PlotSeries loss{"training loss", {}, colours::blue, YAxis::left};
  PlotSeries accuracy{"test accuracy", {}, colours::orange, YAxis::right};
  for (int e = 0; e < epochs; ++e) {
    loss.values.push_back(0.3 + 0.5 * std::exp(-0.5 * e));
    accuracy.values.push_back(0.91 - 0.1 * std::exp(-0.5 * e));
  }
  spec.series = {loss, accuracy};
  return spec;
}

int count_pixels(const Image& img, Rgb c) {
  int n = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const Rgb p = img.pixel(x, y);
      n += p.r == c.r && p.g == c.g && p.b == c.b;
    }
  return n;
}

TEST(PngPlot, WritesAValidPng) {
  TempDir dir;
  PlotSpec spec = training_curves(10);
  spec.width = 640;
  spec.height = 400;
  write_line_plot(dir / "curves.png", spec);
  const std::string png = io_test::read_bytes(dir / "curves.png");
  ASSERT_GT(png.size(), 8u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));

  std::vector<std::string> types;
  std::string ihdr, idat;
  for (std::size_t at = 8; at + 12 <= png.size();) {
    const std::uint32_t length = be32(png, at);
    ASSERT_LE(at + 12 + length, png.size()) << "chunk runs past the end of the file";
    const std::string type = png.substr(at + 4, 4), data = png.substr(at + 8, length);
    const std::string body = png.substr(at + 4, 4 + length);
    EXPECT_EQ(be32(png, at + 8 + length),
              crc32(0, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size())))
        << "CRC of chunk " << type;
    types.push_back(type);
    if (type == "IHDR") ihdr = data;
    if (type == "IDAT") idat += data;
    at += 12 + length;
  }
  EXPECT_EQ(types, (std::vector<std::string>{"IHDR", "IDAT", "IEND"}));
  ASSERT_EQ(ihdr.size(), 13u);
  EXPECT_EQ(be32(ihdr, 0), 640u);
  EXPECT_EQ(be32(ihdr, 4), 400u);
  EXPECT_EQ(ihdr.substr(8), std::string("\x08\x02\x00\x00\x00", 5)) << "8-bit RGB, deflate, filter 0, no interlace";

  const std::size_t row = 1 + 640 * 3;
  std::string raw(row * 400 + 1, '\0');  // one spare byte: inflating to more than expected must show
  uLongf raw_size = raw.size();
  ASSERT_EQ(uncompress(reinterpret_cast<Bytef*>(raw.data()), &raw_size, reinterpret_cast<const Bytef*>(idat.data()),
                       static_cast<uLong>(idat.size())),
            Z_OK);
  EXPECT_EQ(raw_size, row * 400);
  for (int y = 0; y < 400; ++y) ASSERT_EQ(raw[y * row], '\0') << "filter byte of row " << y;
}

TEST(PngPlot, DrawsBothSeriesTheFrameAndText) {
  const Image img = render_line_plot(training_curves(10));
  EXPECT_EQ(img.width(), 800);
  EXPECT_EQ(img.height(), 500);
  EXPECT_GT(count_pixels(img, colours::blue), 300) << "the loss line";
  EXPECT_GT(count_pixels(img, colours::orange), 300) << "the accuracy line";
  EXPECT_GT(count_pixels(img, {90, 90, 90}), 2 * (800 - 200) + 2 * (500 - 200)) << "frame, ticks and tick labels";
  EXPECT_GT(count_pixels(img, {40, 40, 40}), 500) << "title, legend and axis labels";
}

TEST(PngPlot, HandlesDegenerateData) {
  PlotSpec one = training_curves(1);  // one epoch: a single point per series
  EXPECT_NO_THROW(render_line_plot(one));
  PlotSpec flat;
  flat.series = {{"constant", {0.5, 0.5, 0.5}}};
  EXPECT_NO_THROW(render_line_plot(flat));
  PlotSpec gaps;
  gaps.series = {{"diverged", {1.0, NAN, INFINITY, 0.5}}, {"nothing", {NAN}}};
  EXPECT_NO_THROW(render_line_plot(gaps));
}

TEST(PngPlot, RejectsSpecsItCannotDraw) {
  EXPECT_THROW(render_line_plot(PlotSpec{}), Error);
  PlotSpec short_x = training_curves(5);
  short_x.x = {1, 2, 3};
  EXPECT_THROW(render_line_plot(short_x), Error);
  PlotSpec tiny = training_curves(5);
  tiny.width = 60;
  tiny.height = 40;
  EXPECT_THROW(render_line_plot(tiny), Error);
}

}  // namespace
}  // namespace nxv::io
