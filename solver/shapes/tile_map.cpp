// Tile maps (strut/tile_map.hpp): the solid tiles become box shapes of one static body, the
// floor tiles a FloorGrid read by the floor friction stage (solver/step/floor_friction.cpp).
//
// Boxes, not chains along the outline of the solid regions: each box keeps its own tile's
// material (a chain has one), the seam rule of solver/collide/collide_polygons.cpp already makes
// the shared edges of flush boxes contact-free (tests/tile_map_test.cpp slides a box over 40
// tiles exactly as over one long box), and the broad phase's static set (broadphase/
// static_set.hpp) costs nothing for the tiles far from moving bodies. A chain is cheaper, but
// not by much, and both keep a sliding box's speed and height alike. Outline chains would need a
// tracer for holes and material borders, and one chain per material, for that small gain.
#include <cmath>
#include <string>

#include "solver/shapes/shape_checks.hpp"
#include "solver/world_state.hpp"
#include "strut/limits.hpp"
#include "strut/world.hpp"

namespace strut {
namespace {

[[noreturn]] void fail(const std::string& problem) { throw Error("create_tile_map: " + problem); }

// Everything create_body would not check before half the map exists.
void validate_tile_map(const TileMapDef& def) {
  if (!is_finite(def.origin)) fail("origin is not finite");
  if (!std::isfinite(def.tile_size) || !(0.5f * def.tile_size >= limits::kMinSize) ||
      0.5f * def.tile_size > limits::kMaxSize)
    fail("tile_size must be in [" + shapes::number_text(2 * limits::kMinSize) + ", " +
         shapes::number_text(2 * limits::kMaxSize) + "] m");
  if (def.rows <= 0 || def.cols <= 0) fail("rows and cols must be positive");
  const std::size_t cells = std::size_t(def.rows) * std::size_t(def.cols);
  if (def.tiles.size() != cells)
    fail("tiles has " + std::to_string(def.tiles.size()) +
         " entries, expected rows x cols = " + std::to_string(cells));
  for (std::size_t i = 0; i < def.materials.size(); ++i)
    validate_material(def.materials[i].material,
                      "create_tile_map: materials[" + std::to_string(i) + "].material");
  for (std::size_t i = 0; i < cells; ++i) {
    const int t = def.tiles[i];
    if (t < -1)
      fail("tiles[" + std::to_string(i) + "] = " + std::to_string(t) +
           " is neither -1 (empty) nor a material index");
    if (t >= int(def.materials.size()))
      fail("tiles[" + std::to_string(i) + "] = " + std::to_string(t) + " names no material (" +
           std::to_string(def.materials.size()) + " given)");
  }
  if (!(def.floor_gravity >= 0 && def.floor_gravity <= limits::kMaxGravity))
    fail("floor_gravity must be in [0, " + shapes::number_text(limits::kMaxGravity) + "] m/s^2");
  if (!(def.floor_stop_speed >= 0 && def.floor_stop_speed <= limits::kMaxSpeed))
    fail("floor_stop_speed must be in [0, " + shapes::number_text(limits::kMaxSpeed) + "] m/s");
  const Vec2 far_corner{def.origin.x + float(def.cols) * def.tile_size,
                        def.origin.y - float(def.rows) * def.tile_size};
  for (const Vec2 corner : {def.origin, far_corner})
    if (!is_finite(corner) ||
        std::fmax(std::fabs(corner.x), std::fabs(corner.y)) > limits::kMaxCoordinate)
      fail("the map reaches beyond the coordinate limit of " +
           shapes::number_text(limits::kMaxCoordinate) + " m (strut/limits.hpp)");
}

// Box edges: 0 bottom, 1 right, 2 top, 3 left (counter-clockwise from the lower left), and the
// bit of each edge set when the tile beyond it is solid too.
std::uint16_t seams_of(const TileMapDef& def, int r, int c) {
  auto solid = [&](int rr, int cc) {
    if (rr < 0 || rr >= def.rows || cc < 0 || cc >= def.cols) return false;
    const int t = def.tiles[std::size_t(rr) * std::size_t(def.cols) + std::size_t(cc)];
    return t >= 0 && !def.materials[std::size_t(t)].floor;
  };
  std::uint16_t seams = 0;
  if (solid(r + 1, c)) seams |= 1;
  if (solid(r, c + 1)) seams |= 2;
  if (solid(r - 1, c)) seams |= 4;
  if (solid(r, c - 1)) seams |= 8;
  return seams;
}

}  // namespace

TileMap World::create_tile_map(const TileMapDef& def) {
  validate_tile_map(def);
  auto& w = *state_;
  const float half = 0.5f * def.tile_size;
  BodyDef body;
  body.is_static = true;
  body.center = def.origin;
  FloorGrid floors{def.origin,
                   def.tile_size,
                   def.rows,
                   def.cols,
                   def.floor_gravity,
                   def.floor_stop_speed,
                   std::vector<float>(def.tiles.size(), -1.0f)};
  bool has_floor = false;
  std::vector<std::size_t> solid_tiles;  // tile index of each shape, in order
  std::vector<std::uint16_t> seams;
  for (int r = 0; r < def.rows; ++r) {
    for (int c = 0; c < def.cols; ++c) {
      const std::size_t i = std::size_t(r) * std::size_t(def.cols) + std::size_t(c);
      if (def.tiles[i] < 0) continue;
      const TileMaterial& m = def.materials[std::size_t(def.tiles[i])];
      if (m.floor) {
        floors.friction[i] = m.material.friction;
        has_floor = true;
        continue;
      }
      ShapeDef tile;
      tile.shape = BoxShape{{half, half}};
      tile.offset = {(float(c) + 0.5f) * def.tile_size, -(float(r) + 0.5f) * def.tile_size};
      tile.material = m.material;
      body.shapes.push_back(tile);
      solid_tiles.push_back(i);
      seams.push_back(seams_of(def, r, c));
    }
  }
  TileMap out;
  out.tile_shapes.resize(def.tiles.size());
  if (!body.shapes.empty()) {
    out.body = create_body(body);
    const std::vector<ShapeId> ids = shapes(out.body);
    for (std::size_t j = 0; j < ids.size(); ++j) {
      out.tile_shapes[solid_tiles[j]] = ids[j];
      w.colliders.shapes[ids[j].index - 1].internal_edges = seams[j];
    }
    // The colliders were laid out before their shapes knew their seams.
    const std::uint32_t k = w.dense_of(out.body, "create_tile_map");
    auto& colliders = w.colliders;
    for (std::uint32_t i = w.bodies.collider_begin[k];
         i < w.bodies.collider_begin[k] + w.bodies.collider_count[k]; ++i)
      colliders.internal_edges[i] = w.colliders.shapes[colliders.shape[i]].internal_edges;
  }
  if (has_floor) w.colliders.floor_grids.push_back(std::move(floors));
  return out;
}

}  // namespace strut
