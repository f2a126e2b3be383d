// The rows every contact pass solves, shared by the rigid (SIMD lanes, contact_wide.hpp) and the
// soft (soft_contacts.cpp) paths: a pass's coefficients, the soft normal row and the Coulomb
// friction row, in displacement units (see contact_solver.hpp for the method).
#pragma once

#include <algorithm>

#include "solver/contacts/contact_wide.hpp"
#include "solver/world_state.hpp"

namespace strut {

// Slip speed above which a contact point counts as sliding (dynamic friction),
// in m/s.
constexpr float kSlideSpeed = 0.01f;

inline bool touches_fixed(const WorldState &w, std::uint32_t a, std::uint32_t b) {
  return w.bodies.inv_mass[a] == 0 || w.bodies.inv_mass[b] == 0;
}

// Coefficients of one solver pass, in displacement units.
struct Pass {
  float bias_rate = 0;  // per substep (bias_rate x h)
  float push_max = 0;   // push-out per substep
  Softness soft, soft_fixed;
  bool use_bias = true;
  float slide = 0;  // slip per substep above which a point slides
};

inline Pass make_pass(const WorldState &w, float h, bool use_bias) {
  Pass p;
  p.use_bias = use_bias;
  p.soft = w.contacts.softness;
  p.soft_fixed = w.contacts.static_softness;
  p.soft.bias_rate *= h;
  p.soft_fixed.bias_rate *= h;
  p.push_max = w.config.contact_push_max * h;
  p.slide = kSlideSpeed * h;
  return p;
}

// Normal row: returns the change of the accumulated impulse. s = separation, vn
// = normal motion of the vertex side relative to the other, m = effective mass.
inline float normal_impulse(const Pass &pass, bool fixed, float s, float vn, float m, float &lambda,
                            float &max_lambda) {
  float bias = 0, mass_scale = 1, impulse_scale = 0;
  if (s > 0) {
    bias = s;  // speculative: the gap may close in this substep, no more
  } else if (pass.use_bias) {
    const Softness &soft = fixed ? pass.soft_fixed : pass.soft;
    bias = std::max(soft.bias_rate * s, -pass.push_max);
    mass_scale = soft.mass_scale;
    impulse_scale = soft.impulse_scale;
  }
  const float impulse = -m * mass_scale * (vn + bias) - impulse_scale * lambda;
  const float total = std::max(lambda + impulse, 0.0f);
  const float change = total - lambda;
  lambda = total;
  max_lambda = std::max(max_lambda, total);
  return change;
}

// Friction row: Coulomb's cone with the static coefficient while the point
// sticks and the dynamic one while it slides. Whether it slides is read from
// its slip after the relax pass, not from the impulse it asks for
// mid-iteration: Gauss-Seidel makes the first point of a face briefly carry the
// whole load, which flipped boxes that should hold on a slope into sliding.
inline float friction_impulse(const ContactPoint &cp, float vt, float m, float &lambda) {
  const float bound = (cp.sliding ? cp.friction : cp.static_friction) * cp.lambda_n;
  const float total = std::clamp(lambda - m * vt, -bound, bound);
  const float change = total - lambda;
  lambda = total;
  return change;
}

// The same coefficients as the wide kernel takes them.
inline WidePass make_wide_pass(const Pass &p) {
  return WidePass{p.soft.bias_rate,
                  p.soft.mass_scale,
                  p.soft.impulse_scale,
                  p.soft_fixed.bias_rate,
                  p.soft_fixed.mass_scale,
                  p.soft_fixed.impulse_scale,
                  p.push_max,
                  p.slide,
                  p.use_bias};
}

}  // namespace strut
