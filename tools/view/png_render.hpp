// PNG frames of a recording, drawn by Cairo in the viewer's colours (tools/view/palette.hpp).
#pragma once

#include <string>

#include "strut/math.hpp"
#include "tools/record/recording.hpp"

namespace strut::view {

struct RenderOptions {
  int width = 800, height = 600;  // pixels
  // World rectangle shown; it is centred and scaled uniformly (the longer way fits).
  Aabb view{{-10, -10}, {10, 10}};
  bool contacts = false;
  bool joints = true;
};

// The box around every body of every frame (vertices and radii), with a 5 % margin.
Aabb fit_view(const record::Recording& rec);

// Draws frame `frame` of `rec` and writes it to `path` (RecordingError-free: an I/O failure
// throws std::runtime_error naming the path).
void render_png(const record::Recording& rec, std::size_t frame, const RenderOptions& options,
                const std::string& path);

}  // namespace strut::view
