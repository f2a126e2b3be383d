#include "tools/scene/scene_concave.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <utility>

namespace strut::scene_write {
namespace {

std::uint64_t key_of(Vec2 v) {
  std::uint32_t x, y;
  std::memcpy(&x, &v.x, 4);
  std::memcpy(&y, &v.y, 4);
  return (std::uint64_t(x) << 32) | y;
}

bool same_bits(Vec2 a, Vec2 b) { return key_of(a) == key_of(b); }

bool sharp_polygon(const ShapeDef& s) {
  const auto* p = std::get_if<PolygonShape>(&s.shape);
  return p && p->radius == 0;
}

// Everything but the geometry that a concave_polygon item gives all of its pieces (the whole
// material, mixing rules included, and the contact callbacks' flags).
bool dressed_alike(const ShapeDef& a, const ShapeDef& b) {
  return same_bits(a.offset, b.offset) && a.angle == b.angle && a.material == b.material &&
         a.filter.category == b.filter.category && a.filter.mask == b.filter.mask &&
         a.filter.group == b.filter.group && a.sensor == b.sensor &&
         a.tangent_speed == b.tangent_speed && a.rolling_resistance == b.rolling_resistance &&
         a.custom_filter == b.custom_filter && a.pre_solve == b.pre_solve;
}

// The outline of shapes[first, last) when they are decompose_polygon's pieces of one.
std::optional<std::vector<Vec2>> outline_of(const std::vector<ShapeDef>& shapes, std::size_t first,
                                            std::size_t last) {
  // Pieces that tile an outline share every inner edge with one neighbour, running the other
  // way; the edges left over are the outline's, each point starting exactly one of them.
  std::map<std::pair<std::uint64_t, std::uint64_t>, int> edges;  // directed edge: how many
  for (std::size_t i = first; i < last; ++i) {
    const std::vector<Vec2>& v = std::get<PolygonShape>(shapes[i].shape).vertices;
    for (std::size_t k = 0; k < v.size(); ++k)
      if (++edges[{key_of(v[k]), key_of(v[(k + 1) % v.size()])}] > 1) return std::nullopt;
  }
  std::map<std::uint64_t, std::uint64_t> next;  // outline edges, start -> end
  for (const auto& [edge, count] : edges)
    if (!edges.contains({edge.second, edge.first}) && !next.emplace(edge.first, edge.second).second)
      return std::nullopt;
  if (next.size() < 3) return std::nullopt;
  auto point = [](std::uint64_t key) {
    const std::uint32_t x = std::uint32_t(key >> 32), y = std::uint32_t(key);
    Vec2 v;
    std::memcpy(&v.x, &x, 4);
    std::memcpy(&v.y, &y, 4);
    return v;
  };
  std::vector<Vec2> outline;
  std::uint64_t at = next.begin()->first;
  do {
    outline.push_back(point(at));
    const auto it = next.find(at);
    if (it == next.end() || outline.size() > next.size()) return std::nullopt;
    at = it->second;
  } while (at != next.begin()->first);
  if (outline.size() != next.size()) return std::nullopt;  // more than one loop
  std::rotate(
      outline.begin(),
      std::min_element(outline.begin(), outline.end(),
                       [](Vec2 a, Vec2 b) { return a.y < b.y || (a.y == b.y && a.x < b.x); }),
      outline.end());
  std::vector<PolygonShape> pieces;
  try {
    pieces = decompose_polygon(outline);
  } catch (const Error&) {
    return std::nullopt;
  }
  if (pieces.size() != last - first) return std::nullopt;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const std::vector<Vec2>& have = std::get<PolygonShape>(shapes[first + i].shape).vertices;
    if (!std::equal(have.begin(), have.end(), pieces[i].vertices.begin(), pieces[i].vertices.end(),
                    same_bits))
      return std::nullopt;
  }
  return outline;
}

}  // namespace

std::vector<ConcaveRun> concave_runs(const std::vector<ShapeDef>& shapes) {
  std::vector<ConcaveRun> runs;
  for (std::size_t i = 0; i < shapes.size();) {
    // Candidates: shapes[i, end), at most as many as an outline of kMaxConcaveVertices makes.
    std::size_t end = i;
    while (end < shapes.size() && end - i < std::size_t(kMaxConcaveVertices - 2) &&
           sharp_polygon(shapes[end]) && dressed_alike(shapes[i], shapes[end]))
      ++end;
    // Only a union of pieces that is one disc (points - edges + pieces = 1) is worth tracing;
    // the counts are kept for shapes[i, last) as `last` comes down from `end`.
    std::map<std::uint64_t, int> points;
    std::map<std::pair<std::uint64_t, std::uint64_t>, int> edges;  // undirected
    auto count = [&](std::size_t k, int add) {
      const std::vector<Vec2>& v = std::get<PolygonShape>(shapes[k].shape).vertices;
      for (std::size_t e = 0; e < v.size(); ++e) {
        const std::uint64_t a = key_of(v[e]), b = key_of(v[(e + 1) % v.size()]);
        if ((points[a] += add) == 0) points.erase(a);
        const auto edge = std::minmax(a, b);
        if ((edges[edge] += add) == 0) edges.erase(edge);
      }
    };
    for (std::size_t k = i; k < end; ++k) count(k, 1);
    bool found = false;
    for (std::size_t last = end; last >= i + 2; --last) {
      const std::ptrdiff_t euler =
          std::ptrdiff_t(points.size()) - std::ptrdiff_t(edges.size()) + std::ptrdiff_t(last - i);
      if (euler == 1) {
        if (auto outline = outline_of(shapes, i, last)) {
          runs.push_back({i, last - i, std::move(*outline)});
          i = last;
          found = true;
          break;
        }
      }
      count(last - 1, -1);
    }
    if (!found) ++i;
  }
  return runs;
}

}  // namespace strut::scene_write
