// Joints: constraints between material points of two bodies.
#pragma once

#include <cstdint>

#include "strut/body.hpp"

namespace strut {

// A point fixed in a body: for a rigid body an offset from the centre of mass in body
// coordinates; for a soft body the particle nearest to it (offset within the body's range).
struct BodyAnchor {
  Vec2 local;
  std::uint32_t particle = 0;
};

struct Joint {
  JointType type = JointType::Distance;
  std::uint32_t slot_a = 0, slot_b = 0;  // body slots (stable across compaction)
  BodyAnchor anchor_a, anchor_b;
  float length = 0;                        // distance joints
  float min_length = -1, max_length = -1;  // ranges (ropes); < 0 when unused
  float compliance = 0;
  float reference_angle = 0;  // weld: angle of b relative to a at creation
  bool collide = false;
  std::uint32_t slot = 0;  // joint id slot
  JointDef def;            // as created, for World::definition
  bool dead = false;       // destroyed; removed from World::Impl::joints before the next step
};

}  // namespace strut
