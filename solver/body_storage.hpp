// Adding bodies to the dense arrays and removing destroyed ones.
#pragma once

#include "solver/world_impl.hpp"

namespace strut {

// Appends a validated body; returns its dense index.
std::uint32_t add_body(World::Impl& w, const BodyDef& def, std::uint32_t slot);

// Stable removal of bodies flagged kDead (creation order of the survivors is kept).
void compact_bodies(World::Impl& w);
// Destroying a joint (directly or with one of its bodies) only marks it: erasing it from the
// middle of `joints` and renumbering the rest, once per destroyed body, was the ragdoll rain's
// largest serial cost. compact_joints removes the marked ones, in order, before a step.
void kill_joint(World::Impl& w, Joint& j);
void compact_joints(World::Impl& w);

}  // namespace strut
