// A substep's contact stages: warm start and the soft solve, then (after positions integrate
// and joints project) the relax pass. Every pass runs colour by colour over the gathered solver
// bodies in SIMD lanes, then the soft path's points in pair order.
#include <cmath>

#include "solver/contacts/contact_kernel_table.hpp"
#include "solver/contacts/contact_passes.hpp"
#include "solver/contacts/soft_contacts.hpp"

namespace strut {

Softness make_softness(float hertz, float damping_ratio, float h) {
  // A spring-damper of the given frequency and damping, implicit in h (Box2D's
  // b2MakeSoft).
  if (hertz <= 0) return {0.0f, 1.0f, 0.0f};
  const float omega = 2.0f * float(M_PI) * hertz;
  const float a1 = 2.0f * damping_ratio + h * omega;
  const float a2 = h * omega * a1;
  const float a3 = 1.0f / (1.0f + a2);
  return {omega / a1, a2 * a3, a3};
}

namespace {

// The flags and surface rows (null when there are none) of the wide constraints from cs on.
const std::uint8_t *flags_of(WorldState &w, const WideConstraint *cs) {
  return w.contacts.wide_flags.data() + (cs - w.contacts.wide.data());
}
WideSurface *surface_of(WorldState &w, const WideConstraint *cs) {
  auto &set = w.contacts;
  return set.wide_surface.empty() ? nullptr : set.wide_surface.data() + (cs - set.wide.data());
}

// The kernels of a colour's work item: the overflow colour's lanes may share a body, so it runs
// the scalar level's (lane after lane); every other colour the SIMD level's in use.
const ContactKernels &kernels_for(bool overflow) {
  return overflow ? kContactKernelsScalar : contact_kernels();
}

// One solve or relax pass over the colours (pass.use_bias tells which).
void add_solve_stage(WorldState &w, std::vector<TaskSystem::Stage> &stages, int phase,
                     const WidePass &pass) {
  add_contact_colour_stages(w, stages, phase,
                            [&w, pass](WideConstraint *cs, std::uint32_t n, bool overflow) {
                              kernels_for(overflow).solve(w.scratch.solver_bodies.data(), cs, n,
                                                          pass, flags_of(w, cs), surface_of(w, cs));
                            });
}

// Last substep's accumulated impulses applied again, over gathered solver bodies; then, when the
// step has surface rows, the rolling impulses, after every constraint's warm start.
void add_warm_start_stage(WorldState &w, std::vector<TaskSystem::Stage> &stages, int phase) {
  const bool surfaces = !w.contacts.wide_surface.empty();
  add_contact_colour_stages(w, stages, phase,
                            [&w, surfaces](WideConstraint *cs, std::uint32_t n, bool overflow) {
                              const ContactKernels &k = kernels_for(overflow);
                              k.warm_start(w.scratch.solver_bodies.data(), cs, n);
                              if (surfaces)
                                k.warm_start_rolling(w.scratch.solver_bodies.data(), cs, n,
                                                     flags_of(w, cs), surface_of(w, cs));
                            });
}

}  // namespace

void add_contact_warm_start_stages(WorldState &w, std::vector<TaskSystem::Stage> &stages,
                                   int phase) {
  add_gather(w, stages, phase);
  add_warm_start_stage(w, stages, phase);
  add_scatter(w, stages, phase);
  add_soft_stage(w, stages, phase, [&w](ContactPoint &cp) { warm_start_soft_point(w, cp); });
}

void add_contact_solve_stages(WorldState &w, std::vector<TaskSystem::Stage> &stages, float h,
                              int phase, bool own_gather, bool warm_start) {
  const Pass pass = make_pass(w, h, true);
  const WidePass wide_pass = make_wide_pass(pass);
  const int iterations = w.config.iterations;
  // After add_contact_warm_start_stages only the motion changed (the joints' passes).
  if (own_gather && warm_start) add_gather(w, stages, phase);
  if (own_gather && !warm_start) add_gather_motion(w, stages, phase);
  if (warm_start) add_warm_start_stage(w, stages, phase);
  for (int it = 0; it < iterations; ++it) add_solve_stage(w, stages, phase, wide_pass);
  if (own_gather) add_scatter(w, stages, phase);
  if (warm_start)
    add_soft_stage(w, stages, phase, [&w](ContactPoint &cp) { warm_start_soft_point(w, cp); });
  for (int it = 0; it < iterations; ++it)
    add_soft_stage(w, stages, phase,
                   [&w, pass](ContactPoint &cp) { solve_soft_point(w, cp, pass); });
}

void add_contact_relax_stages(WorldState &w, std::vector<TaskSystem::Stage> &stages, float h,
                              int phase, bool own_gather) {
  const Pass pass = make_pass(w, h, false);
  const WidePass wide_pass = make_wide_pass(pass);
  if (own_gather) add_gather(w, stages, phase);
  add_solve_stage(w, stages, phase, wide_pass);
  if (own_gather) add_scatter(w, stages, phase);
  add_soft_stage(w, stages, phase, [&w, pass](ContactPoint &cp) { solve_soft_point(w, cp, pass); });
}

}  // namespace strut
