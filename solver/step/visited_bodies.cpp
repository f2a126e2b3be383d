#include "solver/step/visited_bodies.hpp"

#include <cstring>

namespace strut {
namespace {

// Appends [first, last) to ascending runs, joining it to the last run where they meet.
void append_run(BodyRuns& runs, std::uint32_t first, std::uint32_t last) {
  if (!runs.empty() && runs.back().second >= first)
    runs.back().second = std::max(runs.back().second, last);
  else
    runs.emplace_back(first, last);
}

// Idle: static or asleep, and not soft (the struts of a sleeping soft body still act on its
// particles, so every step fits its pose again).
bool is_idle(std::uint8_t flags) {
  return (flags & (kStatic | kSleeping)) != 0 && (flags & kSoft) == 0;
}

}  // namespace

void find_visited_bodies(World::Impl& w) {
  const auto& flags = w.bodies.flags;
  auto& seen = w.visited_flags;
  auto& runs = w.scratch.body_runs;
  const std::size_t n = flags.size();
  if (w.visit_all_bodies) seen.clear();
  seen.resize(n, kUnvisited);  // created bodies (or all, after mark_all_bodies_edited)
  runs.clear();
  std::uint64_t all = 0;  // every body's flags or-ed together, eight bodies a word
  std::uint8_t tail = 0;
  constexpr std::uint64_t kLowBits = 0x0101010101010101ull, kSoftBits = kLowBits * kSoft;
  static_assert(kStatic == 1 && kSleeping == 16, "the word test reads bits 0 and 4 of each byte");
  // Whether the eight bodies at i are all idle and unchanged (or-ing their flags into `all`).
  // Bit 0 of each byte of f | f >> 4: kStatic or kSleeping (bit 4 shifted down in its byte).
  const auto idle_word = [&](std::size_t i) {
    std::uint64_t f, s;
    std::memcpy(&f, flags.data() + i, 8);
    std::memcpy(&s, seen.data() + i, 8);
    all |= f;
    return f == s && ((f | (f >> 4)) & kLowBits) == kLowBits && (f & kSoftBits) == 0;
  };
  std::size_t k = 0;
  while (k < n) {
    // Long idle stretches 32 bodies a step, one branch for the four words.
    if (k + 32 <= n && (idle_word(k) & idle_word(k + 8) & idle_word(k + 16) & idle_word(k + 24))) {
      k += 32;
      continue;
    }
    if (k + 8 <= n && idle_word(k)) {
      k += 8;
      continue;
    }
    const std::uint8_t f = flags[k];
    tail |= f;
    if (!is_idle(f) || f != seen[k]) {
      seen[k] = f;
      append_run(runs, std::uint32_t(k), std::uint32_t(k + 1));
    }
    ++k;
  }
  for (int byte = 0; byte < 8; ++byte) tail |= std::uint8_t(all >> (8 * byte));
  w.scratch.any_sleeping = (tail & kSleeping) != 0;
  w.scratch.any_kinematic = (tail & kKinematic) != 0;
}

void merge_runs(const BodyRuns& runs, const std::vector<std::uint32_t>& bodies, BodyRuns& out) {
  out.clear();
  auto run = runs.begin();
  for (const std::uint32_t k : bodies) {
    for (; run != runs.end() && run->first <= k; ++run) append_run(out, run->first, run->second);
    append_run(out, k, k + 1);
  }
  for (; run != runs.end(); ++run) append_run(out, run->first, run->second);
}

void collider_runs_of(const World::Impl& w, const BodyRuns& runs, BodyRuns& out) {
  const auto& b = w.bodies;
  out.clear();
  for (const auto& [first, last] : runs) {
    const std::uint32_t lo = b.collider_begin[first];
    const std::uint32_t hi = b.collider_begin[last - 1] + b.collider_count[last - 1];
    if (lo < hi) append_run(out, lo, hi);
  }
}

void find_solver_bodies(World::Impl& w) {
  auto& s = w.scratch;
  s.solver_runs = s.body_runs;
  if (!s.any_sleeping) return;
  const auto& flags = w.bodies.flags;
  const auto& set = w.contacts;
  auto& sleepers = s.touched_sleepers;
  sleepers.clear();
  for (std::size_t p = 0; p < set.pair_keys.size(); ++p) {
    const ContactPoint& cp = set.points[set.pair_begin[p]];  // every point has the same bodies
    if (flags[cp.body_v] & kSleeping) sleepers.push_back(cp.body_v);
    if (flags[cp.body_o] & kSleeping) sleepers.push_back(cp.body_o);
  }
  if (sleepers.empty()) return;
  std::sort(sleepers.begin(), sleepers.end());
  merge_runs(s.body_runs, sleepers, s.solver_runs);
}

}  // namespace strut
