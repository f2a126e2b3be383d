// Adding bodies to the dense arrays and removing destroyed ones.
#pragma once

#include <span>

#include "solver/core/stores.hpp"
#include "solver/world_state.hpp"

namespace strut {

// A free shape slot (ShapeRecord), not yet alive.
std::uint32_t new_shape_slot(WorldState& w);
// Appends a validated body given by `shapes` (with_shapes, solver/core/body_level_shape.hpp)
// and its colliders (one shape slot per item of def.shapes);
// returns its dense index. The caller inserts the colliders into the broad phase.
std::uint32_t add_body(WorldState& w, const BodyDef& def, std::uint32_t slot,
                       std::span<const std::uint32_t> shape_slots);

// Stable removal of bodies flagged kDead (creation order of the survivors is kept).
void compact_bodies(
    Stores<WritesBodies, WritesColliders, WritesParticles, WritesSoft, WritesJoints> w);
// Destroying a joint (directly or with one of its bodies) only marks it: erasing it from the
// middle of `joints` and renumbering the rest, once per destroyed body, was the ragdoll rain's
// largest serial cost. compact_joints removes the marked ones, in order, before a step.
void kill_joint(WorldState& w, Joint& j);
void compact_joints(Stores<WritesJoints> w);

}  // namespace strut
