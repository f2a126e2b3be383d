// A step visits only the awake moving bodies and those changed since their last visit
// (solver/step/visited_bodies.hpp); idle bodies keep what their last visit computed. A world
// whose every step visits every body must stay the same bit for bit, whatever the program does
// to idle bodies between steps.
#include "solver/step/visited_bodies.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "solver/world_state.hpp"
#include "test_util.hpp"

namespace strut {

namespace {

struct Scene {
  std::vector<BodyId> pyramid;  // settles and sleeps
  std::vector<BodyId> asleep;   // created asleep, far away
  BodyId wall, platform;        // static, kinematic
  std::vector<BodyId> bullets;  // thrown in and destroyed as they age
  std::vector<BodyId> late;     // created asleep later: one given a shape, one destroyed
};

Scene build(World& w, bool joints_and_soft) {
  Scene s;
  w.create_body(test::ground_def(40));
  for (int r = 0; r < 5; ++r)
    for (int i = 0; i < 5 - r; ++i)
      s.pyramid.push_back(w.create_body(test::box_def({float(i) - 0.5f * float(4 - r), 0.5f + r})));
  for (int i = 0; i < 6; ++i) {
    BodyDef d = test::box_def({15.0f + float(i), 0.5f});
    d.awake = false;
    s.asleep.push_back(w.create_body(d));
  }
  BodyDef wall = test::box_def({-12, 2}, {0.3f, 2});
  wall.is_static = true;
  s.wall = w.create_body(wall);
  BodyDef platform = test::box_def({-25, 3}, {1, 0.2f});
  platform.is_kinematic = true;
  s.platform = w.create_body(platform);
  if (joints_and_soft) {  // the contact passes gather and scatter around the joints
    test::hang_soft_box(w, 30, 1e-4f);
    BodyDef pivot = test::box_def({-30, 10}, {0.1f, 0.1f});
    pivot.is_static = true;
    RevoluteJointDef j;
    j.a = w.create_body(pivot), j.b = w.create_body(test::box_def({-28, 10}, {0.2f, 0.2f}));
    j.anchor = {-30, 10};
    w.create_joint(j);
  }
  return s;
}

// What the program does between steps: every kind of edit of idle bodies, and a few of awake.
void edit(World& w, Scene& s, int step) {
  if (step >= 100 && step % 7 == 0) {  // bullets: created at the end, the oldest destroyed
    BodyDef ball;
    ball.shapes = {ShapeDef{CircleShape{0.1f}}};
    ball.center = {-3, 8};
    ball.velocity = {2, 0};
    s.bullets.push_back(w.create_body(ball));
    if (s.bullets.size() > 4) {
      w.destroy_body(s.bullets.front());
      s.bullets.erase(s.bullets.begin());
    }
  }
  switch (step) {
    case 150: {  // a ball thrown into the sleeping pyramid (created; wakes it by contact)
      BodyDef ball;
      ball.shapes = {ShapeDef{.shape = CircleShape{0.3f}, .material = {.density = 5}}};
      ball.center = {-6, 0.5f};
      ball.velocity = {25, 0};
      w.create_body(ball);
      break;
    }
    case 130:  // a crowd: boxes created at one point, pushed apart at a shared cap
      for (int i = 0; i < 10; ++i) w.create_body(test::box_def({8, 0.5f}, {0.3f, 0.3f}));
      break;
    case 160:
      w.set_transform(s.wall, {3.5f, 2}, 0.1f);
      break;  // moved where boxes fly
    case 170:
      w.apply_force(s.asleep[0], {0, 400});
      break;  // a sleeper pushed
    case 180:
      w.set_type(s.asleep[3], BodyType::Static);
      break;
    case 200:
      w.set_type(s.asleep[3], BodyType::Dynamic);
      break;
    case 210:
      w.destroy_body(s.asleep[5]);
      break;  // compaction renumbers the bodies
    case 220:
      w.set_linear_velocity(s.platform, {3, 0});
      break;
    case 240:
      w.set_gravity_scale(s.asleep[1], -0.5f);
      break;
    case 250:  // an awake box set down on a sleeper: wakes its island, all of it still
      w.create_body(test::box_def({17, 1.5f}));
      break;
    case 260:
      w.set_linear_drag(s.asleep[2], 2);
      break;
    case 262:  // two sleepers side by side, each its own island
      for (const float x : {30.0f, 31.0f}) {
        BodyDef d = test::box_def({x, 0.5f});
        d.awake = false;
        s.late.push_back(w.create_body(d));
      }
      break;
    case 266:  // a sleeper laid out again (an island of its own, still asleep)
      w.add_shape(s.late[0], ShapeDef{.shape = CircleShape{0.3f}, .offset = {0, 0.6f}});
      break;
    case 268:
      w.destroy_body(s.late[1]);
      break;
    case 290:  // a box dropped on the reshaped sleeper wakes it
      w.create_body(test::box_def({30, 2.5f}));
      break;
    case 280:
      w.put_to_sleep(s.asleep[1]);
      break;
    case 300:
      w.set_transform(s.asleep[4], {16, 3}, 0.5f);
      break;  // a sleeper teleported
    case 320:
      w.set_material(s.wall, Material{.friction = 0.1f});
      break;
    default:
      break;
  }
}

// Every body's pose, motion and sleep, bit for bit, and the particles (state_hash).
std::vector<std::uint32_t> fingerprint(const World& w) {
  std::vector<std::uint32_t> out;
  for (const BodyId id : w.bodies()) {
    const BodyState st = w.state(id);
    for (const float f : {st.transform.position.x, st.transform.position.y, st.transform.angle,
                          st.velocity.x, st.velocity.y, st.angular_velocity})
      out.push_back(test::bits(f));
    out.push_back(w.is_sleeping(id));
  }
  const std::uint64_t h = w.state_hash();
  out.push_back(std::uint32_t(h)), out.push_back(std::uint32_t(h >> 32));
  return out;
}

// What find_visited_bodies keeps between steps agrees with the flags: every body whose flags
// changed since the last visit is among the edited bodies (mark_body_edited), and the kept runs
// and counts are those of the flags at the last visit.
bool kept_runs_match_the_flags(World& w) {
  const WorldState& impl = state_of(w);
  const auto& flags = impl.bodies.flags;
  const auto& seen = impl.bodies.visited_flags;
  if (seen.size() != flags.size()) return false;
  BodyRuns awake;
  std::uint32_t sleeping = 0, kinematic = 0;
  for (std::uint32_t k = 0; k < seen.size(); ++k) {
    if (seen[k] != flags[k] && std::find(impl.bodies.edited.begin(), impl.bodies.edited.end(), k) ==
                                   impl.bodies.edited.end())
      return false;
    sleeping += (seen[k] & kSleeping) != 0;
    kinematic += (seen[k] & kKinematic) != 0;
    const bool idle = (seen[k] & (kStatic | kSleeping)) && !(seen[k] & kSoft);
    if (idle) continue;
    if (!awake.empty() && awake.back().second == k)
      ++awake.back().second;
    else
      awake.emplace_back(k, k + 1);
  }
  return awake == impl.bodies.awake_runs && sleeping == impl.bodies.sleeping_count &&
         kinematic == impl.bodies.kinematic_count;
}

// The reference a step that skips idle bodies is compared against: every body marked edited, so
// the coming step visits them all.
void visit_every_body_next_step(World& w) {
  WorldState& impl = state_of(w);
  for (std::uint32_t k = 0; k < impl.bodies.size(); ++k) mark_body_edited(impl, k);
}

// A wake finds an island's sleepers in its list (islands.cpp, take_sleepers), not by a scan of
// every body: every body asleep (and not destroyed) is listed under its island.
bool sleepers_are_listed(World& w) {
  const WorldState& impl = state_of(w);
  const auto& b = impl.bodies;
  for (std::uint32_t k = 0; k < b.size(); ++k) {
    if ((b.flags[k] & (kSleeping | kDead)) != kSleeping) continue;
    const auto listed = impl.islands.sleepers.find(b.island[k]);
    if (listed == impl.islands.sleepers.end() ||
        std::find(listed->second.begin(), listed->second.end(), b.slot[k]) == listed->second.end())
      return false;
  }
  return true;
}

void expect_same_as_visiting_all(bool joints_and_soft) {
  World skipping(WorldConfig{.threads = 2}), visiting(WorldConfig{.threads = 2});
  Scene a = build(skipping, joints_and_soft), b = build(visiting, joints_and_soft);
  std::size_t fewest_visited = ~std::size_t{0};
  bool crowded = false;  // some step scaled bodies' push-out (prepare_contacts)
  for (int step = 0; step < 360; ++step) {
    edit(skipping, a, step);
    edit(visiting, b, step);
    visit_every_body_next_step(visiting);
    skipping.step(1.0f / 60);
    visiting.step(1.0f / 60);
    const auto fa = fingerprint(skipping), fb = fingerprint(visiting);
    if (fa != fb) {
      std::size_t i = 0;
      while (i < fa.size() && fa[i] == fb[i]) ++i;
      FAIL() << "step " << step << ": body " << i / 7 << ", field " << i % 7 << " differs";
    }
    ASSERT_TRUE(kept_runs_match_the_flags(skipping)) << "step " << step;
    ASSERT_TRUE(sleepers_are_listed(skipping)) << "step " << step;
    std::size_t all = 0;  // the reference did visit every body
    for (const auto& [first, last] : state_of(visiting).scratch.body_runs) all += last - first;
    ASSERT_EQ(all, state_of(visiting).bodies.size()) << "step " << step;
    crowded |= !state_of(skipping).scratch.scaled_bodies.empty();
    std::size_t visited = 0;
    for (const auto& [first, last] : state_of(skipping).scratch.body_runs) visited += last - first;
    fewest_visited = std::min(fewest_visited, visited);
  }
  // The scene did put bodies to sleep and skip them: the pyramid and the sleepers' row.
  EXPECT_LT(fewest_visited + 20, skipping.bodies().size());
  EXPECT_TRUE(skipping.is_sleeping(a.pyramid[0]));
  EXPECT_TRUE(crowded);
}

}  // namespace

TEST(VisitedBodies, SkippingIdleBodiesGivesTheBitsOfVisitingEveryBody) {
  expect_same_as_visiting_all(false);
}

TEST(VisitedBodies, SkippingIdleBodiesBesideJointsAndSoftBodiesGivesTheSameBits) {
  expect_same_as_visiting_all(true);
}

// Two bodies that no step visits: one created static, one created asleep; the program's edits
// make the next step visit them, and only then.
TEST(VisitedBodies, AStepVisitsAnIdleBodyOnlyAfterItChanged) {
  World w(WorldConfig{.threads = 1});
  BodyDef wall = test::box_def({0, 0});
  wall.is_static = true;
  const BodyId still = w.create_body(wall);
  BodyDef sleeper = test::box_def({5, 0});
  sleeper.awake = false;
  const BodyId asleep = w.create_body(sleeper);
  const auto visited = [&w](BodyId id) {
    const auto& impl = state_of(w);
    const std::uint32_t k = impl.bodies.slots[id.index - 1].dense;
    for (const auto& [first, last] : impl.scratch.body_runs)
      if (k >= first && k < last) return true;
    return false;
  };
  w.step(1.0f / 60);
  EXPECT_TRUE(visited(still) && visited(asleep)) << "created: visited once";
  w.step(1.0f / 60);
  EXPECT_FALSE(visited(still) || visited(asleep)) << "idle and unchanged";
  w.set_transform(still, {0, 1}, 0);
  w.step(1.0f / 60);
  EXPECT_TRUE(visited(still));
  EXPECT_FALSE(visited(asleep));
  w.step(1.0f / 60);
  EXPECT_FALSE(visited(still));
  EXPECT_FLOAT_EQ(w.transform(still).position.y, 1.0f);
  w.wake(asleep);
  w.step(1.0f / 60);
  EXPECT_TRUE(visited(asleep));
  EXPECT_FALSE(w.is_sleeping(asleep));
}

// The kept runs of bodies that are not idle, updated from the edited ones, against a body-by-body
// reading: every length, every place of an awake body among idle ones, and that body put to
// sleep (visited once more, then skipped) and woken.
TEST(VisitedBodies, TheKeptRunsAreThoseOfABodyByBodyReading) {
  const auto runs_of = [](const std::vector<bool>& visited) {
    BodyRuns runs;
    for (std::uint32_t k = 0; k < visited.size(); ++k)
      if (visited[k] && !runs.empty() && runs.back().second == k)
        ++runs.back().second;
      else if (visited[k])
        runs.emplace_back(k, k + 1);
    return runs;
  };
  for (int n = 1; n <= 80; n += 3) {
    for (int lone = 0; lone < n; lone += 5) {  // one awake body among idle ones, and a pair
      World w(WorldConfig{.gravity = {0, 0}, .threads = 1});
      std::vector<bool> awake(std::size_t(n), false);
      std::vector<BodyId> ids;
      for (int i = 0; i < n; ++i) {
        BodyDef d = test::box_def({3.0f * float(i), 0});
        awake[std::size_t(i)] = i == lone || (i == n - 2 && n > 40);
        d.is_static = !awake[std::size_t(i)] && i % 2 == 0;
        d.awake = awake[std::size_t(i)] || d.is_static;
        ids.push_back(w.create_body(d));
      }
      const auto& runs = state_of(w).scratch.body_runs;
      w.step(1.0f / 60);  // visits every created body
      w.step(1.0f / 60);
      ASSERT_EQ(runs, runs_of(awake)) << n << " bodies, awake " << lone;
      w.put_to_sleep(ids[std::size_t(lone)]);
      w.step(1.0f / 60);
      ASSERT_EQ(runs, runs_of(awake)) << n << " bodies, " << lone << " put to sleep";
      awake[std::size_t(lone)] = false;
      w.step(1.0f / 60);
      ASSERT_EQ(runs, runs_of(awake)) << n << " bodies, " << lone << " asleep";
      w.wake(ids[std::size_t(lone)]);
      awake[std::size_t(lone)] = true;
      w.step(1.0f / 60);
      ASSERT_EQ(runs, runs_of(awake)) << n << " bodies, " << lone << " woken";
    }
  }
}

}  // namespace strut
