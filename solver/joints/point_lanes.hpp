// Joint points (point_motion.hpp) in SIMD lanes: kWideLanes (16) rows of one colour a group, SoA,
// for the velocity passes and, where a joint's solve is nothing but the point, for the position
// projection. The kernels (point_kernels.hpp) are written once as templates over the number type,
// like the contact kernel (contacts/contact_wide.hpp): instantiated with float they are the
// scalar twin, with an xsimd batch the SIMD kernel of each level, dispatched at run time
// (point_group_kernels.hpp, solver/simd/simd_dispatch.hpp), and all give the same bits (same
// operations in the same order, -ffp-contract=off), which tests/joint_lanes_test.cpp and
// tests/simd_dispatch_test.cpp check. Rows of one colour share no movable body, so a group's lanes
// are independent; the overflow colour's may share one and run through the scalar twin, lane
// after lane.
#pragma once

#include <cstdint>

#include "solver/contacts/contact_wide.hpp"
#include "strut/math.hpp"

namespace strut {

// Marks the unused lanes at the end of a colour's last group (PointGroup::joint): every lane
// after an unused one is unused too, which the scalar twins rely on to stop there.
inline constexpr std::uint32_t kPointPadding = ~0u;

// kWideLanes point rows (1280 bytes): the bodies (dense), their inverse masses, the
// anchors in the bodies' frames and their world arms, the inverse of the 2x2 effective mass
// (refreshed when the poses change), and the position impulse (N s^2) carried from substep to
// substep. Padding lanes repeat lane 0's bodies (so a full gather reads only bodies this group
// owns or never writes) with zero masses, which write nothing.
struct alignas(64) PointGroup {
  std::uint32_t a[kWideLanes], b[kWideLanes];
  float ma[kWideLanes], mb[kWideLanes], ia[kWideLanes], ib[kWideLanes];
  float lax[kWideLanes], lay[kWideLanes], lbx[kWideLanes], lby[kWideLanes];
  float rax[kWideLanes], ray[kWideLanes], rbx[kWideLanes], rby[kWideLanes];
  float k11[kWideLanes], k12[kWideLanes], k22[kWideLanes];
  float px[kWideLanes], py[kWideLanes];
  std::uint32_t joint[kWideLanes];  // index in JointStore::dense; kPointPadding when unused
};

// A revolute joint's angle rows for one substep of length h, computed from its definition as the
// type's solve computes them: the spring and the two limit rows its projection solves after the
// point (revolute_joint.cpp), and the motor and the limits its velocity passes hold (AngleMotion
// in solver/joints/joint.hpp).
struct AngleRows {
  bool spring = false, motor = false, limit = false;
  float spring_per_mass = 0, spring_gamma = 0;  // spring_softness(hertz, damping_ratio, h)
  float motor_shift = 0, motor_bound = 0;       // speed x h, max_effort x h x h
  float lower = 0, upper = 0;
  Rot reference;  // the relative rotation that is angle 0
};

// The projected angle rows of a PointGroup's lanes (same index): spring and limits; where no
// lane has any (`any` false) the projection is the point's alone. Flags are 1 or 0 per lane. The
// multipliers (spring, lower and upper limit) restart at a substep's first iteration, and torque
// adds up a substep's angular impulses (N m s^2), the joint's reaction.
struct alignas(64) AngleGroup {
  float spring[kWideLanes], limit[kWideLanes];
  float spring_per_mass[kWideLanes], spring_gamma[kWideLanes];
  float lower[kWideLanes], upper[kWideLanes];
  float ref_c[kWideLanes], ref_s[kWideLanes];
  float lambda_spring[kWideLanes];
  float lambda_lower[kWideLanes], lambda_upper[kWideLanes];
  float torque[kWideLanes];
  bool any = false;
};

// Lane `lane` of a: a joint's projected angle rows (any lane left alone has none).
inline void fill_angle_lane(AngleGroup& a, int lane, const AngleRows& r) {
  a.spring[lane] = r.spring, a.limit[lane] = r.limit;
  a.spring_per_mass[lane] = r.spring_per_mass, a.spring_gamma[lane] = r.spring_gamma;
  a.lower[lane] = r.lower, a.upper[lane] = r.upper;
  a.ref_c[lane] = r.reference.c, a.ref_s[lane] = r.reference.s;
  a.any = a.any || r.spring || r.limit;
}

// The body arrays the passes read and write (the solver's dense BodyArrays).
struct PointSpans {
  float *px, *py, *qc, *qs, *dx, *dy, *da;
};

// Groups [lo, hi) of one colour: arms and masses from the poses now, then (warm_start) the
// carried impulse applied. The _wide versions run the SIMD kernels of the level in use; the
// _scalar twins run the same kernels lane after lane, so lanes may share bodies (the overflow
// colour).
void refresh_point_groups_wide(const PointSpans& s, PointGroup* groups, std::uint32_t lo,
                               std::uint32_t hi, bool warm_start);
void refresh_point_groups_scalar(const PointSpans& s, PointGroup* groups, std::uint32_t lo,
                                 std::uint32_t hi, bool warm_start);
// One velocity pass over groups [lo, hi) of one colour. The scalar twin also returns the largest
// relative motion of an anchor it met (x or y, before its correction), which tells the passes
// when they have converged (joint_motion_passes).
void solve_point_groups_wide(const PointSpans& s, PointGroup* groups, std::uint32_t lo,
                             std::uint32_t hi);
float solve_point_groups_scalar(const PointSpans& s, PointGroup* groups, std::uint32_t lo,
                                std::uint32_t hi);
// The position projection of groups [lo, hi) of one colour (revolute joints between rigid
// bodies): the points, then the projected angle rows of angles[g] (the group's own index) where it
// has any; first: the substep's first iteration (the angle rows' multipliers restart). Poses and
// motion.
void project_point_groups_wide(const PointSpans& s, const PointGroup* groups, AngleGroup* angles,
                               std::uint32_t lo, std::uint32_t hi, bool first);
void project_point_groups_scalar(const PointSpans& s, const PointGroup* groups, AngleGroup* angles,
                                 std::uint32_t lo, std::uint32_t hi, bool first);

}  // namespace strut
