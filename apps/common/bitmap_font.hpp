// A built-in 5×8 bitmap font (printable ASCII) for chart text, so PNG charts need no font files.
#pragma once
#include <string_view>

#include "common/raster.hpp"

namespace nxv::io {

enum class TextDirection {
  horizontal,
  upward,  // rotated 90° counter-clockwise, read from bottom to top (a left y-axis label)
};

// Each glyph is 5 pixels wide and 8 tall (row 7 holds descenders); characters advance by 6 pixels, all times
// `scale`. Characters outside printable ASCII are drawn as a box.
constexpr int kGlyphAdvance = 6;
constexpr int kGlyphHeight = 8;
inline int text_width(std::string_view text, int scale) {
  return text.empty() ? 0 : (static_cast<int>(text.size()) * kGlyphAdvance - 1) * scale;
}
inline int text_height(int scale) { return kGlyphHeight * scale; }

// Draws `text` with its top-left corner at (x, y) (for upward text: the bottom-left corner of the rotated run,
// i.e. the text starts at (x, y) and goes up). `bold` draws the text twice, one pixel apart.
void draw_text(Image& image, int x, int y, std::string_view text, Rgb colour, int scale,
               TextDirection direction = TextDirection::horizontal, bool bold = false);

}  // namespace nxv::io
