// The pre-solve callback (World::set_pre_solve) on the narrow phase's pairs. After the narrow
// phase's parallel pass, the stepping thread goes through its chunks' rows in order, which is
// pair order at any thread count, asks about the pairs with a flagged collider, and takes the
// disabled rows out of their chunks before the merge, so a disabled pair never reaches the
// contact set: no constraint, no island link, not touching. Next step it is collided afresh (no
// warm start, as a pair that was apart). The parallel pass itself does not mark the flagged
// pairs: that would cost every world's narrow phase, callback or not.
#include <algorithm>

#include "solver/bodies/collider_store.hpp"
#include "solver/contacts/contact_solver.hpp"
#include "solver/core/stores.hpp"
#include "solver/joints/point_ref.hpp"
#include "solver/step/callback_guard.hpp"
#include "solver/step/collide_phase.hpp"
#include "solver/step/step_scratch.hpp"

namespace strut {
namespace {

// The callback's view of a pair (key: its collider slots, lower first) and its points.
PreSolveContact pre_solve_view(const WorldState& w, std::uint64_t key, const ContactPoint* points,
                               std::uint32_t count) {
  const std::uint32_t slot_a = std::uint32_t(key >> 32), slot_b = std::uint32_t(key);
  PreSolveContact contact{shape_of_collider(w.colliders, slot_a),
                          shape_of_collider(w.colliders, slot_b),
                          body_of_collider(w.colliders, w.bodies, slot_a),
                          body_of_collider(w.colliders, w.bodies, slot_b)};
  const std::uint32_t body_a = w.colliders.body[w.colliders.slots[slot_a].dense];
  for (std::uint32_t k = 0; k < count && k < 2; ++k) {
    const ContactPoint& cp = points[k];
    const ContactGeometry g = evaluate_contact(w, cp);
    // g.n points from the other feature's body (o) to the vertex's (v); the view's from a to b.
    const bool o_is_a = cp.body_o == body_a;
    if (k == 0) contact.normal = o_is_a ? g.n : -g.n;
    contact.points[k] = point_now(w, o_is_a ? g.v : g.o);  // on b's surface
    contact.separations[k] = g.c;
    contact.point_count = int(k + 1);
  }
  return contact;
}

// Removes the rows marked in `drop` from the chunk, with the points of the fresh ones (a reused
// row's points are in last step's list).
void drop_disabled_rows(NarrowChunk& chunk, const std::vector<std::uint8_t>& drop) {
  std::size_t kept = 0, fresh_in = 0, fresh_out = 0, points = 0;
  for (std::size_t row = 0; row < chunk.pairs; ++row) {
    const std::uint32_t count = chunk.counts[row];
    if (!chunk.reused_pair[row]) {
      if (!drop[row]) {
        std::copy(chunk.points.begin() + std::ptrdiff_t(fresh_in),
                  chunk.points.begin() + std::ptrdiff_t(fresh_in + count),
                  chunk.points.begin() + std::ptrdiff_t(fresh_out));
        fresh_out += count;
      }
      fresh_in += count;
    }
    if (drop[row]) continue;
    chunk.reused_pair[kept] = chunk.reused_pair[row];
    chunk.keys[kept] = chunk.keys[row];
    chunk.touching[kept] = chunk.touching[row];
    chunk.deepest[kept] = chunk.deepest[row];
    chunk.counts[kept] = count;
    chunk.previous[kept] = chunk.previous[row];
    chunk.caches[kept] = chunk.caches[row];
    points += count;
    ++kept;
  }
  chunk.pairs = kept;
  chunk.point_count = points;
  chunk.points.resize(fresh_out);
  chunk.same_counts = false;  // a pair of last step's list is missing
}

}  // namespace

bool run_pre_solve(WorldState& w, std::span<NarrowChunk> chunks) {
  const ContactSet& set = w.contacts;
  auto& disabled = w.scratch.pre_solve_disabled;
  bool dropped = false;
  std::vector<std::uint8_t> drop;
  const auto& c = w.colliders;
  auto flagged = [&](std::uint64_t key) {
    const std::uint32_t a = w.colliders.slots[std::uint32_t(key >> 32)].dense;
    const std::uint32_t b = w.colliders.slots[std::uint32_t(key)].dense;
    return ((c.callbacks[a] | c.callbacks[b]) & kPreSolve) != 0;
  };
  for (NarrowChunk& chunk : chunks) {
    drop.assign(chunk.pairs, 0);
    bool any = false;
    std::size_t fresh = 0;  // the row's first point in chunk.points (pairs collided afresh)
    for (std::uint32_t row = 0; row < chunk.pairs; ++row) {
      const std::uint32_t count = chunk.counts[row];
      const bool reused = chunk.reused_pair[row];
      const ContactPoint* points =
          reused ? set.old_points.data() + set.old_pair_begin[chunk.previous[row]]
                 : chunk.points.data() + fresh;
      if (!reused) fresh += count;
      if (!flagged(chunk.keys[row])) continue;
      bool threw = false;
      const PreSolveContact contact = pre_solve_view(w, chunk.keys[row], points, count);
      if (!call_guarded(w.callbacks.pre_solve, contact, w.callbacks.error, threw)) {
        drop[row] = 1, any = true;
        disabled.push_back(chunk.keys[row]);
      }
    }
    if (any) drop_disabled_rows(chunk, drop), dropped = true;
  }
  std::sort(disabled.begin(), disabled.end());
  return dropped;
}

bool pre_solve_disabled(Stores<ReadsColliders, ReadsScratch> w, std::uint32_t a, std::uint32_t c) {
  const auto& disabled = w.scratch.pre_solve_disabled;
  if (disabled.empty()) return false;
  const auto& col = w.colliders;
  return std::binary_search(disabled.begin(), disabled.end(), pair_key(col.slot[a], col.slot[c]));
}

}  // namespace strut
