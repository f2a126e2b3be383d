// Polygon checks and solid-shape mass properties, shared by body creation and scene loading.
#pragma once

#include <span>
#include <vector>

#include "strut/math.hpp"

namespace strut {

// Returns the vertices counter-clockwise (reversing a clockwise input). Throws strut::Error
// with a message "<field>: <problem>" if they do not form a strictly convex polygon of 3..16
// finite, distinct vertices with positive area.
std::vector<Vec2> make_convex_ccw(std::span<const Vec2> vertices, const char* field);

// Solid mass properties per unit density.
struct PolygonMass {
  float area = 0;
  Vec2 centroid;
  float inertia = 0;  // polar moment about the centroid, per unit density
};
PolygonMass polygon_mass(std::span<const Vec2> ccw);

// How a polygon's mass is spread over particles so that total mass, centre of mass and moment
// of inertia all equal the solid shape's: every hull vertex carries `vertex_mass`, the rest sits
// on one interior particle at `centre` (relative to the centroid). Corner masses alone would
// make a box's inertia three times too large.
struct ParticleMassSplit {
  float vertex_mass = 0;
  float centre_mass = 0;
  Vec2 centre;
};
ParticleMassSplit split_polygon_mass(std::span<const Vec2> ccw_about_centroid, float mass,
                                     float inertia);

}  // namespace strut
