// Position-based contact projection, friction and restitution (see contact_solver.cpp).
#pragma once

#include "solver/point_ref.hpp"

namespace strut {

// A contact point evaluated at the current positions: the two material points, the normal
// (pointing from the other feature towards the vertex) and the constraint value C (< 0 = overlap).
struct ContactGeometry {
  PointRef v, o;
  Vec2 n;
  float c = 0;
};
ContactGeometry evaluate_contact(const World::Impl& w, const ContactPoint& cp);

// Records each point's normal velocity before the substep (for restitution) and resets the
// per-substep impulses.
void begin_contact_substep(World::Impl& w, float h);
void solve_contact(World::Impl& w, ContactPoint& cp);
void solve_contacts(World::Impl& w);
// Velocity pass: points that were pushed this substep and approached faster than `threshold`
// leave with -restitution times their approach speed.
void apply_restitution(World::Impl& w, float h, float threshold);

}  // namespace strut
