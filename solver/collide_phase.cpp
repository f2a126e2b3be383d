// Collision runs once per step: body bounds swept along each body's motion this step, candidate
// pairs from the broad phase, then feature-pair manifolds that the substeps re-evaluate.
#include "solver/collide_phase.hpp"

#include <algorithm>
#include <cmath>

#include "solver/bounds_kernel.hpp"
#include "solver/collide/manifold.hpp"
#include "solver/contacts/contact_solver.hpp"
#include "solver/step/visited_bodies.hpp"

namespace strut {

float local_reach(const World::Impl& w, std::uint32_t k) {
  const auto& b = w.bodies;
  const auto& c = w.colliders;
  const auto& q = w.particles;
  float reach = 0;
  for (std::uint32_t i = b.collider_begin[k]; i < b.collider_begin[k] + b.collider_count[k]; ++i) {
    const std::uint32_t v0 = b.particle_begin[k] + c.vertex_begin[i];
    float r2 = 0;
    for (std::uint32_t v = v0; v < v0 + c.count[i]; ++v)
      r2 = std::max(r2, q.lx[v] * q.lx[v] + q.ly[v] * q.ly[v]);
    reach = std::max(reach, std::sqrt(r2) + c.radius[i]);
  }
  return reach;
}

Aabb collider_tight_box(const World::Impl& w, std::uint32_t i) {
  const auto& c = w.colliders;
  const auto& q = w.particles;
  const std::uint32_t p0 = w.bodies.particle_begin[c.body[i]] + c.vertex_begin[i];
  float lx = q.x[p0], ly = q.y[p0], ux = q.x[p0], uy = q.y[p0];
  for (std::uint32_t v = p0 + 1; v < p0 + c.count[i]; ++v) {
    lx = std::min(lx, q.x[v]), ly = std::min(ly, q.y[v]);
    ux = std::max(ux, q.x[v]), uy = std::max(uy, q.y[v]);
  }
  const float r = c.radius[i];
  return Aabb{{lx - r, ly - r}, {ux + r, uy + r}};
}

void update_tight_boxes(World::Impl& w, std::uint32_t k) {
  auto& b = w.bodies;
  auto& c = w.colliders;
  Aabb box{{1e30f, 1e30f}, {-1e30f, -1e30f}};
  for (std::uint32_t i = b.collider_begin[k]; i < b.collider_begin[k] + b.collider_count[k]; ++i) {
    c.aabb[i] = collider_tight_box(w, i);
    box.lower = {std::min(box.lower.x, c.aabb[i].lower.x),
                 std::min(box.lower.y, c.aabb[i].lower.y)};
    box.upper = {std::max(box.upper.x, c.aabb[i].upper.x),
                 std::max(box.upper.y, c.aabb[i].upper.y)};
  }
  b.aabb[k] = box;
}

void update_bounds(World::Impl& w, float dt) {
  auto& b = w.bodies;
  const auto& q = w.particles;
  const std::size_t n = b.size();
  w.motion.resize(n);
  w.sweep_x.resize(n), w.sweep_y.resize(n), w.spread.resize(n);
  w.reach.resize(n);
  w.extent.resize(n);
  const float h = w.last_h;
  const float g = length(w.config.gravity);
  // The bodies this step visits: the others are idle and keep last visit's values.
  parallel_for_runs(w, w.scratch.body_runs, [&](int lo, int hi) {
    for (std::size_t k = std::size_t(lo); k < std::size_t(hi); ++k) {
      const std::uint32_t p0 = b.particle_begin[k], pc = b.particle_count[k];
      // A static or sleeping body's boxes change only when it is moved (refresh_body_boxes).
      if (!(b.flags[k] & (kStatic | kSleeping)) || b.aabb[k].lower.x > b.aabb[k].upper.x)
        update_tight_boxes(w, std::uint32_t(k));
      w.extent[k] =
          std::max(b.aabb[k].upper.x - b.aabb[k].lower.x, b.aabb[k].upper.y - b.aabb[k].lower.y);
      float motion = 0, sweep_x = 0, sweep_y = 0, spread = 0;
      if (!(b.flags[k] & kStatic) && !(b.flags[k] & kSleeping)) {
        const float reach = b.reach[k];
        w.reach[k] = reach;
        // Distance any point of the body can travel this step: linear + angular + gravity. The
        // linear part has a direction (the sweep); the rest may go any way (the spread).
        const float fall = std::fabs(b.gravity_scale[k]) * g * dt * dt;
        if (w.is_rigid(k)) {
          const float vx = b.dx[k] / h, vy = b.dy[k] / h;
          const float omega = std::fabs(b.da[k]) / h;
          motion = (std::sqrt(vx * vx + vy * vy) + omega * reach) * dt;
          sweep_x = vx * dt, sweep_y = vy * dt;
          spread = omega * reach * dt + fall;
        } else {
          float vmax = 0;
          for (std::uint32_t i = p0; i < p0 + pc; ++i) {
            const float vx = q.dx[i], vy = q.dy[i];
            vmax = std::max(vmax, vx * vx + vy * vy);
          }
          motion = std::sqrt(vmax) / h * dt;
          spread = motion + fall;
        }
        motion += fall;
      } else {
        w.reach[k] = 0.5f * length(b.aabb[k].upper - b.aabb[k].lower);
      }
      w.motion[k] = motion;
      w.sweep_x[k] = sweep_x, w.sweep_y[k] = sweep_y, w.spread[k] = spread;
    }
  });
}

// The bounds kernel's box (bounds_kernel.hpp: sweep_box).
Aabb collider_broadphase_box(const World::Impl& w, std::uint32_t i) {
  const std::uint32_t k = w.colliders.body[i];
  const bool swept = k < w.spread.size();
  const Aabb& b = w.colliders.aabb[i];
  float box[4] = {b.lower.x, b.lower.y, b.upper.x, b.upper.y};
  sweep_box(box, swept ? w.sweep_x[k] : 0.0f, swept ? w.sweep_y[k] : 0.0f,
            swept ? w.spread[k] : 0.0f, 0.5f * w.config.contact_slop);
  return Aabb{{box[0], box[1]}, {box[2], box[3]}};
}

void refresh_body_boxes(World::Impl& w, std::uint32_t k) {
  const auto& b = w.bodies;
  update_tight_boxes(w, k);
  for (std::uint32_t i = b.collider_begin[k]; i < b.collider_begin[k] + b.collider_count[k]; ++i)
    w.broadphase.set_box(w.colliders.slot[i], collider_broadphase_box(w, i));
}

void set_body_sleeping(World::Impl& w, std::uint32_t k, bool sleeping) {
  const auto& b = w.bodies;
  for (std::uint32_t i = b.collider_begin[k]; i < b.collider_begin[k] + b.collider_count[k]; ++i)
    w.broadphase.set_sleeping(w.colliders.slot[i], sleeping);
}

std::uint32_t broadphase_mask(const World::Impl& w, std::uint32_t i) {
  return w.colliders.group[i] > 0 ? 0xFFFFFFFFu : w.colliders.mask[i];
}

void reinsert_body(World::Impl& w, std::uint32_t k) {
  const auto& b = w.bodies;
  const auto& c = w.colliders;
  const bool is_static = (b.flags[k] & kStatic) != 0;
  update_tight_boxes(w, k);
  for (std::uint32_t i = b.collider_begin[k]; i < b.collider_begin[k] + b.collider_count[k]; ++i) {
    w.broadphase.remove(c.slot[i]);
    w.broadphase.insert(c.slot[i], collider_broadphase_box(w, i), c.category[i],
                        broadphase_mask(w, i), is_static);
    if (b.flags[k] & kSleeping) w.broadphase.set_sleeping(c.slot[i], true);
  }
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

// How much a swept box is enlarged beyond the box the step needs: a tenth of the collider's size,
// at most 10 cm (Box2D's margin). A resting body's box then stays inside its enlarged one for
// many steps and the sweep is skipped (below); a larger margin lists more pairs that the step
// filters out again.
constexpr float kEnlargeFraction = 0.1f, kEnlargeMax = 0.1f;

// Whether last sweep's pairs still hold every pair whose boxes overlap now: nothing changed in
// the broad phase (no proxy inserted, removed, re-filtered, put to sleep, woken or moved by
// set_box; no new ignored pairs), every collider's body keeps its flags, and every awake moving
// collider's box lies inside the enlarged box it was swept with.
bool enlarged_pairs_hold(World::Impl& w) {
  const auto& b = w.bodies;
  const auto& c = w.colliders;
  const auto& sc = w.scratch;
  const std::size_t n = c.size();
  if (w.broadphase.version() != w.enlarged_version || sc.enlarged_flags.size() != n) return false;
  constexpr int kGrain = 4096;
  auto& escaped = w.scratch.chunk_counts;
  escaped.assign(std::size_t(TaskSystem::chunk_count(int(n), kGrain)), 0);
  // The colliders of the bodies this step visits: an unvisited body is idle and unchanged since
  // its last visit, whose step swept (its flags or its broad-phase box had changed).
  w.tasks.parallel_for(int(n), kGrain, [&](int lo, int hi, int) {
    std::uint32_t out = 0;
    for_runs_in(sc.collider_runs, lo, hi, [&](int first, int last) {
      for (std::size_t i = std::size_t(first); i < std::size_t(last); ++i) {
        const std::uint8_t flags = b.flags[c.body[i]];
        out |= flags != sc.enlarged_flags[i];
        if (flags & (kStatic | kSleeping | kDead)) continue;
        out |= (sc.fat_lx[i] < sc.enlarged_lx[i]) | (sc.fat_ly[i] < sc.enlarged_ly[i]) |
               (sc.fat_ux[i] > sc.enlarged_ux[i]) | (sc.fat_uy[i] > sc.enlarged_uy[i]);
      }
    });
    escaped[std::size_t(lo / kGrain)] = out;
  });
  return std::none_of(escaped.begin(), escaped.end(), [](std::uint32_t e) { return e != 0; });
}

// Whether two colliders of different bodies may interact at all, the broad phase having checked
// category and mask: groups, jointed bodies that do not collide, two bodies of infinite mass
// (the broad phase knows static and sleeping, but not kinematic). Sensors: see is_sensor_pair.
bool colliders_may_touch(const World::Impl& w, std::uint32_t i, std::uint32_t j) {
  const auto& b = w.bodies;
  const auto& c = w.colliders;
  const std::uint32_t bi = c.body[i], bj = c.body[j];
  if (bi == bj) return false;
  const std::uint8_t fi = b.flags[bi], fj = b.flags[bj];
  if ((fi | fj) & kDead) return false;
  const bool sensor = c.sensor[i] || c.sensor[j];
  if (sensor) {
    // A sensor sees visitors that are not sensors, static ones too (sensor_events.cpp).
    if (c.sensor[i] && c.sensor[j]) return false;
  } else if ((fi & (kStatic | kKinematic)) && (fj & (kStatic | kKinematic))) {
    return false;
  }
  if (c.group[i] == c.group[j] && c.group[i] != 0) return c.group[i] > 0;
  if ((c.category[i] & c.mask[j]) == 0 || (c.category[j] & c.mask[i]) == 0) return false;
  if (!w.ignored_pairs.empty()) {
    const std::uint64_t key = pair_key(b.slot[bi], b.slot[bj]);
    if (std::binary_search(w.ignored_pairs.begin(), w.ignored_pairs.end(), key)) return false;
  }
  return true;
}

// The contact pairs grouped by their first collider (dense index), in the broad phase's order
// within a group: a stable counting sort. Colliders are dense in body order, so the narrow phase
// then visits a body's pairs together and the colouring, which takes pairs in this order, fills a
// colour's lanes with nearby bodies: their rows stay in cache from one pair to the next. In the
// sweep's order, which interleaves bodies far apart at the same x (many_pyramids' twenty floors),
// a settled step of many_pyramids cost about 20% more (narrow phase and solve).
void group_by_first_collider(World::Impl& w,
                             std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs) {
  // Few pairs among many colliders (a small awake part of a large idle world): a stable sort of
  // the pairs gives the same order without a pass over every collider (17 us a step beside
  // 100,000 idle boxes, BM_IdleBodiesBesideAMover).
  if (pairs.size() * 16 < w.colliders.size()) {
    std::stable_sort(pairs.begin(), pairs.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    return;
  }
  auto& begin = w.scratch.pair_group_begin;
  auto& sorted = w.scratch.grouped_pairs;
  begin.assign(w.colliders.size() + 1, 0);
  for (const auto& [a, c] : pairs) ++begin[a + 1];
  for (std::size_t i = 1; i < begin.size(); ++i) begin[i] += begin[i - 1];
  sorted.resize(pairs.size());
  for (const auto& pair : pairs) sorted[begin[pair.first]++] = pair;
  pairs.swap(sorted);
}

// Sweeps the enlarged boxes of the awake moving colliders (static and sleeping proxies keep the
// boxes they were given) and keeps the pairs that may interact, in dense indices: contact pairs
// (lower slot first) and sensor pairs (sensor first). The order is the broad phase's, contact
// pairs grouped by their first collider.
void sweep_enlarged(World::Impl& w) {
  const auto& b = w.bodies;
  const auto& c = w.colliders;
  auto& bp = w.broadphase;
  auto& sc = w.scratch;
  const std::size_t n = c.size();
  sc.enlarged_lx.resize(n), sc.enlarged_ly.resize(n), sc.enlarged_ux.resize(n);
  sc.enlarged_uy.resize(n), sc.enlarged_flags.resize(n);
  const std::span<float> lx = bp.min_x(), ly = bp.min_y(), ux = bp.max_x(), uy = bp.max_y();
  // The colliders of the visited bodies: an unvisited one keeps the enlarged box of the sweep of
  // its last visit, made from the same box it has now.
  parallel_for_runs(w, int(n), sc.collider_runs, [&](int first, int last) {
    for (std::uint32_t i = std::uint32_t(first); i < std::uint32_t(last); ++i) {
      const std::uint8_t flags = b.flags[c.body[i]];
      sc.enlarged_flags[i] = flags;
      const float size = std::max(sc.tight_ux[i] - sc.tight_lx[i], sc.tight_uy[i] - sc.tight_ly[i]);
      const float m = std::min(kEnlargeFraction * size, kEnlargeMax);
      sc.enlarged_lx[i] = sc.fat_lx[i] - m, sc.enlarged_ly[i] = sc.fat_ly[i] - m;
      sc.enlarged_ux[i] = sc.fat_ux[i] + m, sc.enlarged_uy[i] = sc.fat_uy[i] + m;
      if (flags & (kStatic | kSleeping | kDead)) continue;
      const std::uint32_t s = c.slot[i];
      lx[s] = sc.enlarged_lx[i], ly[s] = sc.enlarged_ly[i];
      ux[s] = sc.enlarged_ux[i], uy[s] = sc.enlarged_uy[i];
    }
  });
  bp.find_pairs(w.broadphase_pairs, w.tasks);
  const auto& pairs = w.broadphase_pairs;
  // Each pair's class once (the filter below reads it twice): 0 dropped, 1 contact, 2 sensor.
  auto& kind = sc.pair_class;
  kind.resize(pairs.size());
  w.tasks.parallel_for(int(pairs.size()), 4096, [&](int lo, int hi, int) {
    for (int i = lo; i < hi; ++i) {
      const std::uint32_t x = w.collider_slots[pairs[std::size_t(i)].a].dense;
      const std::uint32_t y = w.collider_slots[pairs[std::size_t(i)].b].dense;
      kind[std::size_t(i)] = !colliders_may_touch(w, x, y) ? 0
                             : (c.sensor[x] | c.sensor[y]) ? 2
                                                           : 1;
    }
  });
  filter_in_order(
      w, int(pairs.size()), [&](std::size_t i) { return kind[i] == 1; },
      [&](std::size_t i) {
        return std::pair{w.collider_slots[pairs[i].a].dense, w.collider_slots[pairs[i].b].dense};
      },
      w.enlarged_pairs);
  group_by_first_collider(w, w.enlarged_pairs);
  w.enlarged_sensor_pairs.clear();
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (kind[i] != 2) continue;
    const std::uint32_t x = w.collider_slots[pairs[i].a].dense;
    const std::uint32_t y = w.collider_slots[pairs[i].b].dense;
    w.enlarged_sensor_pairs.push_back(c.sensor[x] ? std::pair{x, y} : std::pair{y, x});
  }
  w.enlarged_version = bp.version();
  ++w.enlarged_sweeps;
}

}  // namespace

// The broad phase updates only when something moved out of what it last swept: a settled
// pyramid sweeps once and then only checks boxes (Box2D's fat boxes do the same for its tree).
void find_candidate_pairs(World::Impl& w) {
  const auto& c = w.colliders;
  auto& sc = w.scratch;
  const std::size_t n = c.size();
  // Swept boxes of every collider in one SIMD pass over SoA arrays: the boxes this step needs.
  sc.tight_lx.resize(n), sc.tight_ly.resize(n), sc.tight_ux.resize(n), sc.tight_uy.resize(n);
  sc.fat_lx.resize(n), sc.fat_ly.resize(n), sc.fat_ux.resize(n), sc.fat_uy.resize(n);
  sc.collider_sweep_x.resize(n), sc.collider_sweep_y.resize(n), sc.collider_spread.resize(n);
  const BoundsSpans spans{sc.tight_lx.data(),
                          sc.tight_ly.data(),
                          sc.tight_ux.data(),
                          sc.tight_uy.data(),
                          sc.collider_sweep_x.data(),
                          sc.collider_sweep_y.data(),
                          sc.collider_spread.data(),
                          sc.fat_lx.data(),
                          sc.fat_ly.data(),
                          sc.fat_ux.data(),
                          sc.fat_uy.data()};
  // The visited bodies' colliders; the others keep their boxes of their last visit.
  collider_runs_of(w, w.scratch.body_runs, sc.collider_runs);
  parallel_for_runs(w, int(n), sc.collider_runs, [&](int lo, int hi) {
    for (std::size_t i = std::size_t(lo); i < std::size_t(hi); ++i) {
      const Aabb& box = c.aabb[i];
      sc.tight_lx[i] = box.lower.x, sc.tight_ly[i] = box.lower.y;
      sc.tight_ux[i] = box.upper.x, sc.tight_uy[i] = box.upper.y;
      const std::uint32_t k = c.body[i];
      sc.collider_sweep_x[i] = w.sweep_x[k], sc.collider_sweep_y[i] = w.sweep_y[k];
      sc.collider_spread[i] = w.spread[k];
    }
    fatten_bounds_simd(spans, lo, hi, 0.5f * w.config.contact_slop);
  });
  if (w.reference_pairs) {  // tests: the boxes above stay current for a later sweep
    find_pairs_all(w, w.candidate_pairs);
    return;
  }
  if (!enlarged_pairs_hold(w)) sweep_enlarged(w);
  // The candidates: the enlarged pairs whose boxes overlap this step, so the narrow phase and the
  // continuous pass see the same pairs as a sweep of this step's boxes would give.
  auto overlap = [&](std::uint32_t a, std::uint32_t d) {
    return !(sc.fat_lx[a] > sc.fat_ux[d] || sc.fat_lx[d] > sc.fat_ux[a] ||
             sc.fat_ly[a] > sc.fat_uy[d] || sc.fat_ly[d] > sc.fat_uy[a]);
  };
  filter_in_order(
      w, int(w.enlarged_pairs.size()),
      [&](std::size_t i) { return overlap(w.enlarged_pairs[i].first, w.enlarged_pairs[i].second); },
      [&](std::size_t i) { return w.enlarged_pairs[i]; }, w.candidate_pairs);
  w.sensor_candidates.clear();
  for (const auto& [sensor, visitor] : w.enlarged_sensor_pairs)
    if (overlap(sensor, visitor)) w.sensor_candidates.emplace_back(sensor, visitor);
}

// All-pairs reference finder: the same filters as the sweep-and-prune broad phase; kept for
// tests and as the baseline of the broad-phase benchmark.
void find_pairs_all(World::Impl& w, std::vector<std::pair<std::uint32_t, std::uint32_t>>& out) {
  out.clear();
  w.sensor_candidates.clear();
  const auto& c = w.colliders;
  const std::size_t n = c.size();
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint32_t j = i + 1; j < n; ++j) {
      if (!pair_may_collide(w, i, j)) continue;
      const Aabb a = collider_broadphase_box(w, i), d = collider_broadphase_box(w, j);
      if (a.lower.x > d.upper.x || d.lower.x > a.upper.x) continue;
      if (a.lower.y > d.upper.y || d.lower.y > a.upper.y) continue;
      if (c.sensor[i] || c.sensor[j]) {
        w.sensor_candidates.push_back(c.sensor[i] ? std::pair{i, j} : std::pair{j, i});
        continue;
      }
      const bool lower_first = c.slot[i] < c.slot[j];
      out.push_back(lower_first ? std::pair{i, j} : std::pair{j, i});
    }
  }
}

bool pair_may_collide(const World::Impl& w, std::uint32_t i, std::uint32_t j) {
  const auto& b = w.bodies;
  const auto& c = w.colliders;
  const std::uint8_t fi = b.flags[c.body[i]], fj = b.flags[c.body[j]];
  // Two bodies at rest (static or asleep) have nothing to resolve.
  if ((fi & (kStatic | kSleeping)) && (fj & (kStatic | kSleeping))) return false;
  return colliders_may_touch(w, i, j);
}

collide::ShapeView shape_view(const World::Impl& w, std::uint32_t i) {
  const auto& c = w.colliders;
  const std::uint32_t k = c.body[i];
  const std::uint32_t p0 = w.bodies.particle_begin[k] + c.vertex_begin[i];
  collide::ShapeView v;
  v.kind = c.kind[i];
  v.x = w.particles.x.data() + p0;
  v.y = w.particles.y.data() + p0;
  v.count = c.count[i];
  v.radius = c.radius[i];
  v.internal_edges = c.internal_edges[i];
  if (c.ghosts[i]) {
    const auto& b = w.bodies;
    const Vec2 p{b.px[k], b.py[k]};
    const Rot q{b.qc[k], b.qs[k]};
    v.has_prev = (c.ghosts[i] & 1) != 0, v.has_next = (c.ghosts[i] & 2) != 0;
    v.ghost_prev = p + rotate(q, c.ghost_prev[i]);
    v.ghost_next = p + rotate(q, c.ghost_next[i]);
  }
  return v;
}

// Materials combine by the usual rule: friction as the geometric mean (a frictionless surface
// makes the pair frictionless), restitution as the maximum (a ball bounces on any floor).
static void combine_materials(const World::Impl& w, std::uint32_t a, std::uint32_t d,
                              ContactPoint& cp) {
  const auto& c = w.colliders;
  cp.friction = std::sqrt(c.friction[a] * c.friction[d]);
  cp.static_friction = std::sqrt(c.static_friction[a] * c.static_friction[d]);
  cp.restitution = std::max(c.restitution[a], c.restitution[d]);
}

namespace {

Vec2 vertex_position(const World::Impl& w, std::uint32_t body, std::uint32_t v) {
  const std::uint32_t i = w.bodies.particle_begin[body] + v;
  return {w.particles.x[i], w.particles.y[i]};
}

float max_extent(const World::Impl& w, std::uint32_t k) { return w.extent[k]; }

}  // namespace

namespace {

// How far any point of one body can move relative to the other this step: their relative
// velocity, each one's turn times its reach, and the difference of their gravity, from the
// motion of the last substep (as update_bounds's motion, which bounds each body alone). Debris
// flying apart together, or bodies carried round in a drum, move fast but hardly relative to
// each other: with the sum of their motions, the smash's debris had about three times Box2D's
// pairs. Soft bodies: the sum of their particles' motions.
float relative_motion(const World::Impl& w, std::uint32_t a, std::uint32_t c) {
  if (!w.is_rigid(a) || !w.is_rigid(c)) return w.motion[a] + w.motion[c];
  const auto& b = w.bodies;
  const float substeps = float(w.config.substeps), dt = w.last_h * substeps;
  const float rx = b.dx[c] - b.dx[a], ry = b.dy[c] - b.dy[a];
  const float turn = std::fabs(b.da[a]) * w.reach[a] + std::fabs(b.da[c]) * w.reach[c];
  // Bodies of one gravity scale (nearly every pair) fall together: no square root for them.
  const float gravity_difference = std::fabs(b.gravity_scale[a] - b.gravity_scale[c]);
  const float fall =
      gravity_difference > 0 ? gravity_difference * length(w.config.gravity) * dt * dt : 0.0f;
  return (std::sqrt(rx * rx + ry * ry) + turn) * substeps + fall;
}

}  // namespace

// The margin is the distance the two bodies can close this step (relative_motion), plus the
// slop. Between two dynamic bodies (not bullets) at most the smaller one's size: a body flung at
// 90 m/s (the spinner's bar tip moves at 100 m/s) had a 1.5 m reach, 120 pairs and spilled
// thousands of constraints into the serial overflow colour. Box2D's reach is 2 cm at any speed;
// against fixed bodies the full motion stays (with the continuous pass, that is what keeps fast
// bodies out of walls).
PairReach pair_reach(const World::Impl& w, std::uint32_t a, std::uint32_t c) {
  const auto& b = w.bodies;
  const float motion = relative_motion(w, a, c);
  const float smaller = std::min(max_extent(w, a), max_extent(w, c));
  float reach = motion;
  const bool dynamic = b.inv_mass[a] > 0 && b.inv_mass[c] > 0;
  if (dynamic && !((b.flags[a] | b.flags[c]) & kBullet)) reach = std::min(reach, smaller);
  return PairReach{reach + w.config.contact_slop, motion > 0.5f * smaller};
}

namespace {

// A body that moves more than half its size in a step can turn a corner that the manifold did
// not pick into the surface (a box spinning at 20 rad/s and flying at 200 m/s went through a
// 10 cm wall at one substep). For such pairs every vertex of the other collider within the
// margin of a manifold edge's line gets a speculative point against that edge. `first` holds
// the first vertex of each point's body's collider, indexed like the points' bodies.
std::size_t add_fast_points(const World::Impl& w, std::uint32_t ca, std::uint32_t cc, float margin,
                            ContactPoint* out, float* separations, std::size_t count) {
  const auto& col = w.colliders;
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
    const std::uint32_t e1i = w.bodies.particle_begin[edge_body] + edge;
    const Vec2 e1{w.particles.x[e1i], w.particles.y[e1i]};
    const std::uint32_t e2i = e1i + w.particles.next[e1i];
    const Vec2 d = Vec2{w.particles.x[e2i], w.particles.y[e2i]} - e1;
    const float len = length(d);
    if (len <= 0) continue;
    const Vec2 normal = (1.0f / len) * Vec2{d.y, -d.x};
    // The vertices of the vertex side's collider (the pair's other collider).
    const std::uint32_t vc = col.body[ca] == other_body ? ca : cc;
    const std::uint32_t v0 = col.vertex_begin[vc], vn = v0 + col.count[vc];
    for (std::uint32_t v = v0; v < vn; ++v) {
      bool present = false;
      for (std::size_t q = 0; q < count; ++q)
        present = present || (out[q].body_v == other_body && out[q].vertex == v &&
                              out[q].kind == ContactKind::VertexEdge && out[q].other == edge);
      if (present) continue;
      const float sep = dot(normal, vertex_position(w, other_body, v) - e1) - out[p].radius();
      if (sep >= margin) continue;
      ContactPoint cp = out[p];
      separations[count] = sep;
      cp.nx = normal.x, cp.ny = normal.y;  // along the edge
      cp.vertex = v;
      cp.lambda_n = cp.lambda_t = 0;
      out[count++] = cp;
    }
  }
  return count;
}

}  // namespace

bool boxes_within(const World::Impl& w, std::uint32_t a, std::uint32_t c, float margin) {
  const Aabb &box_a = w.colliders.aabb[a], &box_c = w.colliders.aabb[c];
  const float gap =
      std::max(std::max(box_a.lower.x - box_c.upper.x, box_c.lower.x - box_a.upper.x),
               std::max(box_a.lower.y - box_c.upper.y, box_c.lower.y - box_a.upper.y));
  return gap < margin;
}

std::size_t collide_pair(const World::Impl& w, std::uint32_t a, std::uint32_t c, PairReach reach,
                         float margin, ContactPoint* out, float* separations) {
  const auto& b = w.bodies;
  const auto& col = w.colliders;
  const std::uint32_t ba = col.body[a], bc = col.body[c];
  // Boxes apart by the margin or more on an axis: no point of the two shapes is within reach.
  // Half the spinner's candidate pairs end here (their bodies' boxes grow by a fast motion); SAT
  // would find nothing for most of them, and for the rest only the line of a face, not the face.
  if (!boxes_within(w, a, c, margin)) return 0;
  const collide::Manifold m = collide::collide(shape_view(w, a), shape_view(w, c), margin);
  // Which collider owns the vertex is told by slot order, which (unlike dense order) survives
  // compaction.
  const bool a_lower = col.slot[a] < col.slot[c];
  for (int i = 0; i < m.count; ++i) {
    const collide::ContactFeature& f = m.points[i];
    ContactPoint& cp = out[i];
    cp = ContactPoint{};
    const std::uint32_t cv = f.vertex_on_a ? a : c, co = f.vertex_on_a ? c : a;
    cp.body_v = col.body[cv];
    cp.body_o = col.body[co];
    cp.kind = f.kind == collide::FeatureKind::VertexEdge ? ContactKind::VertexEdge
                                                         : ContactKind::VertexVertex;
    cp.vertex = col.vertex_begin[cv] + f.vertex;
    cp.other = col.vertex_begin[co] + f.other;
    cp.radius_v = col.radius[cv];
    cp.radius_o = col.radius[co];
    // f.normal points from A to B; ours from the other feature towards the vertex.
    const Vec2 normal = f.vertex_on_a ? -f.normal : f.normal;
    cp.nx = normal.x, cp.ny = normal.y;
    separations[i] = f.separation;
    cp.vertex_on_lower = f.vertex_on_a == a_lower;
    combine_materials(w, a, c, cp);
  }
  std::size_t count = static_cast<std::size_t>(m.count);
  // Against what does not move (walls, floors, kinematic bodies) or for bullets only, as the
  // continuous pass: between two dynamic bodies the extra points bought little and cost much
  // (after the smash's impact most of its 40,000 pairs were fast, with four points each).
  const bool fixed = b.inv_mass[ba] == 0 || b.inv_mass[bc] == 0;
  const bool bullet = ((b.flags[ba] | b.flags[bc]) & kBullet) != 0;
  if (count > 0 && (fixed || bullet) && reach.fast)
    count = add_fast_points(w, a, c, margin, out, separations, count);
  return count;
}

// Retired collider slots become free once this step's contacts have replaced last step's.
void release_retired_colliders(World::Impl& w) { w.collider_slots.recycle_retired(); }

}  // namespace strut
