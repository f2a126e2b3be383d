// World::explode: a radial impulse on the shapes near a point, by the width they show the blast
// (as Box2D's explosions weigh each shape by its perimeter facing the centre), so a wide crate
// takes more than a pebble at the same distance. Written over the colliders' vertices and
// radius, so every convex kind (circle, capsule, polygon) is handled alike.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "solver/query/queries.hpp"
#include "solver/shapes/shape_checks.hpp"
#include "solver/shapes/shape_ops.hpp"
#include "solver/step/collide_phase.hpp"
#include "solver/world_state.hpp"
#include "strut/limits.hpp"
#include "strut/world.hpp"

namespace strut {
namespace {

void require(bool ok, const char* field, const std::string& problem) {
  if (!ok) throw Error(std::string("explode: ") + field + " " + problem);
}

std::string coordinate_limit_text() {
  return shapes::number_text(limits::kMaxCoordinate) + " m (strut/limits.hpp)";
}

void validate(const ExplosionDef& d) {
  require(is_finite(d.position), "position", "is not a finite number");
  require(std::fabs(d.position.x) <= limits::kMaxCoordinate &&
              std::fabs(d.position.y) <= limits::kMaxCoordinate,
          "position", "exceeds the coordinate limit of " + coordinate_limit_text());
  require(std::isfinite(d.radius), "radius", "is not a finite number");
  require(d.radius >= 0, "radius", "must not be negative");
  require(std::isfinite(d.falloff), "falloff", "is not a finite number");
  require(d.falloff >= 0, "falloff", "must not be negative");
  require(d.radius + d.falloff <= limits::kMaxCoordinate, "radius",
          "plus falloff exceeds the coordinate limit of " + coordinate_limit_text());
  require(std::isfinite(d.impulse_per_length), "impulse_per_length", "is not a finite number");
}

// The collider's width across direction n (unit): its extent along n's normal.
float width_across(const collide::ShapeView& v, Vec2 n) {
  const Vec2 side = perp(n);
  float lo = INFINITY, hi = -INFINITY;
  for (int i = 0; i < v.count; ++i) {
    const float s = dot(side, Vec2{v.x[i], v.y[i]});
    lo = std::min(lo, s), hi = std::max(hi, s);
  }
  return hi - lo + 2.0f * v.radius;
}

struct Push {
  std::uint32_t body;
  Vec2 impulse, point;
};

}  // namespace

void World::explode(const ExplosionDef& def) {
  validate(def);
  auto& w = *state_;
  const float reach = def.radius + def.falloff;
  const Aabb box{def.position - Vec2{reach, reach}, def.position + Vec2{reach, reach}};
  std::vector<Push> pushes;
  for (const std::uint32_t i : colliders_in_box(w, box, def.mask)) {
    const std::uint32_t k = w.colliders.body[i];
    if (w.colliders.sensor[i] || !w.bodies.is_rigid(k) ||
        (w.bodies.flags[k] & (kStatic | kKinematic)))
      continue;
    const collide::ShapeView view = shape_view(w, i);
    const Vec2 core = shapes::nearest_core_point(view, def.position);
    Vec2 away = core - def.position;
    float core_distance = length(away);
    if (!(core_distance > 0)) {
      // The centre is inside the shape's core: pushed away from the centre toward its body's.
      away = Vec2{w.bodies.px[k], w.bodies.py[k]} - def.position;
      core_distance = 0;
    }
    const float away_length = length(away);
    if (!(away_length > 0)) continue;  // centred on the body: no direction to push
    const Vec2 n = (1.0f / away_length) * away;
    const float distance = std::max(core_distance - view.radius, 0.0f);
    if (distance > reach) continue;
    const float strength =
        distance <= def.radius ? 1.0f : 1.0f - (distance - def.radius) / def.falloff;
    const float magnitude = def.impulse_per_length * width_across(view, n) * strength;
    if (magnitude == 0) continue;
    const Vec2 point = core_distance > 0 ? core - view.radius * n : def.position;
    pushes.push_back({k, magnitude * n, point});
  }
  // Every body's new velocities, checked against the limits before any is set.
  struct Change {
    std::uint32_t body;
    double vx, vy, omega;
  };
  std::vector<Change> changes;
  for (const Push& p : pushes) {
    if (changes.empty() || changes.back().body != p.body) {
      const BodyId id = w.bodies.id_of_dense(p.body);
      const Vec2 v = linear_velocity(id);
      changes.push_back({p.body, v.x, v.y, angular_velocity(id)});
    }
    Change& c = changes.back();
    const auto& b = w.bodies;
    const Vec2 arm = p.point - Vec2{b.px[p.body], b.py[p.body]};
    c.vx += double(b.inv_mass[p.body]) * p.impulse.x;
    c.vy += double(b.inv_mass[p.body]) * p.impulse.y;
    c.omega +=
        double(b.inv_inertia[p.body]) * (double(arm.x) * p.impulse.y - double(arm.y) * p.impulse.x);
  }
  for (const Change& c : changes) {
    const BodyId id = w.bodies.id_of_dense(c.body);
    const std::string call = "explode: body " + std::to_string(id.index) + "/" +
                             std::to_string(id.generation) + " would get";
    w.check_linear_velocity(id, Vec2{float(c.vx), float(c.vy)}, call.c_str());
    w.check_angular_velocity(id, float(c.omega), call.c_str());
  }
  for (const Change& c : changes) {
    const BodyId id = w.bodies.id_of_dense(c.body);
    set_linear_velocity(id, Vec2{float(c.vx), float(c.vy)});
    set_angular_velocity(id, float(c.omega));
    wake(id);
  }
}

}  // namespace strut
