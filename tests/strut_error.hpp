// How far a world's struts are from their rest lengths, for the tests that hold soft bodies and
// strut chains to their shape.
#pragma once

#include <algorithm>
#include <cmath>

#include "solver/world_state.hpp"

namespace strut::test {

struct StrutError {
  float worst = 0, mean = 0;  // |length - rest| / rest
};

inline StrutError strut_error(const WorldState& w) {
  StrutError e;
  for (const Strut& s : w.soft.struts) {
    const float dx = w.particles.x[s.b] - w.particles.x[s.a];
    const float dy = w.particles.y[s.b] - w.particles.y[s.a];
    const float r = std::fabs(std::sqrt(dx * dx + dy * dy) - s.rest) / s.rest;
    e.worst = std::max(e.worst, r);
    e.mean += r / float(w.soft.struts.size());
  }
  return e;
}

}  // namespace strut::test
