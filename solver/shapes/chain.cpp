// Chains: a polyline of static terrain, open or closed. Each link becomes its own collider (a
// two-sided segment) carrying the points on either side of it as ghosts, which is what lets the
// narrow phase tell a contact at a link's end from one that belongs to the next link.
#include <string>

#include "solver/shapes/shape_checks.hpp"
#include "solver/shapes/shape_kinds.hpp"
#include "strut/error.hpp"
#include "strut/limits.hpp"

namespace strut::shapes {

void validate_chain(const ChainShape& s, const std::string& prefix) {
  const int n = static_cast<int>(s.points.size());
  const int least = s.loop ? 3 : 2;
  if (n < least)
    throw Error(prefix + "points: a" + (s.loop ? " looped" : "n open") + " chain needs at least " +
                std::to_string(least) + " points, got " + std::to_string(n));
  if (n > kMaxChainPoints)
    throw Error(prefix + "points: a chain has at most " + std::to_string(kMaxChainPoints) +
                " points, got " + std::to_string(n));
  for (int i = 0; i < n; ++i) {
    const std::string field = prefix + "points[" + std::to_string(i) + "]";
    check_extent(s.points[i], field);
    if (i == 0 && !s.loop) continue;
    const Vec2 before = s.points[i == 0 ? n - 1 : i - 1];
    const float gap = length(s.points[i] - before);
    if (gap == 0.0f) throw Error(field + ": equal to its neighbour");
    if (!(gap >= limits::kMinSize))
      throw Error(field + ": " + number_text(gap) + " m from its neighbour, closer than " +
                  number_text(limits::kMinSize) + " m (strut/limits.hpp)");
  }
}

void chain_colliders(const ChainShape& s, const Placement& at, std::vector<LocalCollider>& out) {
  const int n = static_cast<int>(s.points.size());
  const int links = s.loop ? n : n - 1;
  auto point = [&](int i) { return at.apply(s.points[(i + n) % n]); };
  out.reserve(out.size() + links);
  for (int i = 0; i < links; ++i) {
    LocalCollider c;
    c.kind = collide::ColliderKind::ChainSegment;
    c.count = 2;
    c.radius = 0.0f;
    c.vertices[0] = point(i);
    c.vertices[1] = point(i + 1);
    c.has_prev = s.loop || i > 0;
    c.has_next = s.loop || i + 2 < n;
    if (c.has_prev) c.ghost_prev = point(i - 1);
    if (c.has_next) c.ghost_next = point(i + 2);
    out.push_back(c);
  }
}

}  // namespace strut::shapes
