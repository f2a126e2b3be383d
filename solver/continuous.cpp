// Continuous collision for fast bodies, after the substeps. Speculative contacts stop almost
// everything, but a small body that moves many times its size in one step while spinning can
// still cross a thin wall (its corners' speculative points couple through the rotation and one
// Gauss-Seidel pass does not stop it). Such a body's centre is swept from where it started the
// step to where it ended; if the sweep enters a static or kinematic shape (any shape, for
// bullets), the body is put back on its path just before the surface. Its velocity is kept, so
// the next step's contacts meet it on the correct side. The same idea as Box2D's continuous pass
// (which sweeps the whole shape; the centre sweep is cheaper and suffices to keep the body on
// the right side of the wall).
#include <algorithm>
#include <cmath>

#include "solver/collide/shape_queries.hpp"
#include "solver/step_internals.hpp"

namespace strut {
namespace {

float extent(const Aabb& b) { return std::min(b.upper.x - b.lower.x, b.upper.y - b.lower.y); }

bool overlaps(const Aabb& a, const Aabb& b) {
  return a.lower.x <= b.upper.x && b.lower.x <= a.upper.x && a.lower.y <= b.upper.y &&
         b.lower.y <= a.upper.y;
}

std::optional<collide::RayResult> ray_body(const World::Impl& w, std::uint32_t k, Vec2 from,
                                           Vec2 to) {
  const auto& b = w.bodies;
  const std::uint32_t p0 = b.particle_begin[k];
  if (b.flags[k] & kCircle)
    return collide::ray_cast_circle({{w.particles.x[p0], w.particles.y[p0]}, b.radius[k]}, from, to);
  return collide::ray_cast_polygon(
      {w.particles.x.data() + p0, w.particles.y.data() + p0, b.hull_count[k], 0}, from, to);
}

}  // namespace

void continuous_pass(World::Impl& w) {
  auto& b = w.bodies;
  for (std::uint32_t k = 0; k < b.size(); ++k) {
    if (b.inv_mass[k] == 0 || (b.flags[k] & (kSoft | kSleeping | kDead))) continue;
    const float size = extent(b.aabb[k]);
    if (w.motion[k] <= 0.5f * size) continue;
    const Vec2 from = b.before_step[k].position;
    const Vec2 to{b.px[k], b.py[k]};
    const float len = length(to - from);
    if (len <= 0.25f * size) continue;
    const Aabb sweep{{std::min(from.x, to.x), std::min(from.y, to.y)},
                     {std::max(from.x, to.x), std::max(from.y, to.y)}};
    const bool bullet = (b.flags[k] & kBullet) != 0;
    float best = 1.0f;
    for (std::uint32_t j = 0; j < b.size(); ++j) {
      if (j == k || (b.flags[j] & kDead)) continue;
      if (!bullet && b.inv_mass[j] != 0) continue;
      if ((b.category[k] & b.mask[j]) == 0 || (b.category[j] & b.mask[k]) == 0) continue;
      if (!overlaps(sweep, b.aabb[j])) continue;
      if (const auto hit = ray_body(w, j, from, to)) best = std::min(best, hit->fraction);
    }
    if (best >= 1.0f) continue;
    // Stop a quarter of the body's size before the surface.
    const float f = std::max(0.0f, best - 0.25f * size / len);
    b.px[k] = from.x + f * (to.x - from.x);
    b.py[k] = from.y + f * (to.y - from.y);
  }
}

}  // namespace strut
