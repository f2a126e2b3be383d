// Writing concave_polygon items (version 3 of the scene format): a body holds only the convex
// pieces a concave_polygon loaded as, so the writer finds the runs of shapes that are exactly
// decompose_polygon's pieces of some outline and writes that outline instead. A run is
// recognised by its pieces alone, so a captured world (capture_scene) is written the same way
// as a loaded file, and what is written always loads back to the same shapes.
#pragma once

#include <cstddef>
#include <vector>

#include "strut/shape.hpp"

namespace strut::scene_write {

struct ConcaveRun {
  std::size_t first = 0, count = 0;  // shapes[first, first + count) of the body
  std::vector<Vec2> outline;         // counter-clockwise from its lowest point
};

// The runs of `shapes`, in order, not overlapping: each of 2 or more consecutive sharp polygons
// placed, dressed and filtered alike (offset, angle, material, filter, sensor, surface fields)
// whose union's boundary is one outline that decompose_polygon cuts into exactly these polygons,
// in this order. A longest such run is taken first from each start.
std::vector<ConcaveRun> concave_runs(const std::vector<ShapeDef>& shapes);

}  // namespace strut::scene_write
