// A collider's boxes and broad-phase proxy: its reach, tight box, the step's swept bounds, the
// broad-phase box and mask, and the view the collision functions read.
#include <algorithm>
#include <cmath>

#include "solver/collide/manifold.hpp"
#include "solver/contacts/contact_solver.hpp"
#include "solver/core/stores.hpp"
#include "solver/step/bounds_kernel.hpp"
#include "solver/step/collide_phase.hpp"
#include "solver/step/visited_bodies.hpp"

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

namespace {

// The tight box of `count` vertices at (x, y) with radius r: min and max in vertex order.
inline Aabb vertex_box(const float* x, const float* y, std::uint32_t count, float r) {
  float lx = x[0], ly = y[0], ux = x[0], uy = y[0];
  for (std::uint32_t v = 1; v < count; ++v) {
    lx = std::min(lx, x[v]), ly = std::min(ly, y[v]);
    ux = std::max(ux, x[v]), uy = std::max(uy, y[v]);
  }
  return Aabb{{lx - r, ly - r}, {ux + r, uy + r}};
}

// Body k's colliders' tight boxes and their union. Reads the columns through local pointers:
// the step calls it for every awake body, where reloading each vector's data after every
// store cost more than the boxes (pile30: 250 instructions a box of four vertices).
inline void tight_boxes_of(Stores<WritesBodies, WritesColliders, ReadsParticles> w,
                           std::uint32_t k) {
  const auto& b = w.bodies;
  auto& c = w.colliders;
  const float* x = w.particles.x.data() + b.particle_begin[k];
  const float* y = w.particles.y.data() + b.particle_begin[k];
  const std::uint32_t* vertex_begin = c.vertex_begin.data();
  const auto* count = c.count.data();
  const float* radius = c.radius.data();
  Aabb* boxes = c.aabb.data();
  Aabb box{{1e30f, 1e30f}, {-1e30f, -1e30f}};
  const std::uint32_t first = b.collider_begin[k], last = first + b.collider_count[k];
  for (std::uint32_t i = first; i < last; ++i) {
    const Aabb t = vertex_box(x + vertex_begin[i], y + vertex_begin[i], count[i], radius[i]);
    boxes[i] = t;
    box.lower = {std::min(box.lower.x, t.lower.x), std::min(box.lower.y, t.lower.y)};
    box.upper = {std::max(box.upper.x, t.upper.x), std::max(box.upper.y, t.upper.y)};
  }
  w.bodies.aabb[k] = box;
}

}  // namespace

Aabb collider_tight_box(Stores<ReadsBodies, ReadsColliders, ReadsParticles> w, std::uint32_t i) {
  const auto& c = w.colliders;
  const std::uint32_t p0 = w.bodies.particle_begin[c.body[i]] + c.vertex_begin[i];
  return vertex_box(w.particles.x.data() + p0, w.particles.y.data() + p0, c.count[i], c.radius[i]);
}

void update_tight_boxes(Stores<WritesBodies, WritesColliders, ReadsParticles> w, std::uint32_t k) {
  tight_boxes_of(w, k);
}

void update_bounds(Stores<ReadsConfig, RunsTasks, ReadsTiming, WritesBodies, WritesColliders,
                          ReadsParticles, WritesScratch>
                       w,
                   float dt) {
  auto& b = w.bodies;
  auto& sc = w.scratch;
  const std::size_t n = b.size(), colliders = w.colliders.size();
  b.motion.resize(n);
  b.sweep_x.resize(n), b.sweep_y.resize(n), b.spread.resize(n);
  b.step_reach.resize(n);
  b.extent.resize(n);
  sc.tight_lx.resize(colliders), sc.tight_ly.resize(colliders);
  sc.tight_ux.resize(colliders), sc.tight_uy.resize(colliders);
  sc.collider_sweep_x.resize(colliders), sc.collider_sweep_y.resize(colliders);
  sc.collider_spread.resize(colliders);
  const float h = w.timing.last_h;
  const float g = length(w.config.gravity);
  // The bodies this step visits: the others are idle and keep last visit's values.
  parallel_for_runs(w, sc.body_runs, [&](int lo, int hi) {
    const auto& q = w.particles;
    const std::uint8_t* flags = b.flags.data();
    const Aabb* collider_box = w.colliders.aabb.data();
    for (std::uint32_t k = std::uint32_t(lo); k < std::uint32_t(hi); ++k) {
      const std::uint8_t f = flags[k];
      // A static or sleeping body's boxes change only when it is moved (refresh_body_boxes).
      if (!(f & (kStatic | kSleeping)) || b.aabb[k].lower.x > b.aabb[k].upper.x)
        tight_boxes_of(w, k);
      const Aabb box = b.aabb[k];
      b.extent[k] = std::max(box.upper.x - box.lower.x, box.upper.y - box.lower.y);
      float motion = 0, sweep_x = 0, sweep_y = 0, spread = 0;
      if (!(f & (kStatic | kSleeping))) {
        const float reach = b.reach[k];
        b.step_reach[k] = reach;
        // Distance any point of the body can travel this step: linear + angular + gravity. The
        // linear part has a direction (the sweep); the rest may go any way (the spread).
        const float fall = std::fabs(b.gravity_scale[k]) * g * dt * dt;
        if (!(f & kSoft)) {
          const float vx = b.dx[k] / h, vy = b.dy[k] / h;
          const float omega = std::fabs(b.da[k]) / h;
          motion = (std::sqrt(vx * vx + vy * vy) + omega * reach) * dt;
          sweep_x = vx * dt, sweep_y = vy * dt;
          spread = omega * reach * dt + fall;
        } else {
          const std::uint32_t p0 = b.particle_begin[k], pc = b.particle_count[k];
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
        b.step_reach[k] = 0.5f * length(box.upper - box.lower);
      }
      b.motion[k] = motion;
      b.sweep_x[k] = sweep_x, b.sweep_y[k] = sweep_y, b.spread[k] = spread;
      // The bounds kernel's inputs (find_candidate_pairs), per collider: written here, where the
      // boxes and the motion are at hand, rather than gathered in a pass of their own.
      const std::uint32_t first = b.collider_begin[k], last = first + b.collider_count[k];
      for (std::uint32_t i = first; i < last; ++i) {
        const Aabb& t = collider_box[i];
        sc.tight_lx[i] = t.lower.x, sc.tight_ly[i] = t.lower.y;
        sc.tight_ux[i] = t.upper.x, sc.tight_uy[i] = t.upper.y;
        sc.collider_sweep_x[i] = sweep_x, sc.collider_sweep_y[i] = sweep_y;
        sc.collider_spread[i] = spread;
      }
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
