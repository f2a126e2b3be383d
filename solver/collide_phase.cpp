// Collision runs once per step: body bounds fattened by each body's motion this step, candidate
// pairs from the broad phase, then feature-pair manifolds that the substeps re-evaluate.
#include "solver/collide_phase.hpp"

#include <algorithm>
#include <cmath>

#include "solver/bounds_kernel.hpp"
#include "solver/collide/manifold.hpp"
#include "solver/contacts/contact_solver.hpp"

namespace strut {

Aabb tight_box(const World::Impl& w, std::uint32_t k) {
  const auto& b = w.bodies;
  const auto& q = w.particles;
  float lx = 1e30f, ly = 1e30f, ux = -1e30f, uy = -1e30f;
  for (std::uint32_t i = b.particle_begin[k]; i < b.particle_begin[k] + b.particle_count[k]; ++i) {
    lx = std::min(lx, q.x[i]), ly = std::min(ly, q.y[i]);
    ux = std::max(ux, q.x[i]), uy = std::max(uy, q.y[i]);
  }
  const float r = b.radius[k];
  return Aabb{{lx - r, ly - r}, {ux + r, uy + r}};
}

void update_bounds(World::Impl& w, float dt) {
  auto& b = w.bodies;
  const auto& q = w.particles;
  const std::size_t n = b.size();
  w.motion.resize(n);
  w.reach.resize(n);
  w.extent.resize(n);
  const float h = w.last_h;
  const float g = length(w.config.gravity);
  w.tasks.parallel_for(int(n), 1024, [&](int lo, int hi, int) {
    for (std::size_t k = std::size_t(lo); k < std::size_t(hi); ++k) {
      const std::uint32_t p0 = b.particle_begin[k], pc = b.particle_count[k];
      b.aabb[k] = tight_box(w, std::uint32_t(k));
      w.extent[k] =
          std::max(b.aabb[k].upper.x - b.aabb[k].lower.x, b.aabb[k].upper.y - b.aabb[k].lower.y);
      const float r = b.radius[k];
      float reach = 0;  // farthest particle from the centre of mass
      for (std::uint32_t i = p0; i < p0 + pc; ++i)
        reach = std::max(reach, q.lx[i] * q.lx[i] + q.ly[i] * q.ly[i]);
      w.reach[k] = std::sqrt(reach) + r;
      float motion = 0;
      if (!(b.flags[k] & kStatic) && !(b.flags[k] & kSleeping)) {
        // Distance any point of the body can travel this step: linear + angular + gravity.
        if (w.is_rigid(k)) {
          const float vx = b.dx[k] / h, vy = b.dy[k] / h;
          const float omega = std::fabs(b.da[k]) / h;
          motion = (std::sqrt(vx * vx + vy * vy) + omega * (std::sqrt(reach) + r)) * dt;
        } else {
          float vmax = 0;
          for (std::uint32_t i = p0; i < p0 + pc; ++i) {
            const float vx = q.dx[i], vy = q.dy[i];
            vmax = std::max(vmax, vx * vx + vy * vy);
          }
          motion = std::sqrt(vmax) / h * dt;
        }
        motion += std::fabs(b.gravity_scale[k]) * g * dt * dt;
      }
      w.motion[k] = motion;
    }
  });
}

Aabb broadphase_box(const World::Impl& w, std::uint32_t k) {
  const float grow = 0.5f * w.config.contact_slop + w.motion[k];
  const Aabb& b = w.bodies.aabb[k];
  return Aabb{{b.lower.x - grow, b.lower.y - grow}, {b.upper.x + grow, b.upper.y + grow}};
}

namespace {

// Keeps the items i in [0, total) for which keep(i) holds, as out[...] = make(i), in order: fixed
// chunks count their survivors, then write them at their offsets (any thread count, same list).
template <class Keep, class Make, class Out>
void filter_in_order(World::Impl& w, int total, Keep keep, Make make, std::vector<Out>& out) {
  constexpr int kGrain = 4096;
  auto& kept = w.scratch.chunk_counts;
  kept.assign(std::size_t(TaskSystem::chunk_count(total, kGrain)) + 1, 0);
  w.tasks.parallel_for(total, kGrain, [&](int lo, int hi, int) {
    std::uint32_t count = 0;
    for (int i = lo; i < hi; ++i) count += keep(std::size_t(i));
    kept[std::size_t(lo / kGrain) + 1] = count;
  });
  for (std::size_t c = 1; c < kept.size(); ++c) kept[c] += kept[c - 1];
  out.resize(kept.back());
  w.tasks.parallel_for(total, kGrain, [&](int lo, int hi, int) {
    std::uint32_t at = kept[std::size_t(lo / kGrain)];
    for (int i = lo; i < hi; ++i)
      if (keep(std::size_t(i))) out[at++] = make(std::size_t(i));
  });
}

// How much a swept box is enlarged beyond the box the step needs: a tenth of the body's size, at
// most 10 cm (Box2D's margin). A resting body's box then stays inside its enlarged one for many
// steps and the sweep is skipped (below); a larger margin lists more pairs that the step filters
// out again.
constexpr float kEnlargeFraction = 0.1f, kEnlargeMax = 0.1f;

// Whether last sweep's pairs still hold every pair whose boxes overlap now: nothing changed in
// the broad phase (no proxy inserted, removed, re-filtered, put to sleep, woken or moved by
// set_box; no new ignored pairs), every body keeps its flags, and every awake moving body's box
// lies inside the enlarged box it was swept with.
bool enlarged_pairs_hold(World::Impl& w) {
  const auto& b = w.bodies;
  const auto& sc = w.scratch;
  const std::size_t n = b.size();
  if (w.broadphase.version() != w.enlarged_version || sc.enlarged_flags.size() != n) return false;
  constexpr int kGrain = 4096;
  auto& escaped = w.scratch.chunk_counts;
  escaped.assign(std::size_t(TaskSystem::chunk_count(int(n), kGrain)), 0);
  w.tasks.parallel_for(int(n), kGrain, [&](int lo, int hi, int) {
    std::uint32_t out = 0;
    for (std::size_t k = std::size_t(lo); k < std::size_t(hi); ++k) {
      out |= b.flags[k] != sc.enlarged_flags[k];
      if (b.flags[k] & (kStatic | kSleeping | kDead)) continue;
      out |= (sc.fat_lx[k] < sc.enlarged_lx[k]) | (sc.fat_ly[k] < sc.enlarged_ly[k]) |
             (sc.fat_ux[k] > sc.enlarged_ux[k]) | (sc.fat_uy[k] > sc.enlarged_uy[k]);
    }
    escaped[std::size_t(lo / kGrain)] = out;
  });
  return std::none_of(escaped.begin(), escaped.end(), [](std::uint32_t e) { return e != 0; });
}

// Sweeps the enlarged boxes of the awake moving bodies (static and sleeping proxies keep the
// boxes they were given) and keeps the pairs in dense indices, dropping pairs of two infinite
// masses (the broad phase knows layers, static, sleeping and jointed pairs; kinematic bodies
// only the world knows). The order is the broad phase's.
void sweep_enlarged(World::Impl& w) {
  const auto& b = w.bodies;
  auto& bp = w.broadphase;
  auto& sc = w.scratch;
  const std::size_t n = b.size();
  sc.enlarged_lx.resize(n), sc.enlarged_ly.resize(n), sc.enlarged_ux.resize(n);
  sc.enlarged_uy.resize(n), sc.enlarged_flags.resize(n);
  const std::span<float> lx = bp.min_x(), ly = bp.min_y(), ux = bp.max_x(), uy = bp.max_y();
  w.tasks.parallel_for(int(n), 4096, [&](int lo, int hi, int) {
    for (std::uint32_t k = std::uint32_t(lo); k < std::uint32_t(hi); ++k) {
      sc.enlarged_flags[k] = b.flags[k];
      const float m = std::min(kEnlargeFraction * w.extent[k], kEnlargeMax);
      sc.enlarged_lx[k] = sc.fat_lx[k] - m, sc.enlarged_ly[k] = sc.fat_ly[k] - m;
      sc.enlarged_ux[k] = sc.fat_ux[k] + m, sc.enlarged_uy[k] = sc.fat_uy[k] + m;
      if (b.flags[k] & (kStatic | kSleeping | kDead)) continue;
      const std::uint32_t s = b.slot[k];
      lx[s] = sc.enlarged_lx[k], ly[s] = sc.enlarged_ly[k];
      ux[s] = sc.enlarged_ux[k], uy[s] = sc.enlarged_uy[k];
    }
  });
  bp.find_pairs(w.broadphase_pairs, w.tasks);
  const auto& pairs = w.broadphase_pairs;
  filter_in_order(
      w, int(pairs.size()),
      [&](std::size_t i) {
        const std::uint8_t fi = b.flags[w.slots[pairs[i].a].dense];
        const std::uint8_t fj = b.flags[w.slots[pairs[i].b].dense];
        return !((fi & (kStatic | kKinematic)) && (fj & (kStatic | kKinematic)));
      },
      [&](std::size_t i) {
        return std::pair{w.slots[pairs[i].a].dense, w.slots[pairs[i].b].dense};
      },
      w.enlarged_pairs);
  w.enlarged_version = bp.version();
  ++w.enlarged_sweeps;
}

}  // namespace

// The broad phase updates only when something moved out of what it last swept: a settled
// pyramid sweeps once and then only checks boxes (Box2D's fat boxes do the same for its tree).
void find_candidate_pairs(World::Impl& w) {
  if (w.reference_pairs) {
    find_pairs_all(w, w.candidate_pairs);
    return;
  }
  const auto& b = w.bodies;
  auto& sc = w.scratch;
  const std::size_t n = b.size();
  // Fattened boxes of every body in one SIMD pass over SoA arrays: the boxes this step needs.
  sc.tight_lx.resize(n), sc.tight_ly.resize(n), sc.tight_ux.resize(n), sc.tight_uy.resize(n);
  sc.fat_lx.resize(n), sc.fat_ly.resize(n), sc.fat_ux.resize(n), sc.fat_uy.resize(n);
  const BoundsSpans spans{sc.tight_lx.data(), sc.tight_ly.data(), sc.tight_ux.data(),
                          sc.tight_uy.data(), w.motion.data(),    sc.fat_lx.data(),
                          sc.fat_ly.data(),   sc.fat_ux.data(),   sc.fat_uy.data()};
  w.tasks.parallel_for(int(n), 4096, [&](int lo, int hi, int) {
    for (std::size_t k = std::size_t(lo); k < std::size_t(hi); ++k) {
      const Aabb& box = b.aabb[k];
      sc.tight_lx[k] = box.lower.x, sc.tight_ly[k] = box.lower.y;
      sc.tight_ux[k] = box.upper.x, sc.tight_uy[k] = box.upper.y;
    }
    fatten_bounds_simd(spans, lo, hi, 0.5f * w.config.contact_slop);
  });
  if (!enlarged_pairs_hold(w)) sweep_enlarged(w);
  // The candidates: the enlarged pairs whose boxes overlap this step, so the narrow phase and the
  // continuous pass see the same pairs as a sweep of this step's boxes would give.
  const auto& pairs = w.enlarged_pairs;
  filter_in_order(
      w, int(pairs.size()),
      [&](std::size_t i) {
        const auto [a, c] = pairs[i];
        return !(sc.fat_lx[a] > sc.fat_ux[c] || sc.fat_lx[c] > sc.fat_ux[a] ||
                 sc.fat_ly[a] > sc.fat_uy[c] || sc.fat_ly[c] > sc.fat_uy[a]);
      },
      [&](std::size_t i) { return pairs[i]; }, w.candidate_pairs);
}

// All-pairs reference finder: the same filters as the sweep-and-prune broad phase; kept for
// tests and as the baseline of the broad-phase benchmark.
void find_pairs_all(World::Impl& w, std::vector<std::pair<std::uint32_t, std::uint32_t>>& out) {
  out.clear();
  const std::size_t n = w.bodies.size();
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint32_t j = i + 1; j < n; ++j) {
      if (!pair_may_collide(w, i, j)) continue;
      const Aabb a = broadphase_box(w, i), c = broadphase_box(w, j);
      if (a.lower.x > c.upper.x || c.lower.x > a.upper.x) continue;
      if (a.lower.y > c.upper.y || c.lower.y > a.upper.y) continue;
      out.emplace_back(i, j);
    }
  }
}

bool pair_may_collide(const World::Impl& w, std::uint32_t i, std::uint32_t j) {
  const auto& b = w.bodies;
  const std::uint8_t fi = b.flags[i], fj = b.flags[j];
  if ((fi | fj) & kDead) return false;
  // Two bodies of infinite mass have nothing to resolve; neither have two that are at rest.
  if ((fi & (kStatic | kKinematic)) && (fj & (kStatic | kKinematic))) return false;
  if ((fi & (kStatic | kSleeping)) && (fj & (kStatic | kSleeping))) return false;
  if ((b.category[i] & b.mask[j]) == 0 || (b.category[j] & b.mask[i]) == 0) return false;
  if (!w.ignored_pairs.empty()) {
    const std::uint64_t key = pair_key(b.slot[i], b.slot[j]);
    if (std::binary_search(w.ignored_pairs.begin(), w.ignored_pairs.end(), key)) return false;
  }
  return true;
}

static collide::ShapeView shape_view(const World::Impl& w, std::uint32_t k) {
  const auto& b = w.bodies;
  const std::uint32_t p0 = b.particle_begin[k];
  collide::ShapeView v;
  v.x = w.particles.x.data() + p0;
  v.y = w.particles.y.data() + p0;
  if (b.flags[k] & kCircle) {
    v.kind = collide::ColliderKind::Circle;
    v.count = 1;
    v.radius = b.radius[k];
  } else {
    v.kind = collide::ColliderKind::Polygon;
    v.count = b.hull_count[k];
    v.internal_edges = b.internal_edges[k];
  }
  return v;
}

// Materials combine by the usual rule: friction as the geometric mean (a frictionless surface
// makes the pair frictionless), restitution as the maximum (a ball bounces on any floor).
static void combine_materials(const World::Impl& w, std::uint32_t a, std::uint32_t c,
                              ContactPoint& cp) {
  const auto& b = w.bodies;
  cp.friction = std::sqrt(b.friction[a] * b.friction[c]);
  cp.static_friction = std::sqrt(b.static_friction[a] * b.static_friction[c]);
  cp.restitution = std::max(b.restitution[a], b.restitution[c]);
}

namespace {

Vec2 vertex_position(const World::Impl& w, std::uint32_t body, std::uint32_t v) {
  const std::uint32_t i = w.bodies.particle_begin[body] + v;
  return {w.particles.x[i], w.particles.y[i]};
}

float max_extent(const World::Impl& w, std::uint32_t k) { return w.extent[k]; }

// A fast pair: one of the two may move more than half the smaller one's size this step, so
// features the manifold did not pick can come into reach (extra points, no contact cache).
bool fast_pair(const World::Impl& w, std::uint32_t a, std::uint32_t c) {
  const float fast = 0.5f * std::min(max_extent(w, a), max_extent(w, c));
  return std::max(w.motion[a], w.motion[c]) > fast;
}

}  // namespace

// How far apart a pair's features may be and still get a (speculative) contact point: the
// distance the two can close this step, plus the slop. Between two dynamic bodies (not bullets)
// at most the smaller one's size: a body flung at 90 m/s (the spinner's bar tip moves at
// 100 m/s) had a 1.5 m reach, 120 pairs and spilled thousands of constraints into the serial
// overflow colour. Box2D's reach is 2 cm at any speed; against fixed bodies the full motion
// stays (with the continuous pass, that is what keeps fast bodies out of walls).
float pair_margin(const World::Impl& w, std::uint32_t a, std::uint32_t c) {
  const auto& b = w.bodies;
  float reach = w.motion[a] + w.motion[c];
  const bool dynamic = b.inv_mass[a] > 0 && b.inv_mass[c] > 0;
  if (dynamic && !((b.flags[a] | b.flags[c]) & kBullet))
    reach = std::min(reach, std::min(max_extent(w, a), max_extent(w, c)));
  return reach + w.config.contact_slop;
}

namespace {

// A body that moves more than half its size in a step can turn a corner that the manifold did
// not pick into the surface (a box spinning at 20 rad/s and flying at 200 m/s went through a
// 10 cm wall at one substep). For such pairs every vertex of the other body within the margin
// of a manifold edge's line gets a speculative point against that edge.
std::size_t add_fast_points(const World::Impl& w, float margin, ContactPoint* out,
                            std::size_t count) {
  const std::size_t base = count;
  for (std::size_t p = 0; p < base; ++p) {
    if (out[p].kind != ContactKind::VertexEdge) continue;
    const std::uint32_t edge_body = out[p].body_o, edge = out[p].other;
    const std::uint32_t other_body = out[p].body_v;
    bool seen = false;  // one pass per distinct edge
    for (std::size_t q = 0; q < p; ++q)
      seen = seen || (out[q].kind == ContactKind::VertexEdge && out[q].body_o == edge_body &&
                      out[q].other == edge);
    if (seen) continue;
    const std::uint32_t n = w.bodies.hull_count[edge_body];
    const Vec2 e1 = vertex_position(w, edge_body, edge);
    const Vec2 e2 = vertex_position(w, edge_body, (edge + 1) % n);
    const Vec2 d = e2 - e1;
    const float len = length(d);
    if (len <= 0) continue;
    const Vec2 normal = (1.0f / len) * Vec2{d.y, -d.x};
    const std::uint32_t vertices = std::max<std::uint32_t>(1, w.bodies.hull_count[other_body]);
    for (std::uint32_t v = 0; v < vertices; ++v) {
      bool present = false;
      for (std::size_t q = 0; q < count; ++q)
        present = present || (out[q].body_v == other_body && out[q].vertex == v &&
                              out[q].kind == ContactKind::VertexEdge && out[q].other == edge);
      if (present) continue;
      const float sep = dot(normal, vertex_position(w, other_body, v) - e1) - out[p].radius;
      if (sep >= margin) continue;
      ContactPoint cp = out[p];
      cp.separation = sep;
      cp.vertex = static_cast<std::uint8_t>(v);
      cp.lambda_n = cp.lambda_t = 0;
      cp.feature = (cp.feature & ~0xFF00u) | (v << 8);
      out[count++] = cp;
    }
  }
  return count;
}

}  // namespace

std::size_t collide_pair(const World::Impl& w, std::uint32_t a, std::uint32_t c, ContactPoint* out,
                         float extra_margin) {
  const auto& b = w.bodies;
  const float margin = pair_margin(w, a, c) + extra_margin;
  const collide::Manifold m = collide::collide(shape_view(w, a), shape_view(w, c), margin);
  for (int i = 0; i < m.count; ++i) {
    const collide::ContactFeature& f = m.points[i];
    ContactPoint& cp = out[i];
    cp = ContactPoint{};
    cp.body_v = f.vertex_on_a ? a : c;
    cp.body_o = f.vertex_on_a ? c : a;
    cp.kind = f.kind == collide::FeatureKind::VertexEdge ? ContactKind::VertexEdge
                                                         : ContactKind::VertexVertex;
    cp.vertex = f.vertex;
    cp.other = f.other;
    cp.radius =
        b.radius[cp.body_v] + (cp.kind == ContactKind::VertexVertex ? b.radius[cp.body_o] : 0.0f);
    // f.normal points from A to B; ours from the other feature towards the vertex.
    cp.fallback_normal = f.vertex_on_a ? -f.normal : f.normal;
    cp.separation = f.separation;
    // Which body owns the vertex is told by slot order, which (unlike dense order) survives
    // compaction.
    const bool vertex_on_lower = b.slot[cp.body_v] < b.slot[cp.body_o];
    cp.feature = (std::uint32_t(vertex_on_lower) << 17) | (std::uint32_t(cp.kind) << 16) |
                 (std::uint32_t(cp.vertex) << 8) | cp.other;
    combine_materials(w, a, c, cp);
  }
  std::size_t count = static_cast<std::size_t>(m.count);
  // Against what does not move (walls, floors, kinematic bodies) or for bullets only, as the
  // continuous pass: between two dynamic bodies the extra points bought little and cost much
  // (after the smash's impact most of its 40,000 pairs were fast, with four points each).
  const bool fixed = b.inv_mass[a] == 0 || b.inv_mass[c] == 0;
  const bool bullet = ((b.flags[a] | b.flags[c]) & kBullet) != 0;
  if (count > 0 && (fixed || bullet) && fast_pair(w, a, c))
    count = add_fast_points(w, margin, out, count);
  return count;
}

namespace {

// Last step's pairs grouped by their lower body slot (a counting sort), keys stored beside
// their indices: a lookup reads one per-body offset and scans that body's few pairs. A hash
// table over all pairs cost a cache miss per lookup, 8% of a pyramid step.
void index_previous(ContactSet& set, std::size_t slot_count) {
  auto& first = set.old_body_first;
  first.assign(slot_count + 1, 0);
  for (const std::uint64_t key : set.old_pair_keys) ++first[std::size_t(key >> 32) + 1];
  for (std::size_t i = 0; i < slot_count; ++i) first[i + 1] += first[i];
  set.old_by_body_key.resize(set.old_pair_keys.size());
  set.old_by_body_index.resize(set.old_pair_keys.size());
  auto& cursor = set.old_body_cursor;
  cursor.assign(first.begin(), first.end() - 1);
  for (std::uint32_t i = 0; i < set.old_pair_keys.size(); ++i) {
    const std::uint64_t key = set.old_pair_keys[i];
    const std::uint32_t at = cursor[std::size_t(key >> 32)]++;
    set.old_by_body_key[at] = key;
    set.old_by_body_index[at] = i;
  }
}

std::uint32_t find_previous(const ContactSet& set, std::uint64_t key) {
  const std::size_t a = std::size_t(key >> 32);
  if (a + 1 >= set.old_body_first.size()) return ~0u;  // a slot created this step
  for (std::uint32_t i = set.old_body_first[a]; i < set.old_body_first[a + 1]; ++i)
    if (set.old_by_body_key[i] == key) return set.old_by_body_index[i];
  return ~0u;
}

// The contact cache. The solver re-derives normals, anchors and separations from a point's
// features (vertex, edge) at the current poses, so SAT and clipping are only needed to choose
// the features. Two polygons that have barely moved relative to each other keep them: if the
// manifold was found with margin M0 and, since then, no point of one body has moved more than d
// relative to the other, every feature pair missing from it is still more than M0 - d apart; as
// long as d + M <= M0 (M this step's margin) nothing within reach this step is missing. Full
// collisions use an extra margin of one contact slop so a resting pair can keep its features for
// many steps (in a settled pyramid nearly every pair does). Soft, circle and fast pairs
// (fast-pair points come from the motion) always collide afresh.
// Separation of a reused point at the current poses, for the touching flag: evaluate_contact's
// separation for the only points the cache reuses (rigid polygons), read from the particles.
// Calling evaluate_contact itself cost 10% more CPU time per pyramid step.
// body_v, body_o: the point's bodies on this step's dense indices (see rebind).
float feature_separation(const World::Impl& w, const ContactPoint& cp, std::uint32_t body_v,
                         std::uint32_t body_o) {
  const Vec2 v = vertex_position(w, body_v, cp.vertex);
  const Vec2 e1 = vertex_position(w, body_o, cp.other);
  if (cp.kind == ContactKind::VertexVertex) return length(v - e1) - cp.radius;
  const std::uint32_t n = w.bodies.hull_count[body_o];
  const Vec2 d = vertex_position(w, body_o, cp.other + 1u == n ? 0u : cp.other + 1u) - e1;
  const float len = length(d);
  // The edge's outward normal (d.y, -d.x) / len, as evaluate_contact takes it.
  const Vec2 normal = len > 0 ? (1.0f / len) * Vec2{d.y, -d.x} : cp.fallback_normal;
  return dot(normal, v - e1) - cp.radius;
}

// A reused point on this step's dense body indices: its feature says whether the vertex is on
// the body of the lower slot (slots, unlike dense indices, survive compaction).
void rebind(ContactPoint& cp, std::uint32_t lower, std::uint32_t higher) {
  const bool vertex_on_lower = (cp.feature >> 17) & 1u;
  cp.body_v = vertex_on_lower ? lower : higher;
  cp.body_o = vertex_on_lower ? higher : lower;
}

bool cacheable(const World::Impl& w, std::uint32_t a, std::uint32_t c) {
  if (!w.config.contact_cache) return false;
  const auto& b = w.bodies;
  if ((b.flags[a] | b.flags[c]) & (kSoft | kCircle)) return false;
  return !fast_pair(w, a, c);
}

PairCache relative_pose(const World::Impl& w, std::uint32_t lower, std::uint32_t higher) {
  const auto& b = w.bodies;
  const Rot q{b.qc[lower], b.qs[lower]};
  const Vec2 p = inv_rotate(q, Vec2{b.px[higher] - b.px[lower], b.py[higher] - b.py[lower]});
  PairCache r;
  r.x = p.x, r.y = p.y;
  r.c = q.c * b.qc[higher] + q.s * b.qs[higher];
  r.s = q.c * b.qs[higher] - q.s * b.qc[higher];
  return r;
}

// Largest relative displacement of any point of `higher` since the cache was made.
float drift(const PairCache& then, const PairCache& now, float reach) {
  const float sin_turn = std::fabs(now.s * then.c - now.c * then.s);
  const float cos_turn = now.c * then.c + now.s * then.s;
  if (cos_turn <= 0.5f) return 1e30f;
  // asin(x) <= x (1 + x^2) for x <= 0.5: a bound on the angle turned.
  const float turn = sin_turn * (1.0f + sin_turn * sin_turn);
  return std::sqrt((now.x - then.x) * (now.x - then.x) + (now.y - then.y) * (now.y - then.y)) +
         turn * reach;
}

}  // namespace

namespace {

// Room in a chunk's buffers for `rows` pairs and their reused points (kMaxPointsPerPair at most
// each).
void reserve_rows(NarrowChunk& out, std::size_t rows) {
  if (out.keys.size() >= rows) return;
  out.separations.resize(rows * kMaxPointsPerPair), out.reused_pair.resize(rows);
  out.keys.resize(rows), out.touching.resize(rows), out.counts.resize(rows);
  out.previous.resize(rows), out.caches.resize(rows);
}

}  // namespace

// Pairs are split into fixed chunks; each chunk collides its pairs into its own buffers and the
// buffers are concatenated in chunk order, so the contact list is the same for any thread count.
void narrow_phase(World::Impl& w) {
  auto& set = w.contacts;
  std::swap(set.points, set.old_points);
  std::swap(set.pair_keys, set.old_pair_keys);
  std::swap(set.pair_begin, set.old_pair_begin);
  std::swap(set.pair_touching, set.old_pair_touching);
  std::swap(set.pair_cache, set.old_pair_cache);
  index_previous(set, w.slots.size());
  constexpr int kGrain = 256;
  const int pairs = int(w.candidate_pairs.size());
  auto& chunks = w.scratch.narrow_chunks;
  chunks.resize(std::size_t(TaskSystem::chunk_count(pairs, kGrain)));
  w.tasks.parallel_for(pairs, kGrain, [&](int lo, int hi, int) {
    NarrowChunk& out = chunks[std::size_t(lo / kGrain)];
    // Per-pair rows written by index into buffers that only grow (a push_back per row and
    // field was a fifth of the narrow phase); `pairs` and `reused_points` count what is valid.
    reserve_rows(out, std::size_t(hi - lo));
    out.points.clear();
    out.pairs = 0, out.reused_points = 0, out.point_count = 0;
    ContactPoint buffer[kMaxPointsPerPair];
    for (int p = lo; p < hi; ++p) {
      const auto [a, c] = w.candidate_pairs[std::size_t(p)];
      const auto& b = w.bodies;
      const std::uint64_t key = pair_key(b.slot[a], b.slot[c]);
      const std::uint32_t old = find_previous(set, key);
      const std::uint32_t lower = b.slot[a] < b.slot[c] ? a : c, higher = lower == a ? c : a;
      const float slop = w.config.contact_slop;
      PairCache cache;
      std::size_t count = 0;
      bool reused = false;
      std::uint8_t touching = 0;  // touching now (not only speculatively): links islands
      if (cacheable(w, a, c)) {
        cache = relative_pose(w, lower, higher);
        const float margin = pair_margin(w, a, c);
        if (old != ~0u && set.old_pair_cache[old].margin >= 0 &&
            drift(set.old_pair_cache[old], cache, w.reach[higher]) + margin <=
                set.old_pair_cache[old].margin) {
          // Last step's points keep their features and impulses; the merge copies them straight
          // from last step's list. Here only their separations, for the touching flag.
          for (std::uint32_t k = set.old_pair_begin[old]; k < set.old_pair_begin[old + 1]; ++k) {
            const ContactPoint& cp = set.old_points[k];
            const bool vertex_on_lower = (cp.feature >> 17) & 1u;
            const float separation = feature_separation(w, cp, vertex_on_lower ? lower : higher,
                                                        vertex_on_lower ? higher : lower);
            out.separations[out.reused_points++] = separation;
            touching |= separation <= slop;
            ++count;
          }
          cache = set.old_pair_cache[old];  // drift counts from when the features were chosen
          reused = true;
        } else {
          count = collide_pair(w, a, c, buffer, slop);
          cache.margin = margin + slop;
        }
      } else {
        count = collide_pair(w, a, c, buffer, 0.0f);
      }
      if (count == 0) continue;
      // Fresh points: impulses of the same features last step (warm start), and touching.
      if (!reused)
        for (std::size_t i = 0; i < count; ++i) {
          if (old != ~0u) {
            for (std::uint32_t k = set.old_pair_begin[old]; k < set.old_pair_begin[old + 1]; ++k) {
              const ContactPoint& prev = set.old_points[k];
              if (prev.feature != buffer[i].feature) continue;
              buffer[i].lambda_n = prev.lambda_n, buffer[i].lambda_t = prev.lambda_t;
              buffer[i].sliding = prev.sliding;
              break;
            }
          }
          touching |= buffer[i].separation <= slop;
        }
      const std::size_t row = out.pairs++;
      out.keys[row] = key;
      out.touching[row] = touching;
      out.counts[row] = std::uint32_t(count);
      out.previous[row] = old;
      out.caches[row] = cache;
      out.reused_pair[row] = reused;
      out.point_count += count;
      if (!reused) out.points.insert(out.points.end(), buffer, buffer + count);
    }
  });
  // Merge in chunk order: offsets first, then every chunk copies itself in parallel.
  std::size_t pair_total = 0, point_total = 0;
  for (NarrowChunk& chunk : chunks) {
    chunk.first_pair = pair_total, chunk.first_point = point_total;
    pair_total += chunk.pairs, point_total += chunk.point_count;
  }
  set.points.resize(point_total);
  set.pair_keys.resize(pair_total);
  set.pair_touching.resize(pair_total);
  set.pair_previous.resize(pair_total);
  set.pair_cache.resize(pair_total);
  w.cached_pairs = 0;
  for (const NarrowChunk& chunk : chunks)
    w.cached_pairs += std::size_t(std::count(
        chunk.reused_pair.begin(), chunk.reused_pair.begin() + std::ptrdiff_t(chunk.pairs), 1));
  set.pair_begin.resize(pair_total + 1);
  set.pair_begin[pair_total] = std::uint32_t(point_total);
  w.tasks.parallel_for(int(chunks.size()), 1, [&](int lo, int hi, int) {
    for (int ci = lo; ci < hi; ++ci) {
      const NarrowChunk& chunk = chunks[std::size_t(ci)];
      std::size_t point = chunk.first_point, fresh = 0, reused = 0;
      for (std::size_t k = 0; k < chunk.pairs; ++k) {
        const std::size_t pair = chunk.first_pair + k;
        const std::uint64_t key = chunk.keys[k];
        set.pair_keys[pair] = key;
        set.pair_touching[pair] = chunk.touching[k];
        set.pair_previous[pair] = chunk.previous[k];
        set.pair_cache[pair] = chunk.caches[k];
        set.pair_begin[pair] = std::uint32_t(point);
        if (chunk.reused_pair[k]) {
          // Last step's points on this step's dense indices (the key holds the slots, lower
          // first), with the separations found above.
          const std::uint32_t lower = w.slots[std::uint32_t(key >> 32)].dense;
          const std::uint32_t higher = w.slots[std::uint32_t(key)].dense;
          const ContactPoint* from = &set.old_points[set.old_pair_begin[chunk.previous[k]]];
          for (std::uint32_t i = 0; i < chunk.counts[k]; ++i, ++point) {
            ContactPoint& cp = set.points[point];
            cp = from[i];
            rebind(cp, lower, higher);
            cp.separation = chunk.separations[reused++];
          }
          continue;
        }
        for (std::uint32_t i = 0; i < chunk.counts[k]; ++i, ++point)
          set.points[point] = chunk.points[fresh++];
      }
    }
  });
}

}  // namespace strut
