// The narrow phase: candidate collider pairs -> contact points (feature pairs), collided afresh
// or kept from last step by the contact cache, with last step's impulses for warm starting and a
// touching flag per pair. Runs once per step, after the broad phase
// (solver/step/candidate_pairs.cpp, whose collide_pair collides one pair).
#include <algorithm>
#include <cmath>
#include <span>

#include "solver/contacts/contact_solver.hpp"
#include "solver/step/collide_phase.hpp"
#include "solver/world_state.hpp"

namespace strut {

namespace {

// Last step's pairs grouped by their higher collider slot (a counting sort), keys stored beside
// their indices: a lookup reads one per-collider offset and scans that collider's few pairs. A
// hash table over all pairs costs a cache miss per lookup. By the higher slot, because grounds
// and bars come first in most scenes: grouped by the lower slot, the spinner's bar had hundreds
// of pairs to scan for each of its hundreds of lookups.
// With few pairs among many colliders (a small awake part of a large idle world) the counting
// sort's pass over every collider slot would cost more than the pairs: then the keys are sorted
// and found by binary search (old_body_first left empty), as in BM_IdleBodies.
constexpr std::size_t kSlotsPerPairToSort = 8;

void index_previous(ContactSet& set, std::size_t slot_count) {
  auto& first = set.old_body_first;
  const std::size_t pairs = set.old_pair_keys.size();
  if (slot_count > kSlotsPerPairToSort * pairs) {
    first.clear();
    auto& order = set.old_by_body_index;
    order.resize(pairs);
    for (std::uint32_t i = 0; i < pairs; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
      return set.old_pair_keys[x] < set.old_pair_keys[y];
    });
    set.old_by_body_key.resize(pairs);
    for (std::size_t i = 0; i < pairs; ++i) set.old_by_body_key[i] = set.old_pair_keys[order[i]];
    return;
  }
  first.assign(slot_count + 1, 0);
  for (const std::uint64_t key : set.old_pair_keys) ++first[std::size_t(std::uint32_t(key)) + 1];
  for (std::size_t i = 0; i < slot_count; ++i) first[i + 1] += first[i];
  set.old_by_body_key.resize(set.old_pair_keys.size());
  set.old_by_body_index.resize(set.old_pair_keys.size());
  auto& cursor = set.old_body_cursor;
  cursor.assign(first.begin(), first.end() - 1);
  for (std::uint32_t i = 0; i < set.old_pair_keys.size(); ++i) {
    const std::uint64_t key = set.old_pair_keys[i];
    const std::uint32_t at = cursor[std::size_t(std::uint32_t(key))]++;
    set.old_by_body_key[at] = key;
    set.old_by_body_index[at] = i;
  }
}

std::uint32_t find_previous(const ContactSet& set, std::uint64_t key) {
  if (set.old_body_first.empty()) {  // sorted keys (index_previous)
    const auto& keys = set.old_by_body_key;
    const auto at = std::lower_bound(keys.begin(), keys.end(), key);
    return at != keys.end() && *at == key ? set.old_by_body_index[std::size_t(at - keys.begin())]
                                          : ~0u;
  }
  const std::size_t a = std::size_t(std::uint32_t(key));
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
// many steps (in a settled pyramid nearly every pair does). Soft, circle, chain and fast pairs
// (fast-pair points come from the motion) always collide afresh.
// Separation of a reused point at the current poses, for the touching flag: evaluate_contact's
// separation for the points the cache reuses (rigid bodies), read from the particles.
// Calling evaluate_contact itself costs a pile's step more for the same value.
// body_v, body_o: the point's bodies on this step's dense indices (see rebind).
float feature_separation(const WorldState& w, const ContactPoint& cp, std::uint32_t body_v,
                         std::uint32_t body_o) {
  const Vec2 v = vertex_position(w, body_v, cp.vertex);
  const std::uint32_t e1i = w.bodies.particle_begin[body_o] + cp.other;
  const Vec2 e1{w.particles.x[e1i], w.particles.y[e1i]};
  // Along the normal the features were chosen with, from the edge's point nearest the vertex,
  // as the prepare measures it (contact_prepare.hpp).
  if (cp.kind == ContactKind::VertexVertex) return dot(cp.normal(), v - e1) - cp.radius();
  const std::uint32_t e2i = e1i + w.particles.next[e1i];
  const Vec2 d = Vec2{w.particles.x[e2i], w.particles.y[e2i]} - e1;
  const auto t = [&] {
    const float len2 = dot(d, d);
    return len2 > 0 ? std::clamp(dot(v - e1, d) / len2, 0.0f, 1.0f) : 0.0f;
  };
  return gap_along(cp.normal(), v - e1, d, t) - cp.radius();
}

// Two faces pressed together, anti-parallel, touch at each end either where a vertex of one lies
// on the other face, or the other way round; which of the two a point is flips whenever the
// faces' ends cross, by a hair's breadth in a stack of equal boxes. Whether `fresh` is the
// corner `old` was, seen from the other side: each point's vertex is an end of the other point's
// edge, and the two ends face each other (the start of one edge the end of the other). Its
// impulses carry over (a column of 20 boxes lost its warm start at a corner every few steps).
// The edges' ends are read through fresh's bodies, which are this step's.
bool same_corner(const WorldState& w, const ContactPoint& old, const ContactPoint& fresh) {
  if (old.kind != ContactKind::VertexEdge || fresh.kind != ContactKind::VertexEdge) return false;
  if (old.vertex_on_lower == fresh.vertex_on_lower) return false;
  const auto& q = w.particles;
  const std::uint32_t old_edge_end =
      old.other + q.next[w.bodies.particle_begin[fresh.body_v] + old.other];
  const std::uint32_t fresh_edge_end =
      fresh.other + q.next[w.bodies.particle_begin[fresh.body_o] + fresh.other];
  return (fresh.vertex == old_edge_end && old.vertex == fresh.other) ||
         (fresh.vertex == old.other && old.vertex == fresh_edge_end);
}

// A reused point on this step's dense body indices: whether the vertex is on the collider of the
// lower slot (slots, unlike dense indices, survive compaction). lower, higher: bodies.
void rebind(ContactPoint& cp, std::uint32_t lower, std::uint32_t higher) {
  cp.body_v = cp.vertex_on_lower ? lower : higher;
  cp.body_o = cp.vertex_on_lower ? higher : lower;
}

// Polygons (boxes, rounded polygons), capsules and segments: features of a vertex against an edge
// or a vertex, whose separations the solver re-derives with both radii. Circles roll, so their
// pairs rarely keep still enough to be reused; chain links choose features by their ghost
// neighbours. Both collide afresh.
bool cacheable_kind(collide::ColliderKind kind) {
  return kind == collide::ColliderKind::Polygon || kind == collide::ColliderKind::Capsule;
}

// Whether colliders a and c may keep their features, the pair's motion aside (a fast pair's
// points come from the motion: PairReach::fast).
bool cacheable(const WorldState& w, std::uint32_t a, std::uint32_t c) {
  if (!w.config.contact_cache) return false;
  const auto& col = w.colliders;
  if (!cacheable_kind(col.kind[a]) || !cacheable_kind(col.kind[c])) return false;
  return !((w.bodies.flags[col.body[a]] | w.bodies.flags[col.body[c]]) & kSoft);
}

// lower, higher: bodies.
PairCache relative_pose(const WorldState& w, std::uint32_t lower, std::uint32_t higher) {
  const auto& b = w.bodies;
  const Rot q{b.qc[lower], b.qs[lower]};
  const Vec2 p = inv_rotate(q, Vec2{b.px[higher] - b.px[lower], b.py[higher] - b.py[lower]});
  PairCache r;
  r.x = p.x, r.y = p.y;
  r.c = q.c * b.qc[higher] + q.s * b.qs[higher];
  r.s = q.c * b.qs[higher] - q.s * b.qc[higher];
  r.lower_c = q.c, r.lower_s = q.s;
  return r;
}

// Box2D v3's contact recycling: a touching pair at rest relative to itself (closing or parting
// by less than a slop this step) keeps its features, and the normal and arms they were chosen
// with, while neither body has turned by more than about 11 degrees and no point of one has
// moved more than kRecycleSlops contact slops relative to the other since then, even though a
// feature pair missing from its manifold could then have come within reach. A normal and arms
// that turned with the bodies every step pushed a leaning column further over: 20 boxes fell in
// 15 s (in Box2D too, with its recycling off), and stand with it (docs/architecture.md). Pairs
// pushing out of each other faster than that collide afresh: held normals let boxes created at
// one point leave faster than the push-out's bound (docs/api.md, "Limitations").
inline constexpr float kRecycleSlops = 10.0f;
inline constexpr float kRecycleCosTurn = 0.98f;
bool recyclable(const PairCache& then, const PairCache& now, float moved, PairReach reach,
                float slop) {
  const float lower_cos = now.lower_c * then.lower_c + now.lower_s * then.lower_s;
  const Rot higher_now = now.higher(), higher_then = then.higher();
  const float higher_cos = higher_now.c * higher_then.c + higher_now.s * higher_then.s;
  return reach.margin <= 2.0f * slop && moved <= kRecycleSlops * slop &&
         lower_cos > kRecycleCosTurn && higher_cos > kRecycleCosTurn;
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

// Whether candidate p is last step's pair p for every p (same collider slots in the same order):
// true for every step of a settled pile, whose broad phase keeps last sweep's pairs. Checked in
// the narrow phase's chunks; each chunk writes its own flag.
bool same_pairs_as_last_step(WorldState& w, int grain) {
  const auto& set = w.contacts;
  const std::size_t pairs = w.pairs.candidates.size();
  if (pairs == 0 || set.old_pair_keys.size() != pairs) return false;
  auto& flags = w.scratch.chunk_flags;
  flags.assign(std::size_t(TaskSystem::chunk_count(int(pairs), grain)), 1);
  w.tasks.parallel_for(int(pairs), grain, [&](int lo, int hi, int) {
    const auto& col = w.colliders;
    bool same = true;
    for (int p = lo; p < hi && same; ++p) {
      const auto [a, c] = w.pairs.candidates[std::size_t(p)];
      same = pair_key(col.slot[a], col.slot[c]) == set.old_pair_keys[std::size_t(p)];
    }
    flags[std::size_t(lo / grain)] = same;
  });
  return std::all_of(flags.begin(), flags.end(), [](std::uint8_t f) { return f != 0; });
}

// Room for one pair's fresh points, left uninitialised: collide_pair writes each point it
// returns. Default-initialised, the 34 points cost each chunk 400 instructions, as much as a
// resting pair.
union FreshPoints {
  FreshPoints() {}
  ContactPoint at[kMaxPointsPerPair];
};

// Room in a chunk's buffers for `rows` pairs.
void reserve_rows(NarrowChunk& out, std::size_t rows) {
  if (out.keys.size() >= rows) return;
  out.reused_pair.resize(rows);
  out.keys.resize(rows), out.touching.resize(rows), out.counts.resize(rows);
  out.deepest.resize(rows);
  out.previous.resize(rows), out.caches.resize(rows);
}

constexpr int kPointsAhead = 16;  // measured against 4 and 8 (docs/architecture.md)

// Collides candidates [lo, hi) into chunk `out` (narrow_phase). A function of its own, not the
// parallel_for's lambda: reached through the lambda's captures, every array the pair loop reads
// was found again through two loads after each pair's rows were stored (a byte store may alias
// them).
void collide_chunk(WorldState& w, NarrowChunk& out, int lo, int hi, bool same_pairs) {
  auto& set = w.contacts;
  // Per-pair rows written by index into buffers that only grow (a push_back per row and
  // field was a fifth of the narrow phase); `pairs` and `reused_points` count what is valid.
  reserve_rows(out, std::size_t(hi - lo));
  out.points.clear();
  out.pairs = 0, out.point_count = 0;
  // Kept in registers and stored once per chunk. A reused point keeps its bodies unless
  // compaction moved them (dense_moved, below); only fresh pairs are compared.
  bool same_counts = same_pairs, same_bodies = same_pairs, bouncy = false;
  FreshPoints fresh;
  ContactPoint* const buffer = fresh.at;
  float separations[kMaxPointsPerPair];
  for (int p = lo; p < hi; ++p) {
    // A settled pile's pairs are last step's in order: their points are read in order, but
    // between them each pair reads bodies and particles all over, so the points are asked for
    // kPointsAhead pairs before they are needed.
    if (same_pairs && p + kPointsAhead < hi) {
      const char* ahead = reinterpret_cast<const char*>(
          set.old_points.data() + set.old_pair_begin[std::size_t(p + kPointsAhead)]);
      __builtin_prefetch(ahead, 1), __builtin_prefetch(ahead + sizeof(ContactPoint), 1);
    }
    const auto [a, c] = w.pairs.candidates[std::size_t(p)];
    const auto& col = w.colliders;
    const std::uint64_t key = pair_key(col.slot[a], col.slot[c]);
    const std::uint32_t old = same_pairs ? std::uint32_t(p) : find_previous(set, key);
    // The bodies of the lower- and higher-slot colliders.
    const std::uint32_t lower = col.body[col.slot[a] < col.slot[c] ? a : c];
    const std::uint32_t higher = col.body[col.slot[a] < col.slot[c] ? c : a];
    const float slop = w.config.contact_slop;
    const PairReach reach = pair_reach(w, lower, higher);
    // Features chosen with one slop more than this step needs, so that a resting pair keeps
    // them for many steps.
    const bool cacheable_pair = cacheable(w, a, c) && !reach.fast;
    const float collide_margin = reach.margin + (cacheable_pair ? slop : 0.0f);
    // A pair that had no points and whose boxes are apart by the margin gets none: most of the
    // candidates of a flying pile (their boxes grow by each body's whole motion, the margin
    // by their motion relative to each other). Skipped before anything else is read.
    if (old == ~0u && !boxes_within(w, a, c, collide_margin)) continue;
    PairCache cache;
    std::size_t count = 0;
    bool reused = false;
    std::uint8_t touching = 0;  // touching now (not only speculatively): links islands
    float deepest = 0;          // ContactSet::pair_deepest
    if (cacheable_pair) {
      cache = relative_pose(w, lower, higher);
      // Kept if nothing missing can be within reach this step, or recycled while touching.
      const PairCache* then = old != ~0u ? &set.old_pair_cache[old] : nullptr;
      const float moved =
          then && then->margin >= 0 ? drift(*then, cache, w.bodies.step_reach[higher]) : 0.0f;
      if (then && then->margin >= 0 &&
          (moved + reach.margin <= then->margin ||
           (set.old_pair_touching[old] && recyclable(*then, cache, moved, reach, slop)))) {
        // Last step's points keep their features and impulses; the merge copies them straight
        // from last step's list (or leaves them there). Here, where they lie, only their
        // bodies' dense indices after a compaction, and their separations, for the pair's
        // touching flag and depth. Nothing is stored in a settled pile's points, so their cache
        // lines stay clean (storing the separation in each point would dirty them).
        for (std::uint32_t k = set.old_pair_begin[old]; k < set.old_pair_begin[old + 1]; ++k) {
          ContactPoint& cp = set.old_points[k];
          // Without compaction and with last step's pairs, the bodies are the ones bound.
          if (w.bodies.dense_moved || !same_pairs) rebind(cp, lower, higher);
          const float separation = feature_separation(w, cp, cp.body_v, cp.body_o);
          touching |= separation <= slop;
          deepest = std::min(deepest, separation);
          ++count;
        }
        cache = set.old_pair_cache[old];  // drift counts from when the features were chosen
        reused = true;
      } else {
        count = collide_pair(w, a, c, reach, collide_margin, buffer, separations);
        cache.margin = collide_margin;
      }
    } else {
      count = collide_pair(w, a, c, reach, collide_margin, buffer, separations);
    }
    if (same_pairs && count != set.old_pair_begin[old + 1] - set.old_pair_begin[old])
      same_counts = false;
    if (count == 0) continue;
    if (!reused) {
      if (same_pairs) {
        const ContactPoint& last = set.old_points[set.old_pair_begin[old]];
        same_bodies &= buffer[0].body_v == last.body_v && buffer[0].body_o == last.body_o;
      }
      bouncy |= buffer[0].restitution > 0;
    }
    // Fresh points: impulses of the same features last step (warm start), and touching.
    if (!reused)
      for (std::size_t i = 0; i < count; ++i) {
        if (old != ~0u) {
          const std::uint32_t first = set.old_pair_begin[old], end = set.old_pair_begin[old + 1];
          std::uint32_t k = first;
          while (k < end && !set.old_points[k].same_features(buffer[i])) ++k;
          // The same corner seen from the other face: its normal and tangent are reversed, and
          // so are the bodies they push, so the impulses keep their signs.
          if (k == end) {
            k = first;
            while (k < end && !same_corner(w, set.old_points[k], buffer[i])) ++k;
          }
          if (k < end) {
            const PointImpulses prev = point_impulses(set, set.old_points, k);
            buffer[i].lambda_n = prev.lambda_n, buffer[i].lambda_t = prev.lambda_t;
            buffer[i].sliding = prev.sliding;
          }
        }
        touching |= separations[i] <= slop;
        deepest = std::min(deepest, separations[i]);
      }
    const std::size_t row = out.pairs++;
    out.keys[row] = key;
    out.touching[row] = touching;
    out.deepest[row] = deepest;
    out.counts[row] = std::uint32_t(count);
    out.previous[row] = old;
    out.caches[row] = cache;
    out.reused_pair[row] = reused;
    out.point_count += count;
    if (!reused) out.points.insert(out.points.end(), buffer, buffer + count);
  }
  out.same_counts = same_counts, out.same_bodies = same_bodies, out.bouncy = bouncy;
}

}  // namespace

// Pairs are split into fixed chunks; each chunk collides its pairs into its own buffers and the
// buffers are concatenated in chunk order, so the contact list is the same for any thread count.
void narrow_phase(WorldState& w) {
  auto& set = w.contacts;
  std::swap(set.points, set.old_points);
  std::swap(set.pair_keys, set.old_pair_keys);
  std::swap(set.pair_begin, set.old_pair_begin);
  std::swap(set.pair_touching, set.old_pair_touching);
  std::swap(set.pair_cache, set.old_pair_cache);
  constexpr int kGrain = 256;
  const int pairs = int(w.pairs.candidates.size());
  // The chunks this step uses, the first of narrow_chunks: the rest are kept, not destroyed, so
  // that a world whose pairs come and go (a lander hopping off the ground) does not give up
  // and regrow their buffers every time.
  auto& kept = w.scratch.narrow_chunks;
  const std::size_t chunk_total = std::size_t(TaskSystem::chunk_count(pairs, kGrain));
  if (kept.size() < chunk_total) kept.resize(chunk_total);
  const std::span<NarrowChunk> chunks(kept.data(), chunk_total);
  // Candidate p is last step's pair p: no lookup, and the points may stay where they are.
  const bool same_pairs = same_pairs_as_last_step(w, kGrain);
  set.same_pairs = same_pairs;
  if (!same_pairs) index_previous(set, w.colliders.slots.size());
  // Last step's impulses are still in its lanes (point_impulses.cpp). Pairs that change take
  // them back now; the same pairs read them where they are.
  if (!same_pairs) pull_impulses(w, set.old_points, false);
  w.tasks.parallel_for(pairs, kGrain, [&](int lo, int hi, int) {
    collide_chunk(w, chunks[std::size_t(lo / kGrain)], lo, hi, same_pairs);
  });
  // The pre-solve callback, on this thread in pair order, before the merge.
  w.scratch.pre_solve_disabled.clear();
  if (w.colliders.pre_solve_count != 0 && w.callbacks.pre_solve && run_pre_solve(w, chunks))
    set.same_pairs = false;  // a pair left the list
  // Merge in chunk order: offsets first, then every chunk copies itself in parallel. When every
  // pair is last step's with as many points, the points are updated where they lie instead
  // (in a settled pyramid, every pair: 30,000 points of 64 bytes not copied a step).
  std::size_t pair_total = 0, point_total = 0;
  bool in_place = same_pairs, same_bodies = same_pairs;
  set.bouncy_pairs = false;
  for (NarrowChunk& chunk : chunks) {
    chunk.first_pair = pair_total, chunk.first_point = point_total;
    pair_total += chunk.pairs, point_total += chunk.point_count;
    in_place = in_place && chunk.same_counts;
    same_bodies = same_bodies && chunk.same_bodies;
    set.bouncy_pairs = set.bouncy_pairs || chunk.bouncy;
  }
  set.same_layout = in_place && same_bodies && !w.bodies.dense_moved;
  // Reused points are copied out of last step's list below: with their impulses.
  if (!in_place) pull_impulses(w, set.old_points, false);
  w.bodies.dense_moved = false;
  if (in_place) std::swap(set.points, set.old_points);
  set.points.resize(point_total);
  set.pair_keys.resize(pair_total);
  set.pair_touching.resize(pair_total);
  set.pair_deepest.resize(pair_total);
  set.pair_previous.resize(pair_total);
  set.pair_reused.resize(pair_total);
  set.pair_cache.resize(pair_total);
  w.pairs.cached = 0;
  for (const NarrowChunk& chunk : chunks)
    w.pairs.cached += std::size_t(std::count(
        chunk.reused_pair.begin(), chunk.reused_pair.begin() + std::ptrdiff_t(chunk.pairs), 1));
  set.pair_begin.resize(pair_total + 1);
  set.pair_begin[pair_total] = std::uint32_t(point_total);
  if (in_place) {  // the same pairs in the same order, their points where they were
    set.pair_keys = set.old_pair_keys;
    set.pair_begin = set.old_pair_begin;
  }
  w.tasks.parallel_for(int(chunks.size()), 1, [&](int lo, int hi, int) {
    for (int ci = lo; ci < hi; ++ci) {
      const NarrowChunk& chunk = chunks[std::size_t(ci)];
      // The rows column by column, then the points pair by pair.
      const auto rows = std::ptrdiff_t(chunk.pairs), at = std::ptrdiff_t(chunk.first_pair);
      std::copy_n(chunk.touching.begin(), rows, set.pair_touching.begin() + at);
      std::copy_n(chunk.deepest.begin(), rows, set.pair_deepest.begin() + at);
      std::copy_n(chunk.previous.begin(), rows, set.pair_previous.begin() + at);
      std::copy_n(chunk.reused_pair.begin(), rows, set.pair_reused.begin() + at);
      std::copy_n(chunk.caches.begin(), rows, set.pair_cache.begin() + at);
      if (!in_place) std::copy_n(chunk.keys.begin(), rows, set.pair_keys.begin() + at);
      std::size_t point = chunk.first_point, fresh = 0;
      for (std::size_t k = 0; k < chunk.pairs; ++k) {
        const std::uint32_t count = chunk.counts[k];
        if (!in_place) set.pair_begin[chunk.first_pair + k] = std::uint32_t(point);
        if (chunk.reused_pair[k]) {
          // Already rebound, with their separations, in last step's list.
          if (!in_place) {
            const ContactPoint* from =
                set.old_points.data() + set.old_pair_begin[chunk.previous[k]];
            std::copy(from, from + count, set.points.begin() + std::ptrdiff_t(point));
          }
        } else {
          std::copy(chunk.points.begin() + std::ptrdiff_t(fresh),
                    chunk.points.begin() + std::ptrdiff_t(fresh + count),
                    set.points.begin() + std::ptrdiff_t(point));
          fresh += count;
        }
        point += count;
      }
    }
  });
}

}  // namespace strut
