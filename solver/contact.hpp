// Contact points as feature pairs, re-evaluated from current positions every substep.
#pragma once

#include <cstdint>
#include <vector>

#include "strut/math.hpp"

namespace strut {

enum class ContactKind : std::uint8_t { VertexEdge = 0, VertexVertex = 1 };

// One contact point: vertex `vertex` of body `body_v` against edge `other` (vertex `other`
// for VertexVertex) of body `body_o`. 40 bytes of geometry, friction and per-substep state.
struct ContactPoint {
  std::uint32_t body_v = 0;  // dense body indices
  std::uint32_t body_o = 0;
  ContactKind kind = ContactKind::VertexEdge;
  std::uint8_t vertex = 0;
  std::uint8_t other = 0;
  bool touched = false;    // corrected during the current substep
  float radius = 0;        // radii of the two features (circles), summed
  float friction = 0;      // dynamic coefficient of the pair
  float static_friction = 0;
  float restitution = 0;
  Vec2 fallback_normal;    // from the narrow phase, used when the features coincide
  float lambda_n = 0;      // normal position impulse accumulated this substep
  float lambda_t = 0;      // friction position impulse accumulated this substep
  float vn_pre = 0;        // relative normal velocity at the start of the substep
  std::uint32_t pair = 0;  // index into ContactSet::pair_slots
};

struct ContactSet {
  std::vector<ContactPoint> points;
  // Body slots (lower, higher) of each pair that produced points, in pair order.
  std::vector<std::uint64_t> pair_keys;
  std::vector<std::uint8_t> pair_touching;  // any point with separation <= 0 this step
};

inline std::uint64_t pair_key(std::uint32_t slot_a, std::uint32_t slot_b) {
  if (slot_a > slot_b) std::swap(slot_a, slot_b);
  return (std::uint64_t(slot_a) << 32) | slot_b;
}

}  // namespace strut
