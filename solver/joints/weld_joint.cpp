// Weld joint: b keeps its pose relative to a. Rigid, the point and the angle are solved as one
// 3x3 block (solved one after the other they undo each other: a cantilever sagged 12 cm on a
// 1 m beam), and also held by velocity passes warm started across substeps (row_motion.hpp);
// soft, the angle and the point are springs of their own frequencies.
#include "solver/joints/joint_ops.hpp"
#include "solver/joints/joint_rows.hpp"
#include "solver/joints/joint_solver.hpp"

namespace strut {
namespace {

const WeldJointDef& def_of(const Joint& j) { return std::get<WeldJointDef>(j.def); }
bool is_rigid(const WeldJointDef& d) { return d.linear_hertz == 0 && d.angular_hertz == 0; }

void validate(const WorldState& w, const JointDef& any, std::uint32_t a, std::uint32_t b) {
  const auto& d = std::get<WeldJointDef>(any);
  check_finite_field(d.anchor, "anchor");
  if (d.reference_angle) check_finite_field(*d.reference_angle, "reference_angle");
  check_hertz(d.linear_hertz, "linear_hertz");
  check_hertz(d.angular_hertz, "angular_hertz");
  check_damping_ratio(d.damping_ratio, "damping_ratio");
  require_rigid(w, a, b, "a weld joint");
}

// A rigid weld holds b's whole pose, so its rows are anchored between the centres
// (rows_between_centres; at its anchor 131 km away, fuzz_api, a 3x3 block of 1e10-sized arm
// terms beside the angle's 1 / I turned both bodies NaN). A soft weld's anchor is where it bends.
void init(const WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b) {
  const WeldJointDef& d = def_of(j);
  const Vec2 anchor = is_rigid(d) ? rows_between_centres(w, j, a, b, d.anchor) : d.anchor;
  init_shared_anchor(w, j, a, b, anchor, d.reference_angle);
}

// The point's two rows (along x and y) and its gap.
void point(const WorldState& w, const Joint& j, const JointBodies& q, Row rows[2], float c[2]) {
  const Vec2 ra = world_arm(w, q.a, j.anchor_a.local), rb = world_arm(w, q.b, j.anchor_b.local);
  const Vec2 gap = body_center(w, q.b) + rb - body_center(w, q.a) - ra;
  rows[0] = point_row({1, 0}, ra, rb), rows[1] = point_row({0, 1}, ra, rb);
  c[0] = gap.x, c[1] = gap.y;
}

// A rigid weld's point and angle. A soft weld has none: its rigid part held at the velocity
// level and corrected in pose alone, the other part's damper no longer saw the whole turn and a
// 5 Hz angular spring bent 20% further than its stiffness says (point rigid, 4 substeps).
int rigid_rows(const WorldState& w, const Joint& j, const JointBodies& q, Row* out, RowSpring&) {
  if (!is_rigid(def_of(j))) return 0;
  float c[2];
  point(w, j, q, out, c);
  out[2] = angle_row();
  return 3;
}

// Rigid, the rows are held at the velocity level (row_motion.hpp): here they correct the pose
// only, not the motion, and their reaction is the carried impulse. Correcting the motion too,
// the relax passes took that velocity back out of the carried impulse: a 10-box welded
// cantilever sagged 0.12 m instead of 0.10 m (1 iteration, 4 substeps), 0.061 m instead of
// 0.026 m (4 x 4), and the root weld's reaction read up to 6% low. The price: a pose-only
// correction is unseen by the dampers of springs on the same bodies (a sprung wheel carrying a
// welded load sags 9.5% past its static deflection at 4 iterations, 0.01% with the motion
// corrected too;
// tests/rigid_rows_test.cpp).
void solve(WorldState& w, Joint& j, std::uint32_t a, std::uint32_t b, float h) {
  const auto& d = def_of(j);
  const JointBodies q = joint_bodies(w, a, b);
  if (is_rigid(d)) {
    Row rows[3];
    float c[3];
    point(w, j, q, rows, c);
    rows[2] = angle_row();
    c[2] = joint_angle(w, q, j.reference);
    float lambda[3] = {j.lambda_point.x, j.lambda_point.y, j.lambda[0]}, applied[3];
    solve_block(w, q, rows, 3, c, {}, lambda, applied, kUnbounded, Moves::PoseOnly);
    j.lambda_point = {lambda[0], lambda[1]};
    j.lambda[0] = lambda[2];
    return;
  }
  // Soft: the point first, then the angle, so that the angular spring's damper sees the
  // substep's final turn; the other way round it saw the turn the point was about to undo and
  // a 5 Hz weld bent 28% further than its stiffness says (4 substeps).
  Row rows[2];
  float c[2];
  point(w, j, q, rows, c);
  const Softness1 linear =
      d.linear_hertz > 0 ? spring_softness(d.linear_hertz, d.damping_ratio, h) : Softness1{};
  float lambda[2] = {j.lambda_point.x, j.lambda_point.y}, applied[2];
  solve_block(w, q, rows, 2, c, linear, lambda, applied);
  j.lambda_point = {lambda[0], lambda[1]};
  j.reaction_force += Vec2{applied[0], applied[1]};
  const Softness1 angular =
      d.angular_hertz > 0 ? spring_softness(d.angular_hertz, d.damping_ratio, h) : Softness1{};
  j.reaction_torque +=
      solve_row(w, q, angle_row(), joint_angle(w, q, j.reference), angular, j.lambda[0]);
}

void read(const WorldState& w, const Joint& j, std::uint32_t a, std::uint32_t b, float h,
          JointReading& out) {
  out.angle = joint_angle(w, joint_bodies(w, a, b), j.reference);
  out.speed = (w.bodies.da[b] - w.bodies.da[a]) / h;
  if (is_rigid(def_of(j))) torque_about_given_anchor(w, j, b, out);
}

}  // namespace

const JointOps kWeldJointOps{validate, init, solve, read, false, nullptr, rigid_rows};

}  // namespace strut
