// Scene queries. They search the query index (query_index.hpp) for the bodies whose current
// box overlaps and run the exact shape test on those; each respects layers: a body is reported
// when (category & mask) != 0. Dead (destroyed, not yet compacted) bodies are skipped. Results
// come in body creation order (rays: nearest first, ties in creation order).
#include "solver/query/queries.hpp"

#include <algorithm>
#include <string>

#include "solver/bodies/body_validate.hpp"
#include "solver/collide/manifold.hpp"
#include "solver/query/shape_cast.hpp"
#include "solver/shapes/polygon_geometry.hpp"
#include "solver/shapes/shape_ops.hpp"
#include "solver/step/collide_phase.hpp"
#include "solver/world_state.hpp"
#include "strut/world.hpp"

namespace strut {
namespace {

bool selected(const WorldState& w, std::uint32_t i, std::uint32_t mask) {
  const auto& c = w.colliders;
  return !(w.bodies.flags[c.body[i]] & kDead) && (c.category[i] & mask) != 0;
}

// Dense indices of the colliders whose box overlaps `box` and for which keep(i) holds, ascending
// (creation order).
template <class Keep>
std::vector<std::uint32_t> candidates(const WorldState& w, const Aabb& box, Keep keep) {
  QueryIndex& index = w.queries.index;
  const std::uint64_t stamp = (w.timing.step_index << 32) + w.bodies.edits;
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
    if (keep(i)) out.push_back(i);
  });
  std::sort(out.begin(), out.end());
  return out;
}
std::vector<std::uint32_t> candidates(const WorldState& w, const Aabb& box, std::uint32_t mask) {
  return candidates(w, box, [&](std::uint32_t i) { return selected(w, i, mask); });
}

// The shapes a query shape with `filter` would collide with (should_collide), sensors excluded:
// shape casts and overlaps look for solid things, as rays do.
bool passes_filter(const WorldState& w, std::uint32_t i, const ShapeFilter& filter) {
  const auto& c = w.colliders;
  return !(w.bodies.flags[c.body[i]] & kDead) && !c.sensor[i] &&
         should_collide(filter, ShapeFilter{c.category[i], c.mask[i], c.group[i]});
}

// A query shape's convex pieces in world space (a chain has one per link), each with its box.
struct QueryPiece {
  float x[kMaxPolygonVertices], y[kMaxPolygonVertices];
  collide::ShapeView view;
  Aabb box;
};

// Checks the query shape against the size and coordinate limits of a static body's shape and
// places its pieces at `pose`; `call` names the World function in the error.
std::vector<QueryPiece> query_pieces(const Shape& shape, Transform pose, const char* call) {
  BodyDef def;  // validated as a static body of this one shape: sizes and coordinates, no mass
  ShapeDef own;
  own.shape = shape;
  def.center = pose.position;
  def.angle = pose.angle;
  def.is_static = true;
  try {
    validate_body_def(def, own);
  } catch (const Error& e) {
    throw Error(std::string(call) + ": " + e.what());
  }
  ShapeDef sd;
  sd.shape = shape;
  sd.angle = pose.angle;
  sd.offset = pose.position;
  const std::vector<shapes::LocalCollider> local = shapes::make_colliders(sd);
  std::vector<QueryPiece> pieces(local.size());
  for (std::size_t p = 0; p < local.size(); ++p) {
    const shapes::LocalCollider& piece = local[p];
    QueryPiece& q = pieces[p];
    for (int v = 0; v < piece.count; ++v)
      q.x[v] = piece.vertices[v].x, q.y[v] = piece.vertices[v].y;
    q.view.kind = piece.kind, q.view.x = q.x, q.view.y = q.y, q.view.count = piece.count;
    q.view.radius = piece.radius;
    q.box = view_box(q.view);
  }
  return pieces;
}

// Dense colliders overlapping any piece (a negative gap: touching is not overlap), ascending and
// each once.
template <class Keep>
std::vector<std::uint32_t> overlapping(const WorldState& w, const std::vector<QueryPiece>& pieces,
                                       Keep keep) {
  std::vector<std::uint32_t> found;
  for (const QueryPiece& piece : pieces)
    for (const std::uint32_t i : candidates(w, piece.box, keep))
      // Margin 0: only points with a negative separation (overlap) are reported.
      if (collide::collide(piece.view, shape_view(w, i), 0.0f).count > 0) found.push_back(i);
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

// The bodies of the colliders for which keep(i) holds, each once, in creation order (colliders
// are dense in body order).
template <class Keep>
std::vector<BodyId> bodies_of(const WorldState& w, const std::vector<std::uint32_t>& colliders,
                              Keep keep) {
  std::vector<BodyId> out;
  std::uint32_t last = ~0u;
  for (const std::uint32_t i : colliders) {
    const std::uint32_t k = w.colliders.body[i];
    if (k == last || !keep(i)) continue;
    out.push_back(w.bodies.id_of_dense(k));
    last = k;
  }
  return out;
}

}  // namespace

std::vector<std::uint32_t> colliders_in_box(const WorldState& w, const Aabb& box,
                                            std::uint32_t mask) {
  return candidates(w, box, mask);
}

Aabb view_box(const collide::ShapeView& v, float grow) {
  Aabb box{{v.x[0], v.y[0]}, {v.x[0], v.y[0]}};
  for (int i = 1; i < v.count; ++i) {
    box.lower = {std::min(box.lower.x, v.x[i]), std::min(box.lower.y, v.y[i])};
    box.upper = {std::max(box.upper.x, v.x[i]), std::max(box.upper.y, v.y[i])};
  }
  const float r = v.radius + grow;
  return {box.lower - Vec2{r, r}, box.upper + Vec2{r, r}};
}

Aabb swept_box(const Aabb& box, Vec2 translation) {
  return {
      {box.lower.x + std::min(translation.x, 0.0f), box.lower.y + std::min(translation.y, 0.0f)},
      {box.upper.x + std::max(translation.x, 0.0f), box.upper.y + std::max(translation.y, 0.0f)}};
}

std::vector<SolidCollider> solid_colliders(const WorldState& w, const Aabb& box,
                                           const ShapeFilter& filter) {
  std::vector<SolidCollider> out;
  for (const std::uint32_t i :
       candidates(w, box, [&](std::uint32_t i) { return passes_filter(w, i, filter); }))
    out.push_back({shape_view(w, i), w.bodies.id_of_dense(w.colliders.body[i]),
                   shape_of_collider(w.colliders, w.colliders.slot[i])});
  return out;
}

std::vector<BodyId> World::query_aabb(Aabb box, std::uint32_t mask) const {
  if (!is_finite(box.lower) || !is_finite(box.upper)) throw Error("query_aabb: box is not finite");
  if (box.lower.x > box.upper.x || box.lower.y > box.upper.y)
    throw Error("query_aabb: box is inverted (lower is above or right of upper)");
  const auto& w = *state_;
  return bodies_of(w, candidates(w, box, mask), [](std::uint32_t) { return true; });
}

std::vector<BodyId> World::query_point(Vec2 p, std::uint32_t mask) const {
  if (!is_finite(p)) throw Error("query_point: point is not finite");
  const auto& w = *state_;
  return bodies_of(w, candidates(w, Aabb{p, p}, mask),
                   [&](std::uint32_t i) { return shapes::contains(shape_view(w, i), p); });
}

// Sensors are not hit by rays: a ray looks for solid things.
std::vector<RayHit> World::ray_cast_all(Vec2 from, Vec2 to, std::uint32_t mask) const {
  if (!is_finite(from) || !is_finite(to)) throw Error("ray_cast: from/to is not finite");
  const auto& w = *state_;
  const Aabb ray_box{{std::min(from.x, to.x), std::min(from.y, to.y)},
                     {std::max(from.x, to.x), std::max(from.y, to.y)}};
  std::vector<RayHit> out;
  for (const std::uint32_t i : candidates(w, ray_box, mask)) {
    if (w.colliders.sensor[i]) continue;
    if (auto hit = shapes::ray_cast(shape_view(w, i), from, to)) {
      const std::uint32_t slot = w.colliders.slot[i];
      const RayHit h{w.bodies.id_of_dense(w.colliders.body[i]), from + hit->fraction * (to - from),
                     hit->normal, hit->fraction, shape_of_collider(w.colliders, slot)};
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
  const auto& w = *state_;
  const auto pieces = query_pieces(shape, pose, "query_shape");
  return bodies_of(w, overlapping(w, pieces, [&](std::uint32_t i) { return selected(w, i, mask); }),
                   [](std::uint32_t) { return true; });
}

std::vector<ShapeId> World::overlap_shape(const Shape& shape, Transform pose,
                                          const ShapeFilter& filter) const {
  const auto& w = *state_;
  const auto pieces = query_pieces(shape, pose, "overlap_shape");
  std::vector<ShapeId> out;
  for (const std::uint32_t i :
       overlapping(w, pieces, [&](std::uint32_t i) { return passes_filter(w, i, filter); })) {
    const ShapeId id = shape_of_collider(w.colliders, w.colliders.slot[i]);
    if (out.empty() || !(out.back() == id)) out.push_back(id);  // a chain's links are one shape
  }
  return out;
}

// Each piece is cast against the colliders in the box it sweeps; the earliest hit wins, ties going
// to the shape created first (candidates come in creation order and only a strictly earlier hit
// replaces the best).
std::optional<RayHit> World::cast_shape(const Shape& shape, Transform pose, Vec2 translation,
                                        const ShapeFilter& filter) const {
  if (!is_finite(translation)) throw Error("cast_shape: translation is not finite");
  // The end pose obeys the same limits as the start.
  query_pieces(shape, {pose.position + translation, pose.angle}, "cast_shape (end pose)");
  const auto& w = *state_;
  std::optional<RayHit> best;
  for (const QueryPiece& piece : query_pieces(shape, pose, "cast_shape")) {
    for (const std::uint32_t i :
         candidates(w, swept_box(piece.box, translation),
                    [&](std::uint32_t i) { return passes_filter(w, i, filter); })) {
      const auto hit = cast_collider(piece.view, translation, shape_view(w, i));
      if (!hit || (best && !(hit->fraction < best->fraction))) continue;
      best = RayHit{w.bodies.id_of_dense(w.colliders.body[i]), hit->point, hit->normal,
                    hit->fraction, shape_of_collider(w.colliders, w.colliders.slot[i])};
    }
  }
  return best;
}

std::optional<RayHit> World::ray_cast(Vec2 from, Vec2 to, std::uint32_t mask) const {
  auto all = ray_cast_all(from, to, mask);
  if (all.empty()) return std::nullopt;
  return all.front();
}

}  // namespace strut
