// A collider's boxes and broad-phase proxy: its reach, tight box, the step's swept bounds, the
// broad-phase box and mask, and the view the collision functions read.
#include <algorithm>
#include <cmath>

#include "solver/bodies/body_store.hpp"
#include "solver/bodies/collider_store.hpp"
#include "solver/collide/manifold.hpp"
#include "solver/contacts/contact_solver.hpp"
#include "solver/contacts/pair_store.hpp"
#include "solver/core/stores.hpp"
#include "solver/core/task_system.hpp"
#include "solver/step/bounds_kernel.hpp"
#include "solver/step/collide_phase.hpp"
#include "solver/step/step_scratch.hpp"
#include "solver/core/step_timing.hpp"
#include "solver/step/visited_bodies.hpp"
#include "strut/world.hpp"

namespace strut {

float local_reach(Stores<ReadsBodies, ReadsColliders, ReadsParticles> w, std::uint32_t k) {
  const auto& b = w.bodies;
  const auto& c = w.colliders;
  const auto& q = w.particles;
  float reach = 0;
  for (std::uint32_t i = b.collider_begin[k]; i < b.collider_begin[k] + b.collider_count[k]; ++i) {
    const std::uint32_t v0 = b.particle_begin[k] + c.vertex_begin[i];
    float r2 = 0;
    for (std::uint32_t v = v0; v < v0 + c.count[i]; ++v)
      r2 = std::max(r2, q.lx[v] * q.lx[v] + q.ly[v] * q.ly[v]);
    reach = std::max(reach, std::sqrt(r2) + c.radius[i]);
  }
  return reach;
}

Aabb collider_tight_box(Stores<ReadsBodies, ReadsColliders, ReadsParticles> w, std::uint32_t i) {
  const auto& c = w.colliders;
  const auto& q = w.particles;
  const std::uint32_t p0 = w.bodies.particle_begin[c.body[i]] + c.vertex_begin[i];
  float lx = q.x[p0], ly = q.y[p0], ux = q.x[p0], uy = q.y[p0];
  for (std::uint32_t v = p0 + 1; v < p0 + c.count[i]; ++v) {
    lx = std::min(lx, q.x[v]), ly = std::min(ly, q.y[v]);
    ux = std::max(ux, q.x[v]), uy = std::max(uy, q.y[v]);
  }
  const float r = c.radius[i];
  return Aabb{{lx - r, ly - r}, {ux + r, uy + r}};
}

void update_tight_boxes(Stores<WritesBodies, WritesColliders, ReadsParticles> w, std::uint32_t k) {
  auto& b = w.bodies;
  auto& c = w.colliders;
  Aabb box{{1e30f, 1e30f}, {-1e30f, -1e30f}};
  for (std::uint32_t i = b.collider_begin[k]; i < b.collider_begin[k] + b.collider_count[k]; ++i) {
    c.aabb[i] = collider_tight_box(w, i);
    box.lower = {std::min(box.lower.x, c.aabb[i].lower.x),
                 std::min(box.lower.y, c.aabb[i].lower.y)};
    box.upper = {std::max(box.upper.x, c.aabb[i].upper.x),
                 std::max(box.upper.y, c.aabb[i].upper.y)};
  }
  b.aabb[k] = box;
}

void update_bounds(Stores<ReadsConfig, RunsTasks, ReadsTiming, WritesBodies, WritesColliders,
                          ReadsParticles, ReadsScratch>
                       w,
                   float dt) {
  auto& b = w.bodies;
  const auto& q = w.particles;
  const std::size_t n = b.size();
  w.bodies.motion.resize(n);
  w.bodies.sweep_x.resize(n), w.bodies.sweep_y.resize(n), w.bodies.spread.resize(n);
  w.bodies.step_reach.resize(n);
  w.bodies.extent.resize(n);
  const float h = w.timing.last_h;
  const float g = length(w.config.gravity);
  // The bodies this step visits: the others are idle and keep last visit's values.
  parallel_for_runs(w, w.scratch.body_runs, [&](int lo, int hi) {
    for (std::size_t k = std::size_t(lo); k < std::size_t(hi); ++k) {
      const std::uint32_t p0 = b.particle_begin[k], pc = b.particle_count[k];
      // A static or sleeping body's boxes change only when it is moved (refresh_body_boxes).
      if (!(b.flags[k] & (kStatic | kSleeping)) || b.aabb[k].lower.x > b.aabb[k].upper.x)
        update_tight_boxes(w, std::uint32_t(k));
      w.bodies.extent[k] =
          std::max(b.aabb[k].upper.x - b.aabb[k].lower.x, b.aabb[k].upper.y - b.aabb[k].lower.y);
      float motion = 0, sweep_x = 0, sweep_y = 0, spread = 0;
      if (!(b.flags[k] & kStatic) && !(b.flags[k] & kSleeping)) {
        const float reach = b.reach[k];
        w.bodies.step_reach[k] = reach;
        // Distance any point of the body can travel this step: linear + angular + gravity. The
        // linear part has a direction (the sweep); the rest may go any way (the spread).
        const float fall = std::fabs(b.gravity_scale[k]) * g * dt * dt;
        if (w.bodies.is_rigid(k)) {
          const float vx = b.dx[k] / h, vy = b.dy[k] / h;
          const float omega = std::fabs(b.da[k]) / h;
          motion = (std::sqrt(vx * vx + vy * vy) + omega * reach) * dt;
          sweep_x = vx * dt, sweep_y = vy * dt;
          spread = omega * reach * dt + fall;
        } else {
          float vmax = 0;
          for (std::uint32_t i = p0; i < p0 + pc; ++i) {
            const float vx = q.dx[i], vy = q.dy[i];
            vmax = std::max(vmax, vx * vx + vy * vy);
          }
          motion = std::sqrt(vmax) / h * dt;
          spread = motion + fall;
        }
        motion += fall;
      } else {
        w.bodies.step_reach[k] = 0.5f * length(b.aabb[k].upper - b.aabb[k].lower);
      }
      w.bodies.motion[k] = motion;
      w.bodies.sweep_x[k] = sweep_x, w.bodies.sweep_y[k] = sweep_y, w.bodies.spread[k] = spread;
    }
  });
}

// The bounds kernel's box (bounds_kernel.hpp: sweep_box).
Aabb collider_broadphase_box(Stores<ReadsConfig, ReadsBodies, ReadsColliders> w, std::uint32_t i) {
  const std::uint32_t k = w.colliders.body[i];
  const bool swept = k < w.bodies.spread.size();
  const Aabb& b = w.colliders.aabb[i];
  float box[4] = {b.lower.x, b.lower.y, b.upper.x, b.upper.y};
  sweep_box(box, swept ? w.bodies.sweep_x[k] : 0.0f, swept ? w.bodies.sweep_y[k] : 0.0f,
            swept ? w.bodies.spread[k] : 0.0f, 0.5f * w.config.contact_slop);
  return Aabb{{box[0], box[1]}, {box[2], box[3]}};
}

void refresh_body_boxes(
    Stores<ReadsConfig, WritesBodies, WritesColliders, ReadsParticles, WritesPairs> w,
    std::uint32_t k) {
  const auto& b = w.bodies;
  update_tight_boxes(w, k);
  for (std::uint32_t i = b.collider_begin[k]; i < b.collider_begin[k] + b.collider_count[k]; ++i)
    w.pairs.broadphase.set_box(w.colliders.slot[i], collider_broadphase_box(w, i));
}

void set_body_sleeping(Stores<ReadsBodies, ReadsColliders, WritesPairs> w, std::uint32_t k,
                       bool sleeping) {
  const auto& b = w.bodies;
  for (std::uint32_t i = b.collider_begin[k]; i < b.collider_begin[k] + b.collider_count[k]; ++i)
    w.pairs.broadphase.set_sleeping(w.colliders.slot[i], sleeping);
}

std::uint32_t broadphase_mask(Stores<ReadsColliders> w, std::uint32_t i) {
  return w.colliders.group[i] > 0 ? 0xFFFFFFFFu : w.colliders.mask[i];
}

void reinsert_body(
    Stores<ReadsConfig, WritesBodies, WritesColliders, ReadsParticles, WritesPairs> w,
    std::uint32_t k) {
  const auto& b = w.bodies;
  const auto& c = w.colliders;
  const bool is_static = (b.flags[k] & kStatic) != 0;
  update_tight_boxes(w, k);
  for (std::uint32_t i = b.collider_begin[k]; i < b.collider_begin[k] + b.collider_count[k]; ++i) {
    w.pairs.broadphase.remove(c.slot[i]);
    w.pairs.broadphase.insert(c.slot[i], collider_broadphase_box(w, i), c.category[i],
                              broadphase_mask(w, i), is_static);
    if (b.flags[k] & kSleeping) w.pairs.broadphase.set_sleeping(c.slot[i], true);
  }
}

collide::ShapeView shape_view(Stores<ReadsBodies, ReadsColliders, ReadsParticles> w,
                              std::uint32_t i) {
  const auto& c = w.colliders;
  const std::uint32_t k = c.body[i];
  const std::uint32_t p0 = w.bodies.particle_begin[k] + c.vertex_begin[i];
  collide::ShapeView v;
  v.kind = c.kind[i];
  v.x = w.particles.x.data() + p0;
  v.y = w.particles.y.data() + p0;
  v.count = c.count[i];
  v.radius = c.radius[i];
  v.internal_edges = c.internal_edges[i];
  if (c.ghosts[i]) {
    const auto& b = w.bodies;
    const Vec2 p{b.px[k], b.py[k]};
    const Rot q{b.qc[k], b.qs[k]};
    v.has_prev = (c.ghosts[i] & 1) != 0, v.has_next = (c.ghosts[i] & 2) != 0;
    v.ghost_prev = p + rotate(q, c.ghost_prev[i]);
    v.ghost_next = p + rotate(q, c.ghost_next[i]);
  }
  return v;
}

}  // namespace strut
