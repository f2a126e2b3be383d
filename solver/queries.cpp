// Scene queries. They search the query index (query_index.hpp) for the bodies whose current
// box overlaps and run the exact shape test on those; each respects layers: a body is reported
// when (category & mask) != 0. Dead (destroyed, not yet compacted) bodies are skipped. Results
// come in body creation order (rays: nearest first, ties in creation order).
#include <algorithm>
#include <string>

#include "solver/collide/manifold.hpp"
#include "solver/collide_phase.hpp"
#include "solver/polygon_geometry.hpp"
#include "solver/shapes/shape_ops.hpp"
#include "solver/world_impl.hpp"
#include "strut/world.hpp"

namespace strut {
namespace {

bool selected(const World::Impl& w, std::uint32_t i, std::uint32_t mask) {
  const auto& c = w.colliders;
  return !(w.bodies.flags[c.body[i]] & kDead) && (c.category[i] & mask) != 0;
}

// Dense indices of the selected colliders whose box overlaps `box`, ascending (creation order).
std::vector<std::uint32_t> candidates(const World::Impl& w, const Aabb& box, std::uint32_t mask) {
  QueryIndex& index = w.query_index;
  const std::uint64_t stamp = (w.step_index << 32) + w.body_edits;
  {
    const std::lock_guard lock(index.mutex);
    if (index.needs_build(stamp)) {
      const auto& c = w.colliders;
      std::vector<Aabb> boxes(c.size());
      std::vector<std::uint8_t> live(c.size());
      for (std::uint32_t i = 0; i < c.size(); ++i) {
        live[i] = !(w.bodies.flags[c.body[i]] & kDead);
        if (live[i]) boxes[i] = collider_tight_box(w, i);
      }
      index.build(stamp, boxes, live);
    }
  }
  std::vector<std::uint32_t> out;
  index.for_each_overlap(box, [&](std::uint32_t i) {
    if (selected(w, i, mask)) out.push_back(i);
  });
  std::sort(out.begin(), out.end());
  return out;
}

// The bodies of the colliders for which keep(i) holds, each once, in creation order (colliders
// are dense in body order).
template <class Keep>
std::vector<BodyId> bodies_of(const World::Impl& w, const std::vector<std::uint32_t>& colliders,
                              Keep keep) {
  std::vector<BodyId> out;
  std::uint32_t last = ~0u;
  for (const std::uint32_t i : colliders) {
    const std::uint32_t k = w.colliders.body[i];
    if (k == last || !keep(i)) continue;
    out.push_back(w.id_of_dense(k));
    last = k;
  }
  return out;
}

}  // namespace

std::vector<BodyId> World::query_aabb(Aabb box, std::uint32_t mask) const {
  if (!is_finite(box.lower) || !is_finite(box.upper)) throw Error("query_aabb: box is not finite");
  if (box.lower.x > box.upper.x || box.lower.y > box.upper.y)
    throw Error("query_aabb: box is inverted (lower is above or right of upper)");
  const auto& w = *impl_;
  return bodies_of(w, candidates(w, box, mask), [](std::uint32_t) { return true; });
}

std::vector<BodyId> World::query_point(Vec2 p, std::uint32_t mask) const {
  if (!is_finite(p)) throw Error("query_point: point is not finite");
  const auto& w = *impl_;
  return bodies_of(w, candidates(w, Aabb{p, p}, mask),
                   [&](std::uint32_t i) { return shapes::contains(shape_view(w, i), p); });
}

// Sensors are not hit by rays: a ray looks for solid things.
std::vector<RayHit> World::ray_cast_all(Vec2 from, Vec2 to, std::uint32_t mask) const {
  if (!is_finite(from) || !is_finite(to)) throw Error("ray_cast: from/to is not finite");
  const auto& w = *impl_;
  const Aabb ray_box{{std::min(from.x, to.x), std::min(from.y, to.y)},
                     {std::max(from.x, to.x), std::max(from.y, to.y)}};
  std::vector<RayHit> out;
  for (const std::uint32_t i : candidates(w, ray_box, mask)) {
    if (w.colliders.sensor[i]) continue;
    if (auto hit = shapes::ray_cast(shape_view(w, i), from, to)) {
      const std::uint32_t slot = w.colliders.slot[i];
      const RayHit h{w.id_of_dense(w.colliders.body[i]), from + hit->fraction * (to - from),
                     hit->normal, hit->fraction, w.shape_of_collider(slot)};
      // A body's nearest hit only (a compound's shapes, a chain's links).
      if (!out.empty() && out.back().body == h.body) {
        if (h.fraction < out.back().fraction) out.back() = h;
        continue;
      }
      out.push_back(h);
    }
  }
  // Nearest first; ties in creation order (stable).
  std::stable_sort(out.begin(), out.end(),
                   [](const RayHit& a, const RayHit& b) { return a.fraction < b.fraction; });
  return out;
}

std::vector<BodyId> World::query_shape(const Shape& shape, Transform pose,
                                       std::uint32_t mask) const {
  BodyDef def;  // validated as a static body: sizes and coordinates, no mass
  def.shape = shape;
  def.center = pose.position;
  def.angle = pose.angle;
  def.is_static = true;
  try {
    validate_body_def(def);
  } catch (const Error& e) {
    throw Error(std::string("query_shape: ") + e.what());
  }
  ShapeDef sd;
  sd.shape = shape;
  sd.angle = pose.angle;
  sd.offset = pose.position;
  const auto& w = *impl_;
  std::vector<std::uint32_t> found;
  for (const shapes::LocalCollider& piece : shapes::make_colliders(sd)) {
    float xs[kMaxPolygonVertices], ys[kMaxPolygonVertices];
    Aabb box{{1e30f, 1e30f}, {-1e30f, -1e30f}};
    for (int v = 0; v < piece.count; ++v) {
      xs[v] = piece.vertices[v].x, ys[v] = piece.vertices[v].y;
      box.lower = {std::min(box.lower.x, xs[v]), std::min(box.lower.y, ys[v])};
      box.upper = {std::max(box.upper.x, xs[v]), std::max(box.upper.y, ys[v])};
    }
    box.lower -= Vec2{piece.radius, piece.radius}, box.upper += Vec2{piece.radius, piece.radius};
    collide::ShapeView query;
    query.kind = piece.kind, query.x = xs, query.y = ys, query.count = piece.count;
    query.radius = piece.radius;
    for (const std::uint32_t i : candidates(w, box, mask))
      // Margin 0: only points with a negative separation (overlap) are reported.
      if (collide::collide(query, shape_view(w, i), 0.0f).count > 0) found.push_back(i);
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return bodies_of(w, found, [](std::uint32_t) { return true; });
}

std::optional<RayHit> World::ray_cast(Vec2 from, Vec2 to, std::uint32_t mask) const {
  auto all = ray_cast_all(from, to, mask);
  if (all.empty()) return std::nullopt;
  return all.front();
}

}  // namespace strut
