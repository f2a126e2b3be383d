// A steady step allocates nothing: after the worlds have settled into their steady state (the
// scratch grown to its size), 100 more steps of a lander (two motored joints on a chain
// terrain, its engine pulsing so it hops and its contacts come and go) and of a 30-box pile
// make no heap allocation, their events read every step. Its own executable: it counts through a
// replaced global operator new.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "tools/worlds/small_worlds.hpp"

namespace {
std::atomic<long> allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace strut {
namespace {

long allocations_of_steps(World& w, int step_from, int steps, bool lander_thrust, BodyId hull) {
  const long before = allocations.load();
  for (int s = step_from; s < step_from + steps; ++s) {
    if (lander_thrust) w.apply_force(hull, worlds::lander_thrust(s));
    w.step(1.0f / 60);
    // Read, as a program does: unread event lists keep growing (World's contract).
    w.contact_begin_events(), w.contact_end_events(), w.contact_hit_events();
    w.sensor_begin_events(), w.sensor_end_events(), w.joint_events();
  }
  return allocations.load() - before;
}

TEST(SteadyStep, ALanderStepAllocatesNothing) {
  World w(WorldConfig{.threads = 1});
  const worlds::Lander l = worlds::build_lander(w, 0);
  allocations_of_steps(w, 0, 1200, true, l.hull);
  EXPECT_EQ(allocations_of_steps(w, 1200, 300, true, l.hull), 0);
}

TEST(SteadyStep, APileStepAllocatesNothing) {
  World w(WorldConfig{.threads = 1});
  worlds::build_pile30(w, 0);
  allocations_of_steps(w, 0, 400, false, {});
  EXPECT_EQ(allocations_of_steps(w, 400, 100, false, {}), 0);
}

}  // namespace
}  // namespace strut
