// The world's sweep-and-prune candidate pairs against an all-pairs reference finder (here), in a
// live world: same contact pairs after every step, with layers, statics, sleeping, joints and
// removals.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <sstream>

#include "solver/step/collide_phase.hpp"
#include "solver/step/visited_bodies.hpp"
#include "solver/world_state.hpp"
#include "test_util.hpp"

namespace strut {

namespace {

void build(World& w, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> x(-15, 15), y(0.5f, 25), s(0.1f, 0.8f);
  w.create_body(test::ground_def(30));
  std::vector<BodyId> ids;
  for (int i = 0; i < 400; ++i) {
    BodyDef d;
    d.shapes = {ShapeDef{BoxShape{}}};
    d.center = {x(rng), y(rng)};
    if (i % 2)
      d.shapes[0].shape = CircleShape{s(rng)};
    else
      d.shapes[0].shape = BoxShape{{s(rng), s(rng)}};
    d.shapes[0].filter.category = 1u << (i % 3);
    d.shapes[0].filter.mask = (i % 5 == 0) ? ~2u : ~0u;
    d.is_static = i % 17 == 0;
    ids.push_back(w.create_body(d));
  }
  for (int i = 0; i + 1 < 40; i += 2) {
    if (w.state(ids[i]).is_static && w.state(ids[i + 1]).is_static) continue;
    DistanceJointDef j;
    j.a = ids[i], j.b = ids[i + 1];
    j.anchor_a = w.transform(ids[i]).position, j.anchor_b = w.transform(ids[i + 1]).position;
    w.create_joint(j);
  }
  for (int i = 50; i < 60; ++i) w.destroy_body(ids[i]);
}

// The all-pairs reference finder: every two colliders whose broad-phase boxes overlap and that
// may touch, by the rules of docs/api.md written out here on their own (not the same body, not
// destroyed, not both at rest (static or asleep), not both static or kinematic unless one is a
// sensor, never two sensors; a shared positive group always, a shared negative one never, else
// category against mask both ways; no jointed pair that does not collide). Contact pairs lower
// collider slot first; sensor pairs go to `sensors`, sensor first.
using DensePairs = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
void find_pairs_all(const WorldState& w, DensePairs& out, DensePairs* sensors = nullptr) {
  out.clear();
  const auto& b = w.bodies;
  const auto& c = w.colliders;
  const auto may_touch = [&](std::uint32_t i, std::uint32_t j) {
    const std::uint32_t bi = c.body[i], bj = c.body[j];
    const std::uint8_t fi = b.flags[bi], fj = b.flags[bj];
    if (bi == bj || ((fi | fj) & kDead)) return false;
    if ((fi & (kStatic | kSleeping)) && (fj & (kStatic | kSleeping))) return false;
    const bool sensor = c.sensor[i] || c.sensor[j];
    if (c.sensor[i] && c.sensor[j]) return false;
    if (!sensor && (fi & (kStatic | kKinematic)) && (fj & (kStatic | kKinematic))) return false;
    if (c.group[i] == c.group[j] && c.group[i] != 0) return c.group[i] > 0;
    if ((c.category[i] & c.mask[j]) == 0 || (c.category[j] & c.mask[i]) == 0) return false;
    return !std::binary_search(w.pairs.ignored.begin(), w.pairs.ignored.end(),
                               pair_key(b.slot[bi], b.slot[bj]));
  };
  for (std::uint32_t i = 0; i < c.size(); ++i) {
    for (std::uint32_t j = i + 1; j < c.size(); ++j) {
      if (!may_touch(i, j)) continue;
      const Aabb a = collider_broadphase_box(w, i), d = collider_broadphase_box(w, j);
      if (a.lower.x > d.upper.x || d.lower.x > a.upper.x) continue;
      if (a.lower.y > d.upper.y || d.lower.y > a.upper.y) continue;
      if (c.sensor[i] || c.sensor[j]) {
        if (sensors) sensors->push_back(c.sensor[i] ? std::pair{i, j} : std::pair{j, i});
        continue;
      }
      out.push_back(c.slot[i] < c.slot[j] ? std::pair{i, j} : std::pair{j, i});
    }
  }
}

std::vector<std::uint64_t> pair_set(World& w) {
  auto keys = state_of(w).contacts.pair_keys;
  std::sort(keys.begin(), keys.end());
  return keys;
}

}  // namespace

// After every step of a live world (layers, statics, sleeping, joints, removals), the candidate
// pairs of the sweep equal the all-pairs reference's on the same bounds.
TEST(WorldBroadphase, SweepAndPruneFindsTheSameContactPairsAsAllPairs) {
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    World sweep;
    build(sweep, seed);
    for (int step = 0; step < 120; ++step) {
      sweep.step(1.0f / 60);
      auto& impl = state_of(sweep);
      find_visited_bodies(impl);  // the step's first stage: the bodies the passes visit
      update_bounds(impl, 1.0f / 60);
      find_candidate_pairs(impl);
      auto a = impl.pairs.candidates;
      DensePairs b;
      find_pairs_all(impl, b);
      for (auto* v : {&a, &b}) {
        for (auto& p : *v) p = std::minmax(p.first, p.second);
        std::sort(v->begin(), v->end());
      }
      ASSERT_GT(b.size(), 0u);
      DensePairs only_a, only_b;
      std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(only_a));
      std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(only_b));
      auto show = [&](const auto& v) {
        std::ostringstream out;
        for (auto [i, j] : v) {
          const Aabb bi = impl.bodies.aabb[i], bj = impl.bodies.aabb[j];
          out << "(" << i << "," << j << " flags " << int(impl.bodies.flags[i]) << "/"
              << int(impl.bodies.flags[j]) << " gap x "
              << std::max(bi.lower.x - bj.upper.x, bj.lower.x - bi.upper.x) << " gap y "
              << std::max(bi.lower.y - bj.upper.y, bj.lower.y - bi.upper.y) << " motion "
              << impl.bodies.motion[i] + impl.bodies.motion[j] << ") ";
        }
        return out.str();
      };
      ASSERT_TRUE(only_a.empty() && only_b.empty())
          << "seed " << seed << " step " << step << "\nonly sweep: " << show(only_a)
          << "\nonly all-pairs: " << show(only_b);
    }
    EXPECT_GT(pair_set(sweep).size(), 0u);
  }
}

// A resting stack stays inside the enlarged boxes it was swept with: the broad phase stops
// sweeping, and the candidates it hands on are still exactly the overlapping pairs. A teleported
// box leaves its enlarged box and makes the next step sweep again.
TEST(WorldBroadphase, RestingStackReusesItsPairsUntilSomethingMoves) {
  WorldConfig config;
  config.enable_sleep = false;  // asleep, the stack would stop the sweep for another reason
  World w(config);
  w.create_body(test::ground_def(20));
  std::vector<BodyId> boxes;
  for (int row = 0; row < 8; ++row)
    for (int i = 0; i < 8 - row; ++i)
      boxes.push_back(w.create_body(test::box_def({float(i) - 0.5f * float(7 - row), 0.5f + row})));
  for (int step = 0; step < 120; ++step) w.step(1.0f / 60);
  auto& impl = state_of(w);
  const std::size_t sweeps = impl.pairs.sweeps;
  for (int step = 0; step < 60; ++step) {
    w.step(1.0f / 60);
    auto a = impl.pairs.candidates;
    DensePairs b;
    find_pairs_all(impl, b);
    std::sort(a.begin(), a.end()), std::sort(b.begin(), b.end());
    ASSERT_EQ(a, b) << "step " << step;
  }
  EXPECT_EQ(impl.pairs.sweeps, sweeps) << "a resting stack swept again";
  w.set_transform(boxes.back(), {10, 3}, 0);
  w.step(1.0f / 60);
  EXPECT_EQ(impl.pairs.sweeps, sweeps + 1);
}

}  // namespace strut

namespace strut {
namespace {

// Broad-phase boxes are swept along each body's motion (solver/step/bounds_kernel.hpp), not grown
// by it on every side: two boxes flying side by side at 30 m/s, 0.3 m apart (each moves 0.5 m a
// step), can never meet this step and are no candidates; the same boxes flying at each other
// from 0.3 m are; and a box flying away from another keeps no candidate with it either.
TEST(WorldBroadphase, BoxesAreSweptAlongTheirMotion) {
  const auto candidates = [](Vec2 velocity_a, Vec2 velocity_b, Vec2 offset_b) {
    World w(WorldConfig{.gravity = {0, 0}, .threads = 1});
    BodyDef a = test::box_def({0, 0});
    a.velocity = velocity_a;
    BodyDef b = test::box_def(Vec2{0, 0} + offset_b);
    b.velocity = velocity_b;
    w.create_body(a);
    w.create_body(b);
    WorldState& impl = state_of(w);
    find_visited_bodies(impl);
    find_visited_bodies(impl);
    update_bounds(impl, 1.0f / 60.0f);
    find_candidate_pairs(impl);
    return impl.pairs.candidates.size();
  };
  // Unit boxes (half-extent 0.5) with 0.3 m between them: centres 1.3 m apart.
  EXPECT_EQ(candidates({30, 0}, {30, 0}, {0, 1.3f}), 0u) << "side by side";
  EXPECT_EQ(candidates({30, 0}, {-30, 0}, {1.3f, 0}), 1u) << "head on";
  EXPECT_EQ(candidates({-30, 0}, {0, 0}, {1.3f, 0}), 0u) << "flying away";
  EXPECT_EQ(candidates({0, 0}, {0, -30}, {0, -1.3f}), 0u) << "b flying away below";
  EXPECT_EQ(candidates({0, 0}, {0, 30}, {0, 1.3f}), 0u) << "b flying away above";
  EXPECT_EQ(candidates({0, 0}, {0, -30}, {0, 1.3f}), 1u) << "b falling onto a";
}

// The contact pairs come grouped by their first collider (dense, in the bodies' creation order),
// in the broad phase's order within a group, so the narrow phase and the colouring take a body's
// pairs together. Two rows of touching boxes far apart in y and interleaved in x: the sweep alone
// lists their pairs alternately from one row and the other.
// idle_statics static boxes far away, created first: with many of them the few pairs are
// grouped by a stable sort instead of the counting sort over every collider, in the same order.
void expect_pairs_grouped_by_first_collider(int idle_statics) {
  World w(WorldConfig{.gravity = {0, 0}, .threads = 1});
  for (int i = 0; i < idle_statics; ++i) {
    BodyDef d = test::box_def({1000.0f + 3.0f * float(i % 50), 3.0f * float(i / 50)});
    d.is_static = true;
    w.create_body(d);
  }
  for (const float y : {0.0f, 10.0f})
    for (int i = 0; i < 40; ++i) w.create_body(test::box_def({float(i) + 0.5f * (y > 0), y}));
  WorldState& impl = state_of(w);
  find_visited_bodies(impl);
  update_bounds(impl, 1.0f / 60.0f);
  find_candidate_pairs(impl);
  const auto& pairs = impl.pairs.candidates;
  ASSERT_EQ(pairs.size(), 78u) << "39 touching neighbours in each row";
  // Where each pair stands in the broad phase's own order (its proxies are collider slots).
  const auto& slot = impl.colliders.slot;
  const auto sweep_index = [&](std::pair<std::uint32_t, std::uint32_t> p) {
    const auto& found = impl.pairs.broadphase_pairs;
    for (std::size_t i = 0; i < found.size(); ++i)
      if (pair_key(found[i].a, found[i].b) == pair_key(slot[p.first], slot[p.second])) return i;
    return found.size();
  };
  bool rows_interleaved_in_the_sweep = false;
  for (std::size_t k = 1; k < pairs.size(); ++k) {
    EXPECT_LE(pairs[k - 1].first, pairs[k].first) << "pair " << k << " out of its group";
    if (pairs[k - 1].first == pairs[k].first) {
      EXPECT_LT(sweep_index(pairs[k - 1]), sweep_index(pairs[k])) << "pair " << k;
    }
    rows_interleaved_in_the_sweep |= sweep_index(pairs[k - 1]) > sweep_index(pairs[k]);
  }
  EXPECT_TRUE(rows_interleaved_in_the_sweep) << "the sweep's own order was already grouped";
}

TEST(WorldBroadphase, ContactPairsAreGroupedByTheirFirstCollider) {
  expect_pairs_grouped_by_first_collider(0);
}

TEST(WorldBroadphase, FewContactPairsAmongManyCollidersAreGroupedAlike) {
  expect_pairs_grouped_by_first_collider(2000);
}

}  // namespace
}  // namespace strut
