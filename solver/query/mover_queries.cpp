#include "solver/query/mover_queries.hpp"

#include <algorithm>

#include "solver/query/queries.hpp"
#include "solver/query/shape_cast.hpp"
#include "solver/shapes/shape_ops.hpp"

namespace strut {

std::optional<MoverContact> cast_mover(const WorldState& w, const collide::ShapeView& capsule,
                                       Vec2 translation, const ShapeFilter& filter) {
  std::optional<MoverContact> best;
  for (const SolidCollider& c :
       solid_colliders(w, swept_box(view_box(capsule), translation), filter)) {
    const auto hit = cast_collider(capsule, translation, c.view);
    if (!hit || (best && !(hit->fraction < best->fraction))) continue;
    // Started inside (or touching) and moving out along the way out: no obstacle.
    if (hit->fraction == 0 && dot(hit->normal, translation) >= 0) continue;
    const float gap =
        hit->fraction == 0 ? std::min(collider_gap(capsule, c.view).distance, 0.0f) : 0.0f;
    best = MoverContact{hit->fraction, gap, hit->point, hit->normal, c.body, c.shape};
  }
  return best;
}

std::vector<MoverContact> collide_mover(const WorldState& w, const collide::ShapeView& capsule,
                                        float margin, const ShapeFilter& filter) {
  std::vector<MoverContact> out;
  for (const SolidCollider& c : solid_colliders(w, view_box(capsule, margin), filter)) {
    const ColliderGap gap = collider_gap(capsule, c.view);
    if (gap.distance < margin)
      out.push_back({0.0f, gap.distance, gap.point, gap.normal, c.body, c.shape});
  }
  return out;
}

std::optional<Vec2> probe_surface(const WorldState& w, Vec2 from, Vec2 to,
                                  const ShapeFilter& filter) {
  const Aabb box{{std::min(from.x, to.x), std::min(from.y, to.y)},
                 {std::max(from.x, to.x), std::max(from.y, to.y)}};
  std::optional<shapes::RayResult> nearest;
  for (const SolidCollider& c : solid_colliders(w, box, filter)) {
    const auto hit = shapes::ray_cast(c.view, from, to);
    if (hit && (!nearest || hit->fraction < nearest->fraction)) nearest = hit;
  }
  if (!nearest) return std::nullopt;
  return nearest->normal;
}

}  // namespace strut
