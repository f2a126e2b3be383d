// The features of a wide constraint's points (contact_prepare.hpp reads them), kept beside the
// constraint from step to step.
#pragma once

#include <cstdint>

#include "solver/contacts/contact_wide.hpp"

namespace strut {

// The features of one point per lane (a wide constraint's first or its second points), in their
// bodies' frames: they change only when the narrow phase chooses new features, so a wide
// constraint keeps its rows between steps (WideFeatures) and a pair the contact cache kept costs
// the prepare no gather. A rounded feature (a circle's centre, a capsule's segment, a rounded
// polygon) has its anchor on its surface, rv or ro out along the normal.
struct alignas(64) FeatureRows {
  float vlx[kContactLanes], vly[kContactLanes];  // the vertex, in its body
  // VertexEdge: the edge's ends; VertexVertex: the other vertex in both.
  float l1x[kContactLanes], l1y[kContactLanes], l2x[kContactLanes], l2y[kContactLanes];
  float edge[kContactLanes];                     // 1: VertexEdge, 0: VertexVertex
  float rv[kContactLanes], ro[kContactLanes];    // the features' radii
  float fnx[kContactLanes], fny[kContactLanes];  // the point's normal (ContactPoint::nx, ny)
  // 1 where the point is there / where its vertex is on the lane's body a (flipped: its row
  // was mirrored), else 0.
  float present[kContactLanes], flip[kContactLanes];
  std::uint32_t point[kContactLanes];  // index in ContactSet::points, ~0 when absent
  float vn_pre[kContactLanes];  // relative normal motion per substep before the step (prepare)
};

// What of a wide constraint the substep passes do not read, kept beside it
// (ContactSet::wide_features): its points' features and indices, approach speeds and
// restitution, and the pair each lane belongs to (~0: padding), whose narrow-phase reuse flag
// says whether the features still hold. Read by the prepare, the restitution pass and the
// write-back to the points; out of the constraint, the passes stream 35 lines a constraint
// instead of 42.
// The pairs first: the prepare reads them before the rows, so a wide constraint's features are
// read front to back (with the pairs last, their first read stalled on a line 1.9 KB into the
// struct and then went back to the start, and the prepare's fill spent most of its time on that
// load).
struct alignas(64) WideFeatures {
  std::uint32_t pair[kContactLanes];
  float restitution[kContactLanes];
  // The lane's bodies' (a's, b's) rotations when the features were chosen (PairCache): a face
  // contact's arms are taken at them, as its normal was, for as long as the features are kept
  // (prepare_contacts.cpp, gather_arms). (0, 0): at the body's current rotation.
  float arm_ac[kContactLanes], arm_as[kContactLanes], arm_bc[kContactLanes], arm_bs[kContactLanes];
  FeatureRows p[2];
};

}  // namespace strut
