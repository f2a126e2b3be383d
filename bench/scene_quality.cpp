#include "bench/scene_quality.hpp"

#include <algorithm>

#include "solver/world_state.hpp"
#include "solver/world_state.hpp"

namespace strut {

namespace {
bool dynamic_body(const World& world, BodyId id) {
  return world.is_valid(id) && world.type(id) == BodyType::Dynamic;
}
}  // namespace

QualityStart quality_start(const SceneInstance& inst) {
  QualityStart start;
  for (const BodyId id : inst.bodies)
    if (dynamic_body(inst.world, id))
      start.body_y.emplace_back(id, inst.world.transform(id).position.y);
  return start;
}

SceneQuality measure_quality(const SceneInstance& inst, const QualityStart& start) {
  SceneQuality q;
  // Bodies destroyed during the run (rain's ragdolls) are skipped; those created are not in
  // `start`.
  bool lead_found = false;
  for (const auto& [id, y0] : start.body_y) {
    if (!inst.world.is_valid(id)) continue;
    const Vec2 p = inst.world.transform(id).position;
    q.max_drop = std::max(q.max_drop, y0 - p.y);
    if (!lead_found) q.lead_x = p.x, lead_found = true;
  }
  // Separations are measured by the last step's narrow phase (radii already subtracted), as
  // Box2D's manifolds are: each pair's deepest (ContactSet::pair_deepest; a point the contact
  // cache kept does not store its own).
  for (const float deepest : state_of(inst.world).contacts.pair_deepest)
    q.max_overlap = std::max(q.max_overlap, -deepest);
  return q;
}

}  // namespace strut
