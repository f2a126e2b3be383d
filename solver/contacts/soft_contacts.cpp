#include "solver/contacts/soft_contacts.hpp"

#include <cmath>

#include "solver/bodies/body_store.hpp"
#include "solver/contacts/contact_solver.hpp"
#include "solver/core/step_timing.hpp"
#include "solver/core/stores.hpp"
#include "strut/world.hpp"

namespace strut {
namespace {

Vec2 relative_motion(Stores<ReadsConfig, ReadsTiming, ReadsBodies, ReadsParticles> w,
                     const ContactGeometry &g) {
  return point_motion_linear(w, g.v) - point_motion_linear(w, g.o);
}

void apply_pair(WorldState &w, const ContactGeometry &g, Vec2 P) {
  apply_velocity_impulse(w, g.v, P, 1.0f);
  apply_velocity_impulse(w, g.o, -P, 1.0f);
}

}  // namespace

void prepare_soft_point(Stores<ReadsBodies, ReadsParticles> w, ContactPoint &cp) {
  const ContactGeometry g = evaluate_contact(w, cp);
  cp.max_lambda_n = 0;
  // Pressed when the step begins: not an impact, no bounce (as the rigid prepare decides).
  cp.vn_pre = cp.lambda_n > 0 ? 0.0f : dot(point_motion(w, g.v) - point_motion(w, g.o), g.n);
}

void warm_start_soft_point(WorldState &w, ContactPoint &cp) {
  if (cp.lambda_n == 0 && cp.lambda_t == 0) return;
  const ContactGeometry g = evaluate_contact(w, cp);
  apply_pair(w, g, cp.lambda_n * g.n + cp.lambda_t * Vec2{g.n.y, -g.n.x});
}

void solve_soft_point(WorldState &w, ContactPoint &cp, const Pass &pass) {
  const ContactGeometry g = evaluate_contact(w, cp);
  const float wn = inv_mass_along(w, g.v, g.n) + inv_mass_along(w, g.o, g.n);
  if (wn <= 0) return;
  const bool fixed = touches_fixed(w, cp.body_v, cp.body_o);
  const float dn = normal_impulse(pass, fixed, g.c, dot(relative_motion(w, g), g.n), 1.0f / wn,
                                  cp.lambda_n, cp.max_lambda_n);
  if (dn != 0) apply_pair(w, g, dn * g.n);
  const Vec2 t{g.n.y, -g.n.x};
  const float wt = inv_mass_along(w, g.v, t) + inv_mass_along(w, g.o, t);
  if (wt <= 0) return;
  const float dt = friction_impulse(cp, dot(relative_motion(w, g), t), 1.0f / wt, cp.lambda_t);
  if (dt != 0) apply_pair(w, g, dt * t);
  if (!pass.use_bias) cp.sliding = std::fabs(dot(relative_motion(w, g), t)) > pass.slide;
}

void restitute_soft_point(WorldState &w, ContactPoint &cp, float threshold_d) {
  if (cp.restitution <= 0 || cp.vn_pre > -threshold_d || cp.max_lambda_n <= 0) return;
  const ContactGeometry g = evaluate_contact(w, cp);
  const float wn = inv_mass_along(w, g.v, g.n) + inv_mass_along(w, g.o, g.n);
  if (wn <= 0) return;
  const float vn = dot(relative_motion(w, g), g.n);
  const float total = std::max(cp.lambda_n - (vn + cp.restitution * cp.vn_pre) / wn, 0.0f);
  const float dn = total - cp.lambda_n;
  cp.lambda_n = total;
  if (dn != 0) apply_pair(w, g, dn * g.n);
}

}  // namespace strut
