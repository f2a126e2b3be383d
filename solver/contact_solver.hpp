// The contact solver (see contact_solver.cpp for the method and why).
#pragma once

#include "solver/point_ref.hpp"

namespace strut {

// A contact point evaluated at the current positions: the two material points, the normal
// (pointing from the other feature towards the vertex) and the separation C (< 0 = overlap).
struct ContactGeometry {
  PointRef v, o;
  Vec2 n;
  float c = 0;
};
ContactGeometry evaluate_contact(const World::Impl& w, const ContactPoint& cp);

// Spring-damper softness of a constraint at substep h.
Softness make_softness(float hertz, float damping_ratio, float h);

// One point between two rigid bodies prepared at the current poses through the prepare kernel's
// scalar twin (contact_prepare.hpp); the solver prepares kWideLanes at a time.
PreparedPoint prepare_point(const World::Impl& w, const ContactPoint& cp);

// Splits the contact pairs into solver constraints and colours them (after the narrow phase
// and islands, once the step has set scratch.moving).
void colour_contacts(World::Impl& w);
// Once per step, before the substeps: fixes anchors, normals and effective masses of points
// between rigid bodies, and records each point's approach for restitution.
void prepare_contacts(World::Impl& w);
// After the step: impulses and sliding state back to the contact points (persistence), and
// pairs with a pressed point marked touching (islands, events).
void finish_contacts(World::Impl& w);
// The contact passes work on solver bodies (contact.hpp): gathered from the body arrays before
// a pass, their motion scattered back after it. Both are per body, so a stage over the bodies
// (integration) may do them for its own range. The scatter writes only bodies the step marked
// movable (scratch.moving).
void gather_solver_bodies(World::Impl& w, int lo, int hi);
void scatter_solver_bodies(World::Impl& w, int lo, int hi);
// Whether the solver bodies may stay gathered across a substep: nothing but the contact passes
// and integration touches the bodies' motion (no joints, struts or points on soft bodies).
bool solver_bodies_only(const World::Impl& w);

// Appends a substep's contact stages to a stage list (run by TaskSystem::run_stages): warm start
// (the accumulated impulses applied again), then `iterations` solve passes with the soft push-out.
// `phase` tags the stages for the step profile. `own_gather`: the stages gather the solver bodies
// first and scatter them at the end (otherwise the caller does, see solver_bodies_only).
void add_contact_solve_stages(World::Impl& w, std::vector<TaskSystem::Stage>& stages, float h,
                              int phase, bool own_gather = true);
// The relax pass: the same solve without push-out, so the push-out does not stay as velocity.
void add_contact_relax_stages(World::Impl& w, std::vector<TaskSystem::Stage>& stages, float h,
                              int phase, bool own_gather = true);
// After the last substep: points that were pressed and approached faster than `threshold`
// leave with -restitution times their approach speed.
void apply_restitution(World::Impl& w, float h, float threshold);

}  // namespace strut
