#include <algorithm>
#include <atomic>

#include "solver/contacts/contact_solver.hpp"

namespace strut {

// A rigid pair's points are solved two at a time, as constraints of one wide lane each; a pair
// touching a soft body is one constraint of the generic path. Colouring is per pair: a pair
// with more than two points (a fast pair) keeps one colour and its constraints are solved one
// after another (split into constraints of their own colours, such pairs spilled into the
// overflow colour, and the ragdoll rain became half as slow again).
namespace {

// Whether this step's contact pairs are last step's, in the same order, between the same dense
// bodies, with as many points each, and the same bodies may move: then the constraints, their
// colours and their lanes (prepare_contacts) come out as they were, and are kept. Cheap tests
// first, so a changing scene (rain, smash) pays little for asking. Sets any_restitution when it
// answers yes (the points' materials may have changed).
bool same_contact_structure(World::Impl &w) {
  auto &set = w.contacts;
  auto &s = w.scratch;
  const std::size_t pairs = set.pair_keys.size();
  if (pairs == 0 || s.moving != s.coloured_moving || s.pair_a.size() != pairs) return false;
  // The narrow phase saw the same pairs, counts and bodies (in a settled pile, every step).
  // Reused points keep their restitution, so last step's answer stands for them. It may stay
  // true for a pair whose material was changed and collided afresh: the restitution pass then
  // finds nothing to do, which changes no bits.
  if (set.same_layout) {
    set.any_restitution = set.any_restitution || set.bouncy_pairs;
    return true;
  }
  if (set.pair_keys != set.old_pair_keys || set.pair_begin != set.old_pair_begin) return false;
  constexpr int kGrain = 2048;
  auto &differs = s.chunk_counts;
  differs.assign(std::size_t(TaskSystem::chunk_count(int(pairs), kGrain)), 0);
  std::atomic<bool> bouncy{false};
  w.tasks.parallel_for(int(pairs), kGrain, [&](int lo, int hi, int) {
    std::uint32_t d = 0;
    bool chunk_bouncy = false;
    for (std::size_t p = std::size_t(lo); p < std::size_t(hi); ++p) {
      const ContactPoint &cp = set.points[set.pair_begin[p]];
      d |= (cp.body_v != s.pair_a[p]) | (cp.body_o != s.pair_b[p]);
      chunk_bouncy |= cp.restitution > 0;
    }
    differs[std::size_t(lo / kGrain)] = d;
    if (chunk_bouncy) bouncy.store(true, std::memory_order_relaxed);
  });
  if (std::any_of(differs.begin(), differs.end(), [](std::uint32_t d) { return d != 0; }))
    return false;
  set.any_restitution = bouncy.load();
  return true;
}

// Each moving body's share of its overlapping pairs' push-out (push_out_scale): a pair pushing
// at the cap moves body k by ima_k / (ima_k + ima_other) of it, so a heavy body touching many
// light ones, or a body on a static one, counts what it really receives. Pairs only near (the
// speculative margin) push nothing and are not counted. Summed in pair order, so the same for
// any thread count; static and kinematic bodies stay at 0. A pair adds at most 1 to a body, and
// a moving body's pairs take distinct colours until they spill into the overflow colour, so
// while that colour is empty no body has more than kColourCount = kCrowdedPushes pushes: then
// the list is left empty and nothing is counted (large_pyramid never counts).
void count_body_pushes(World::Impl &w) {
  static_assert(kCrowdedPushes >= float(kColourCount));
  const auto &set = w.contacts;
  auto &s = w.scratch;
  const auto &inv_mass = w.bodies.inv_mass;
  const Colouring &colours = w.contact_colours;
  s.body_pushes.clear();
  if (colours.begin[kOverflowColour] == colours.begin[kOverflowColour + 1]) return;
  s.body_pushes.assign(w.bodies.size(), 0.0f);
  for (std::size_t p = 0; p < s.pair_a.size(); ++p) {
    bool overlaps = false;
    for (std::uint32_t k = set.pair_begin[p]; k < set.pair_begin[p + 1]; ++k)
      overlaps |= set.points[k].separation < 0;
    const std::uint32_t a = s.pair_a[p], b = s.pair_b[p];
    const float both = inv_mass[a] + inv_mass[b];
    if (!overlaps || both == 0) continue;
    if (s.moving[a]) s.body_pushes[a] += inv_mass[a] / both;
    if (s.moving[b]) s.body_pushes[b] += inv_mass[b] / both;
  }
}

}  // namespace

void colour_contacts(World::Impl &w) {
  auto &set = w.contacts;
  auto &s = w.scratch;
  set.structure_kept = w.keep_contact_structure && same_contact_structure(w);
  if (set.structure_kept) return;
  s.coloured_moving = s.moving;
  const std::size_t pairs = set.pair_keys.size();
  set.pair_constraint_begin.resize(pairs + 1);
  s.pair_a.resize(pairs), s.pair_b.resize(pairs);
  // Constraints per pair (held in pair_constraint_begin until the offsets replace them), counted
  // and then written in fixed chunks at their offsets: the list is the same for any thread count.
  constexpr int kGrain = 2048;
  auto &chunk_first = s.chunk_counts;
  chunk_first.assign(std::size_t(TaskSystem::chunk_count(int(pairs), kGrain)) + 1, 0);
  const auto rigid_pair = [&](std::size_t p) {
    const ContactPoint &cp = set.points[set.pair_begin[p]];
    return w.is_rigid(cp.body_v) && w.is_rigid(cp.body_o);
  };
  std::atomic<bool> bouncy{false};  // any pair with restitution (else the pass is skipped)
  w.tasks.parallel_for(int(pairs), kGrain, [&](int lo, int hi, int) {
    std::uint32_t total = 0;
    bool chunk_bouncy = false;  // one shared store per chunk, not per pair
    for (std::size_t p = std::size_t(lo); p < std::size_t(hi); ++p) {
      const ContactPoint &cp = set.points[set.pair_begin[p]];
      chunk_bouncy |= cp.restitution > 0;
      const std::uint32_t points = set.pair_begin[p + 1] - set.pair_begin[p];
      const std::uint32_t n = rigid_pair(p) ? (points + 1) / 2 : 1;
      set.pair_constraint_begin[p] = n;
      total += n;
      s.pair_a[p] = cp.body_v, s.pair_b[p] = cp.body_o;
    }
    chunk_first[std::size_t(lo / kGrain) + 1] = total;
    if (chunk_bouncy) bouncy.store(true, std::memory_order_relaxed);
  });
  for (std::size_t c = 1; c < chunk_first.size(); ++c) chunk_first[c] += chunk_first[c - 1];
  set.constraint_first.resize(chunk_first.back());
  set.constraint_count.resize(chunk_first.back());
  w.tasks.parallel_for(int(pairs), kGrain, [&](int lo, int hi, int) {
    std::uint32_t at = chunk_first[std::size_t(lo / kGrain)];
    for (std::size_t p = std::size_t(lo); p < std::size_t(hi); ++p) {
      const std::uint32_t n = set.pair_constraint_begin[p];
      const std::uint32_t k0 = set.pair_begin[p], k1 = set.pair_begin[p + 1];
      const bool rigid = rigid_pair(p);
      set.pair_constraint_begin[p] = at;
      for (std::uint32_t i = 0; i < n; ++i, ++at) {
        const std::uint32_t k = rigid ? k0 + 2 * i : k0;
        set.constraint_first[at] = k;
        set.constraint_count[at] = std::uint8_t(rigid ? std::min(2u, k1 - k) : 0u);
      }
    }
  });
  set.pair_constraint_begin[pairs] = chunk_first.back();
  set.any_restitution = bouncy.load();
  colour_constraints(s.pair_a, s.pair_b, s.moving, w.bodies.size(), w.contact_colours);
  count_body_pushes(w);
}

}  // namespace strut
