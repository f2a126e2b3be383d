// Struts added by hand across soft bodies (every particle to the one half way round its body),
// beyond what a body makes for itself: enough of them, outside the per-body lanes, send the
// solver down its coloured-strut path, which no body built through the API reaches.
#pragma once

#include <cmath>
#include <cstdint>

#include "solver/world_state.hpp"

namespace strut::test {

// compliance(k): the compliance of the struts added to dense body k.
template <class Compliance>
void add_diagonal_struts(WorldState& w, Compliance&& compliance) {
  const auto& b = w.bodies;
  const auto& q = w.particles;
  for (std::uint32_t k = 1; k < b.size(); ++k) {
    const std::uint32_t p0 = b.particle_begin[k], n = b.particle_count[k] - 1;
    for (std::uint32_t i = 0; i < n / 2; ++i) {
      const std::uint32_t from = p0 + i, to = p0 + i + n / 2;
      const float rest = std::hypot(q.x[to] - q.x[from], q.y[to] - q.y[from]);
      w.soft.struts.push_back({from, to, rest, compliance(k)});
    }
  }
  w.soft.lanes.dirty = true;
}

}  // namespace strut::test
