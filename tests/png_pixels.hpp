// Reads a PNG through Cairo so tests can check the colour at a point of a picture.
#pragma once

#include <cairo.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tools/view/palette.hpp"

namespace strut::test {

class PngPixels {
 public:
  explicit PngPixels(const std::string& path)
      : surface_(cairo_image_surface_create_from_png(path.c_str())) {}
  ~PngPixels() { cairo_surface_destroy(surface_); }
  PngPixels(const PngPixels&) = delete;
  PngPixels& operator=(const PngPixels&) = delete;

  bool ok() const { return cairo_surface_status(surface_) == CAIRO_STATUS_SUCCESS; }
  int width() const { return cairo_image_surface_get_width(surface_); }
  int height() const { return cairo_image_surface_get_height(surface_); }
  // The opaque colour at pixel (x, y) (black outside the picture).
  view::Rgb at(int x, int y) const {
    if (x < 0 || y < 0 || x >= width() || y >= height()) return {0, 0, 0};
    cairo_surface_flush(surface_);
    const unsigned char* row =
        cairo_image_surface_get_data(surface_) + y * cairo_image_surface_get_stride(surface_);
    std::uint32_t argb;
    std::memcpy(&argb, row + 4 * x, 4);
    return {std::uint8_t(argb >> 16), std::uint8_t(argb >> 8), std::uint8_t(argb)};
  }

 private:
  cairo_surface_t* surface_;
};

// Colours equal within `tolerance` per channel.
inline bool near(view::Rgb a, view::Rgb b, int tolerance = 2) {
  return std::abs(a.r - b.r) <= tolerance && std::abs(a.g - b.g) <= tolerance &&
         std::abs(a.b - b.b) <= tolerance;
}

inline std::string text_of(view::Rgb c) {
  std::string out("(");
  out.append(std::to_string(c.r)).append(", ").append(std::to_string(c.g)).append(", ");
  return out.append(std::to_string(c.b)).append(")");
}

}  // namespace strut::test
