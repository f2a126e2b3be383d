// The soft path: points of pairs that touch a soft body, re-evaluated from particles by every
// pass, one at a time in pair order, on the body arrays (not the solver bodies).
#pragma once

#include "solver/contacts/contact_rows.hpp"
#include "solver/core/stores.hpp"
#include "solver/core/world_state_fwd.hpp"

namespace strut {

// Before the substeps: the point's approach along its normal, for restitution.
void prepare_soft_point(Stores<ReadsBodies, ReadsParticles> w, ContactPoint &cp);
// The point's accumulated impulses applied again.
void warm_start_soft_point(WorldState &w, ContactPoint &cp);
// One solve (pass.use_bias) or relax pass of the point's normal and friction rows.
void solve_soft_point(WorldState &w, ContactPoint &cp, const Pass &pass);
// After the substeps: a pressed point that approached faster than threshold_d (per substep)
// leaves with -restitution times its approach.
void restitute_soft_point(WorldState &w, ContactPoint &cp, float threshold_d);

}  // namespace strut
