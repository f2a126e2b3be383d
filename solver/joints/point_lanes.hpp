// Joint points (point_motion.hpp) in SIMD lanes: kWideLanes (16) rows of one colour a group, SoA,
// for the velocity passes and, where a joint's solve is nothing but the point, for the position
// projection. The kernels (point_kernels.hpp) are written once as templates over the number type,
// like the contact kernel (contacts/contact_wide.hpp): instantiated with float they are the
// scalar twin, with an xsimd batch the SIMD kernel of each level, dispatched at run time
// (point_group_kernels.hpp, solver/simd_dispatch.hpp), and all give the same bits (same
// operations in the same order, -ffp-contract=off), which tests/joint_lanes_test.cpp and
// tests/simd_dispatch_test.cpp check. Rows of one colour share no movable body, so a group's lanes
// are independent; the overflow colour's may share one and run through the scalar twin, lane
// after lane.
#pragma once

#include <cstdint>

#include "solver/contacts/contact_wide.hpp"

namespace strut {

// Marks the unused lanes at the end of a colour's last group (PointGroup::joint).
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
  std::uint32_t joint[kWideLanes];  // index in World::Impl::joints; kPointPadding when unused
};

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
// One velocity pass over groups [lo, hi) of one colour.
void solve_point_groups_wide(const PointSpans& s, PointGroup* groups, std::uint32_t lo,
                             std::uint32_t hi);
void solve_point_groups_scalar(const PointSpans& s, PointGroup* groups, std::uint32_t lo,
                               std::uint32_t hi);
// The position projection of the points of groups [lo, hi) of one colour (revolute joints whose
// solve is nothing else): poses and motion.
void project_point_groups_wide(const PointSpans& s, const PointGroup* groups, std::uint32_t lo,
                               std::uint32_t hi);
void project_point_groups_scalar(const PointSpans& s, const PointGroup* groups, std::uint32_t lo,
                                 std::uint32_t hi);

}  // namespace strut
