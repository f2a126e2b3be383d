// Tile maps: a grid of tiles built in one call (World::create_tile_map). Solid tiles are box
// shapes of one static body; floor tiles are not shapes at all: they slow the bodies moving over
// them, for top-down worlds without gravity.
#pragma once

#include <vector>

#include "strut/ids.hpp"
#include "strut/material.hpp"
#include "strut/math.hpp"

namespace strut {

// What a tile index stands for. A solid tile collides, rubs and bounces by `material` as any
// box would. A floor tile never collides: a dynamic body whose centre of mass lies over it feels
// kinetic friction of coefficient `material.friction` (see TileMapDef::floor_gravity).
struct TileMaterial {
  Material material;
  bool floor = false;
};

struct TileMapDef {
  Vec2 origin;             // the top-left corner of the top-left tile
  float tile_size = 1.0f;  // m, tiles are square
  int rows = 0, cols = 0;
  // rows x cols entries, row-major, row 0 at the top: -1 is an empty tile, k >= 0 is
  // materials[k].
  std::vector<int> tiles;
  std::vector<TileMaterial> materials;
  // Floor friction. A body on a floor of friction mu loses mu x floor_gravity x dt of speed
  // each step (never reversing), the kinetic friction force mu m g opposite its velocity with
  // g = floor_gravity: the weight pressing the body onto a top-down floor, which the world's
  // gravity (0 there) cannot give. Its spin slows likewise by mu g dt / k, k = sqrt(I / m) the
  // body's radius of gyration (the friction acting, on average, k from the centre of mass).
  float floor_gravity = 10.0f;  // m/s^2, 0 to limits::kMaxGravity
  // m/s: a body on a floor of non-zero friction that is left slower than this by the step's
  // friction stops dead (velocity and spin exactly 0) instead of creeping; its spin stops below
  // floor_stop_speed / k.
  float floor_stop_speed = 0.01f;
};

// What create_tile_map made. `body` is the static body of all the solid tiles (null when the
// map has none); tile_shapes has one entry per tile, row-major: the solid tile's box shape,
// null for empty and floor tiles.
struct TileMap {
  BodyId body;
  std::vector<ShapeId> tile_shapes;
};

}  // namespace strut
