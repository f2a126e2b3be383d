// Scene queries. They search the query index (query_index.hpp) for the bodies whose current
// box overlaps and run the exact shape test on those; each respects layers: a body is reported
// when (category & mask) != 0. Dead (destroyed, not yet compacted) bodies are skipped. Results
// come in body creation order (rays: nearest first, ties in creation order).
#include <algorithm>
#include <cmath>
#include <string>

#include "solver/collide/manifold.hpp"
#include "solver/collide/shape_queries.hpp"
#include "solver/collide_phase.hpp"
#include "solver/polygon_geometry.hpp"
#include "solver/world_impl.hpp"
#include "strut/limits.hpp"
#include "strut/world.hpp"

namespace strut {
namespace {

bool selected(const World::Impl& w, std::uint32_t k, std::uint32_t mask) {
  return !(w.bodies.flags[k] & kDead) && (w.bodies.category[k] & mask) != 0;
}

collide::PolygonView polygon_of(const World::Impl& w, std::uint32_t k) {
  const std::uint32_t p0 = w.bodies.particle_begin[k];
  return collide::PolygonView{w.particles.x.data() + p0, w.particles.y.data() + p0,
                              w.bodies.hull_count[k], 0};
}

collide::CircleView circle_of(const World::Impl& w, std::uint32_t k) {
  const std::uint32_t p0 = w.bodies.particle_begin[k];
  return collide::CircleView{{w.particles.x[p0], w.particles.y[p0]}, w.bodies.radius[k]};
}

std::optional<collide::RayResult> ray_body(const World::Impl& w, std::uint32_t k, Vec2 from,
                                           Vec2 to) {
  if (w.bodies.flags[k] & kCircle) return collide::ray_cast_circle(circle_of(w, k), from, to);
  return collide::ray_cast_polygon(polygon_of(w, k), from, to);
}

// Dense indices of the selected bodies whose box overlaps `box`, ascending (creation order).
std::vector<std::uint32_t> candidates(const World::Impl& w, const Aabb& box, std::uint32_t mask) {
  QueryIndex& index = w.query_index;
  const std::uint64_t stamp = (w.step_index << 32) + w.body_edits;
  {
    const std::lock_guard lock(index.mutex);
    if (index.needs_build(stamp)) {
      const auto& b = w.bodies;
      std::vector<Aabb> boxes(b.size());
      std::vector<std::uint8_t> live(b.size());
      for (std::uint32_t k = 0; k < b.size(); ++k) {
        live[k] = !(b.flags[k] & kDead);
        if (live[k]) boxes[k] = tight_box(w, k);
      }
      index.build(stamp, boxes, live);
    }
  }
  std::vector<std::uint32_t> out;
  index.for_each_overlap(box, [&](std::uint32_t k) {
    if (selected(w, k, mask)) out.push_back(k);
  });
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<BodyId> World::query_aabb(Aabb box, std::uint32_t mask) const {
  if (!is_finite(box.lower) || !is_finite(box.upper)) throw Error("query_aabb: box is not finite");
  if (box.lower.x > box.upper.x || box.lower.y > box.upper.y)
    throw Error("query_aabb: box is inverted (lower is above or right of upper)");
  const auto& w = *impl_;
  std::vector<BodyId> out;
  for (const std::uint32_t k : candidates(w, box, mask)) out.push_back(w.id_of_dense(k));
  return out;
}

std::vector<BodyId> World::query_point(Vec2 p, std::uint32_t mask) const {
  if (!is_finite(p)) throw Error("query_point: point is not finite");
  const auto& w = *impl_;
  std::vector<BodyId> out;
  for (const std::uint32_t k : candidates(w, Aabb{p, p}, mask)) {
    const bool inside = (w.bodies.flags[k] & kCircle)
                            ? collide::circle_contains(circle_of(w, k), p)
                            : collide::polygon_contains(polygon_of(w, k), p);
    if (inside) out.push_back(w.id_of_dense(k));
  }
  return out;
}

std::vector<RayHit> World::ray_cast_all(Vec2 from, Vec2 to, std::uint32_t mask) const {
  if (!is_finite(from) || !is_finite(to)) throw Error("ray_cast: from/to is not finite");
  const auto& w = *impl_;
  const Aabb ray_box{{std::min(from.x, to.x), std::min(from.y, to.y)},
                     {std::max(from.x, to.x), std::max(from.y, to.y)}};
  std::vector<RayHit> out;
  for (const std::uint32_t k : candidates(w, ray_box, mask)) {
    if (auto hit = ray_body(w, k, from, to)) {
      out.push_back(
          RayHit{w.id_of_dense(k), from + hit->fraction * (to - from), hit->normal, hit->fraction});
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
  const Rot r = make_rot(pose.angle);
  std::vector<float> xs, ys;
  collide::ShapeView query;
  Aabb box;
  if (const auto* circle = std::get_if<CircleShape>(&shape)) {
    xs = {pose.position.x}, ys = {pose.position.y};
    query.kind = collide::ColliderKind::Circle;
    query.x = xs.data(), query.y = ys.data(), query.count = 1, query.radius = circle->radius;
    box = {pose.position - Vec2{circle->radius, circle->radius},
           pose.position + Vec2{circle->radius, circle->radius}};
  } else {
    std::vector<Vec2> local;
    if (const auto* b = std::get_if<BoxShape>(&shape)) {
      const Vec2 h = b->half_extents;
      local = {{-h.x, -h.y}, {h.x, -h.y}, {h.x, h.y}, {-h.x, h.y}};
    } else {
      local = make_convex_ccw(std::get<PolygonShape>(shape).vertices, "vertices");
    }
    box = {{1e30f, 1e30f}, {-1e30f, -1e30f}};
    for (const Vec2 v : local) {
      const Vec2 x = pose.position + rotate(r, v);
      xs.push_back(x.x), ys.push_back(x.y);
      box.lower = {std::min(box.lower.x, x.x), std::min(box.lower.y, x.y)};
      box.upper = {std::max(box.upper.x, x.x), std::max(box.upper.y, x.y)};
    }
    query.kind = collide::ColliderKind::Polygon;
    query.x = xs.data(), query.y = ys.data(), query.count = int(xs.size());
  }
  const auto& w = *impl_;
  std::vector<BodyId> out;
  for (const std::uint32_t k : candidates(w, box, mask)) {
    collide::ShapeView body;
    const std::uint32_t p0 = w.bodies.particle_begin[k];
    body.x = w.particles.x.data() + p0, body.y = w.particles.y.data() + p0;
    if (w.bodies.flags[k] & kCircle) {
      body.kind = collide::ColliderKind::Circle, body.count = 1, body.radius = w.bodies.radius[k];
    } else {
      body.kind = collide::ColliderKind::Polygon, body.count = w.bodies.hull_count[k];
    }
    // Margin 0: only points with a negative separation (overlap) are reported.
    if (collide::collide(query, body, 0.0f).count > 0) out.push_back(w.id_of_dense(k));
  }
  return out;
}

std::optional<RayHit> World::ray_cast(Vec2 from, Vec2 to, std::uint32_t mask) const {
  auto all = ray_cast_all(from, to, mask);
  if (all.empty()) return std::nullopt;
  return all.front();
}

std::vector<BodyId> World::create_tile_map(Vec2 origin, float tile_size, int rows, int cols,
                                           std::span<const int> tiles,
                                           std::span<const Material> materials) {
  if (!is_finite(origin)) throw Error("create_tile_map: origin is not finite");
  // Checked here, not by create_body: a tile rejected half-way would leave half a map behind.
  if (!std::isfinite(tile_size) || !(0.5f * tile_size >= limits::kMinSize) ||
      0.5f * tile_size > limits::kMaxSize)
    throw Error("create_tile_map: tile_size must be in [" + std::to_string(2 * limits::kMinSize) +
                ", " + std::to_string(2 * limits::kMaxSize) + "] m");
  if (rows <= 0 || cols <= 0) throw Error("create_tile_map: rows and cols must be positive");
  if (tiles.size() != std::size_t(rows) * std::size_t(cols))
    throw Error("create_tile_map: tiles has " + std::to_string(tiles.size()) +
                " entries, expected rows x cols = " + std::to_string(rows * cols));
  for (std::size_t i = 0; i < materials.size(); ++i)
    validate_material(materials[i],
                      ("create_tile_map: materials[" + std::to_string(i) + "]").c_str());
  for (std::size_t i = 0; i < tiles.size(); ++i)
    if (tiles[i] >= int(materials.size()))
      throw Error("create_tile_map: tiles[" + std::to_string(i) +
                  "] = " + std::to_string(tiles[i]) + " names no material (" +
                  std::to_string(materials.size()) + " given)");
  auto solid = [&](int r, int c) {
    return r >= 0 && r < rows && c >= 0 && c < cols && tiles[std::size_t(r) * cols + c] >= 0;
  };
  const Vec2 far_corner{origin.x + float(cols) * tile_size, origin.y - float(rows) * tile_size};
  for (const Vec2 corner : {origin, far_corner})
    if (std::fmax(std::fabs(corner.x), std::fabs(corner.y)) > limits::kMaxCoordinate)
      throw Error("create_tile_map: the map reaches beyond the coordinate limit of " +
                  std::to_string(limits::kMaxCoordinate) + " m (strut/limits.hpp)");
  std::vector<BodyId> out;
  const float half = 0.5f * tile_size;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      if (!solid(r, c)) continue;
      BodyDef def;
      def.shape = BoxShape{{half, half}};
      def.center = {origin.x + (float(c) + 0.5f) * tile_size,
                    origin.y - (float(r) + 0.5f) * tile_size};
      def.is_static = true;
      def.material = materials[std::size_t(tiles[std::size_t(r) * cols + c])];
      const BodyId id = create_body(def);
      // Box edges: 0 bottom, 1 right, 2 top, 3 left (counter-clockwise from the lower left).
      std::uint16_t internal = 0;
      if (solid(r + 1, c)) internal |= 1;
      if (solid(r, c + 1)) internal |= 2;
      if (solid(r - 1, c)) internal |= 4;
      if (solid(r, c - 1)) internal |= 8;
      impl_->bodies.internal_edges[impl_->dense_of(id, "create_tile_map")] = internal;
      out.push_back(id);
    }
  }
  return out;
}

}  // namespace strut
