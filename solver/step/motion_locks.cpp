// Motion locks (Box2D v3's b2MotionLocks) as a projection: the solver sees a locked body as free,
// and the lock takes back what moved it along the axis, when positions integrate and after the
// substeps.
//
// Why not a per-axis inverse mass (1/m along x, 0 along y) in the solvers: exact, but every
// solver would need it. The wide contact kernel takes one inverse mass per body for both axes
// (WideConstraint::ima, imb) and so do the joint point kernels (wide::push); two rows in place of
// one would grow every wide constraint by 128 bytes and change the effective masses' arithmetic
// for every body (k = ima nx^2 + ima ny^2 is not ima in float), so unlocked bodies would lose
// their bits, or pay a select per row. The projection costs nothing while no body is locked
// (BodyStore::locked_count, one test per integration chunk) and touches no kernel.
//
// The price, measured (tests/motion_lock_test.cpp): the solver's effective masses take a locked
// body as free along its locked axis, so part of each impulse is taken back and a contact
// converges over substeps rather than in one: a box locked in x resting on a 30 degree slope
// rests 0.77 mm deep where the same box held by friction rests 0.06 mm deep; joints hold a
// little looser (squishy, as Box2D's own sample says).
#include <string>

#include "solver/bodies/body_store.hpp"
#include "solver/core/stores.hpp"
#include "solver/step/integrate_stages.hpp"
#include "solver/step/step_scratch.hpp"
#include "solver/step/visited_bodies.hpp"
#include "strut/world.hpp"

namespace strut {

void apply_motion_locks(Stores<WritesBodies> w, std::uint32_t lo, std::uint32_t hi) {
  if (w.bodies.locked_count == 0) return;
  auto& b = w.bodies;
  for (std::uint32_t k = lo; k < hi; ++k) {
    const std::uint8_t locks = b.locks[k];
    if (locks == 0 || !(b.inv_mass[k] > 0)) continue;
    if (locks & kLockX) b.px[k] = b.lock_at[k].x, b.dx[k] = 0.0f;
    if (locks & kLockY) b.py[k] = b.lock_at[k].y, b.dy[k] = 0.0f;
  }
}

void apply_motion_locks_to_solver_runs(Stores<WritesBodies, ReadsScratch> w) {
  if (w.bodies.locked_count == 0) return;
  for (const auto& [first, last] : w.scratch.solver_runs) apply_motion_locks(w, first, last);
}

void drop_locked_motion(WorldState& w, std::uint32_t k) {
  auto& b = w.bodies;
  if (b.locks[k] & kLockX) b.dx[k] = 0.0f;
  if (b.locks[k] & kLockY) b.dy[k] = 0.0f;
}

void World::set_motion_locks(BodyId id, bool x, bool y, bool rotation) {
  auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "set_motion_locks");
  if (!w.bodies.is_rigid(k) && (x || y || rotation))
    throw Error("set_motion_locks: " +
                std::string(x   ? "x"
                            : y ? "y"
                                : "rotation") +
                ": a soft body cannot be locked (rigid only)");
  auto& b = w.bodies;
  const std::uint8_t locks = std::uint8_t((x ? kLockX : 0) | (y ? kLockY : 0));
  if (b.locks[k] == 0 && locks != 0) ++w.bodies.locked_count;
  if (b.locks[k] != 0 && locks == 0) --w.bodies.locked_count;
  // A newly locked axis is held where the body is now; one already locked keeps its place.
  if ((locks & kLockX) && !(b.locks[k] & kLockX)) b.lock_at[k].x = b.px[k];
  if ((locks & kLockY) && !(b.locks[k] & kLockY)) b.lock_at[k].y = b.py[k];
  b.locks[k] = locks;
  drop_locked_motion(w, k);
  BodyDef& def = w.bodies.cold[k].def;
  def.lock_x = x, def.lock_y = y;
  if (w.bodies.is_rigid(k)) {
    def.fixed_rotation = rotation;
    const bool dynamic = !(b.flags[k] & (kStatic | kKinematic));
    b.inv_inertia[k] = dynamic && !rotation && b.inertia[k] > 0 ? 1.0f / b.inertia[k] : 0.0f;
    w.joints.mark_changed();  // the joints' lanes hold the masses
    if (rotation) b.da[k] = 0.0f;
  }
  mark_body_edited(w, k);
  wake(id);
}

}  // namespace strut
