// Kinetic friction of floor tiles, for top-down worlds. A body over a floor of friction mu feels
// the force mu m g opposite its velocity (g = TileMapDef::floor_gravity) for the whole step,
// added to its acceleration: it loses mu g dt of speed per step. The direction is that of the
// velocity the step would end with without friction (v + a dt, a from the applied forces), and
// when that speed minus mu g dt is below the map's stop speed the body rests for this step
// instead: motion and acceleration 0, so it stands exactly still. That covers both ways of
// creeping: a body whose last bit of speed the friction would only take over many steps, and
// a push weaker than the friction (static friction holds it; friction applied to the velocity
// after the step would let such a push move the body a little every step). A body that stops
// within a step stops at the step's start, at most mu g dt^2 / 2 early (0.7 mm for mu 0.5 at
// 60 Hz).
//
// Spin slows the same way by mu g / k (k = sqrt(I / m), the radius of gyration: the friction of
// a contact patch acts on average about k from the centre of mass; exact for a ring, 6 % above
// the (4/3) mu g / R of a uniform disc) and stops below stop speed / k. Linear and angular
// friction are applied independently (a body both sliding and spinning really feels less of
// each).
#include "solver/step/floor_friction.hpp"

#include <cmath>

#include "solver/bodies/body_store.hpp"
#include "solver/bodies/collider_store.hpp"
#include "solver/core/step_timing.hpp"
#include "solver/core/stores.hpp"
#include "solver/core/task_system.hpp"
#include "solver/step/step_scratch.hpp"
#include "solver/step/visited_bodies.hpp"

namespace strut {
namespace {

// The grid of the floor tile under `p` (the first grid with one there) and its friction in
// out_friction, or null.
const FloorGrid* floor_under(const std::vector<FloorGrid>& grids, Vec2 p, float& out_friction) {
  for (const FloorGrid& g : grids) {
    const float col = std::floor((p.x - g.origin.x) / g.tile_size);
    const float row = std::floor((g.origin.y - p.y) / g.tile_size);
    if (!(col >= 0 && col < float(g.cols) && row >= 0 && row < float(g.rows))) continue;
    const float mu = g.friction[std::size_t(row) * std::size_t(g.cols) + std::size_t(col)];
    if (mu < 0) continue;
    out_friction = mu;
    return &g;
  }
  return nullptr;
}

}  // namespace

void apply_floor_friction(
    Stores<RunsTasks, ReadsTiming, WritesBodies, ReadsColliders, WritesScratch> w, float dt) {
  if (w.colliders.floor_grids.empty()) return;
  auto& b = w.bodies;
  auto& s = w.scratch;
  const float h = w.timing.last_h;  // motion is per substep: velocity = d / h
  // Each body on its own: any chunking gives the same bits.
  // Only awake moving bodies slide, and those are visited this step.
  parallel_for_runs(w, s.body_runs, [&](int lo, int hi) {
    for (std::size_t k = std::size_t(lo); k < std::size_t(hi); ++k) {
      if (b.flags[k] & (kStatic | kKinematic | kSoft | kSleeping | kDead)) continue;
      float mu = 0;
      const FloorGrid* g = floor_under(w.colliders.floor_grids, {b.px[k], b.py[k]}, mu);
      if (!g || mu == 0) continue;
      const float decel = mu * g->gravity;  // m/s^2
      const float vx = b.dx[k] / h + s.ax[k] * dt, vy = b.dy[k] / h + s.ay[k] * dt;
      const float speed = std::sqrt(vx * vx + vy * vy);
      if (speed - decel * dt < g->stop_speed) {
        b.dx[k] = b.dy[k] = s.ax[k] = s.ay[k] = 0.0f;
      } else {
        s.ax[k] -= decel * (vx / speed);
        s.ay[k] -= decel * (vy / speed);
      }
      if (b.inv_inertia[k] > 0) {
        const float k_gyration = std::sqrt(b.inertia[k] / b.mass[k]);
        const float spin_decel = decel / k_gyration;  // rad/s^2
        const float spin = b.da[k] / h + s.alpha[k] * dt;
        if (std::fabs(spin) - spin_decel * dt < g->stop_speed / k_gyration)
          b.da[k] = s.alpha[k] = 0.0f;
        else
          s.alpha[k] -= std::copysign(spin_decel, spin);
      }
    }
  });
}

}  // namespace strut
