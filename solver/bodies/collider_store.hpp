// Colliders (the convex pieces of shapes, each a broad-phase proxy), the shapes they come from
// and tile maps' floors (part of the world's state, solver/world_state.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "solver/bodies/body_store.hpp"
#include "solver/collide/manifold.hpp"
#include "solver/core/id_pool.hpp"
#include "strut/world.hpp"

namespace strut {

// ColliderArrays::callbacks bits: the shape asks the world's custom filter about its new pairs
// (ShapeDef::custom_filter), or the pre-solve callback about its contacts (ShapeDef::pre_solve).
enum CallbackFlag : std::uint8_t { kCustomFilter = 1, kPreSolve = 2 };

// Colliders, SoA, dense in body order (a body's are contiguous): the convex pieces a body's
// shapes are made of (solver/shapes/shape_ops.hpp), each one broad-phase proxy keyed by its slot.
// A collider's vertices are particles of its body, from particle_begin + vertex_begin.
struct ColliderArrays {
  std::vector<std::uint32_t> slot;   // collider slot (broad-phase proxy, contact pair keys)
  std::vector<std::uint32_t> body;   // dense body
  std::vector<std::uint32_t> shape;  // shape slot (the public ShapeId it belongs to)
  std::vector<collide::ColliderKind> kind;
  std::vector<std::uint8_t> count;          // vertices
  std::vector<std::uint32_t> vertex_begin;  // first vertex, relative to the body's particles
  std::vector<float> radius;
  std::vector<float> friction, static_friction, restitution;
  // The material's mixing rules (MixRule): friction's in the low four bits, restitution's in the
  // high four; 0 for the Default rules, which the narrow phase then applies without looking
  // further (collide_pair.cpp).
  std::vector<std::uint8_t> mix_rules;
  std::vector<std::uint32_t> category, mask;
  std::vector<std::int32_t> group;
  std::vector<std::uint8_t> sensor;
  // ShapeDef::custom_filter and pre_solve as CallbackFlag bits (solver/step/custom_filter.cpp,
  // solver/step/pre_solve.cpp).
  std::vector<std::uint8_t> callbacks;
  std::vector<std::uint16_t> internal_edges;  // tile map seams
  // ShapeDef::tangent_speed and rolling_resistance (the contacts' surface rows, WideSurface).
  std::vector<float> tangent_speed, rolling_resistance;
  // Chain segments: the neighbouring chain points relative to the centre of mass (like lx, ly),
  // and whether they exist (bit 0: before vertex 0, bit 1: after vertex 1).
  std::vector<Vec2> ghost_prev, ghost_next;
  std::vector<std::uint8_t> ghosts;
  std::vector<Aabb> aabb;  // tight box at the last step's start

  // Every column, as BodyArrays::for_each_column.
  template <class F>
  void for_each_column(F &&f) {
    f(slot), f(body), f(shape), f(kind), f(count), f(vertex_begin), f(radius), f(friction);
    f(static_friction), f(restitution), f(mix_rules), f(category), f(mask), f(group), f(sensor);
    f(callbacks), f(internal_edges), f(tangent_speed), f(rolling_resistance), f(ghost_prev),
        f(ghost_next);
    f(ghosts), f(aabb);
  }
  std::size_t size() const { return slot.size(); }
};

// ColliderArrays::mix_rules of a material.
inline std::uint8_t mix_rules_of(const Material &m) {
  return std::uint8_t(std::uint8_t(m.friction_mix) | std::uint8_t(m.restitution_mix) << 4);
}

// A shape as the program made it (World::add_shape, BodyDef), by shape slot.
struct ShapeRecord {
  std::uint32_t body = 0;  // body slot
  ShapeDef def;
  // Tile maps: the box's edges shared with neighbouring solid tiles (ColliderArrays::
  // internal_edges), kept here so that they survive a relayout of the body.
  std::uint16_t internal_edges = 0;
  template <class F>
  void for_each_field(F &&f) {
    f(body), f(def), f(internal_edges);
  }
};

// The floor tiles of one tile map (solver/shapes/tile_map.cpp), read by the floor friction stage
// (solver/step/floor_friction.cpp): per tile, row-major, the floor's kinetic friction
// coefficient, or -1 where the tile is no floor.
struct FloorGrid {
  Vec2 origin;  // top-left corner
  float tile_size = 1.0f;
  int rows = 0, cols = 0;
  float gravity = 10.0f;     // TileMapDef::floor_gravity
  float stop_speed = 0.01f;  // TileMapDef::floor_stop_speed
  std::vector<float> friction;
  template <class F>
  void for_each_field(F &&f) {
    f(origin), f(tile_size), f(rows), f(cols), f(gravity), f(stop_speed), f(friction);
  }
};

// Colliders (the convex pieces of shapes, each a broad-phase proxy), the shapes they come from,
// and tile maps' floors.
struct ColliderStore : ColliderArrays {
  // Collider slots key the broad-phase proxies and contact pairs. A removed collider's slot is
  // retired, not released: last step's contacts still name it, so it is reused only after the
  // next narrow phase has replaced those contacts. Its dense index is into the columns.
  IdPool slots{"collider"};
  IdPool shape_slots{"shape"};      // no dense index: a shape's data is shapes[slot]
  std::vector<ShapeRecord> shapes;  // by shape slot
  // Colliders with a tangent speed or rolling resistance, removed ones until the compaction:
  // while 0, the contact prepare fills no surface rows and the passes read none
  // (prepare_contacts.cpp, ContactSet::wide_surface).
  std::uint32_t surface_count = 0;
  // Colliders whose shape sets ShapeDef::custom_filter or pre_solve (callbacks), removed ones
  // until the compaction: while 0, no step looks for pairs to ask about.
  std::uint32_t custom_filter_count = 0, pre_solve_count = 0;
  std::vector<FloorGrid> floor_grids;  // tile maps with floor tiles, in creation order
};

// The body and shape of a live collider slot.
inline BodyId body_of_collider(const ColliderStore &colliders, const BodyStore &bodies,
                               std::uint32_t collider_slot) {
  return bodies.id_of_dense(colliders.body[colliders.slots[collider_slot].dense]);
}
inline ShapeId shape_of_collider(const ColliderStore &colliders, std::uint32_t collider_slot) {
  return colliders.shape_slots.id_of<ShapeId>(
      colliders.shape[colliders.slots[collider_slot].dense]);
}

}  // namespace strut
