// Joints: constraints between material points of two bodies. The settings live in the public
// per-type definition (strut/joint.hpp); what creation derives from the bodies' poses (anchors
// in body frames, axes, reference angles, resolved lengths) and what the solver accumulates
// lives here, the same few fields for every type.
#pragma once

#include <cmath>
#include <cstdint>
#include <variant>
#include <vector>

#include "solver/joints/joint_row.hpp"
#include "solver/joints/point_lanes.hpp"
#include "strut/joint.hpp"

namespace strut {

// A point fixed in a body: for a rigid body an offset from the centre of mass in body
// coordinates; for a soft body the particle nearest to it (offset within the body's range).
struct BodyAnchor {
  Vec2 local;
  std::uint32_t particle = 0;
};

// Most multipliers a joint keeps (a wheel: perpendicular, spring, two limits, motor).
inline constexpr int kJointMultipliers = 6;
// Most rows a joint holds rigidly at the velocity level (a weld: its point and its angle).
inline constexpr int kMaxRigidRows = 3;

struct Joint {
  JointType type = JointType::Distance;
  std::uint32_t slot_a = 0, slot_b = 0;  // body slots (stable across compaction); a mouse: b, b
  BodyAnchor anchor_a, anchor_b;
  // Derived at creation. axis: in a's frame (prismatic, wheel). reference: the relative
  // rotation (cos, sin) that is joint angle 0 (revolute, prismatic, weld, motor with its
  // offset). length: a distance joint's rest length. target: a mouse joint's world target, a
  // motor joint's target point in a's frame, a rigid weld's or a prismatic joint's given anchor
  // from its rows' point in b's frame (the rows hold the point midway between the centres; the
  // torque is read about the anchor).
  Vec2 axis;
  Rot reference;
  float length = 0;
  Vec2 target;
  bool collide = false;
  bool enabled = true;
  // Position impulses (N s^2) accumulated over the current substep: each joint row's
  // multiplier, which makes a soft row's stiffness the same at any iteration count, and the
  // reaction they add up to on b (read back as force = impulse / h^2).
  float lambda[kJointMultipliers] = {};
  Vec2 lambda_point;  // of the point (two-row) constraint
  // The force the point constraint bore in the last substep (revolute between rigid bodies),
  // carried across steps to warm start its velocity passes (solver/joints/point_motion.hpp).
  Vec2 carried_force;
  // The force (N; N m for an angle row) each row a weld, prismatic or wheel joint holds rigidly
  // bore in the last substep, carried across steps likewise (solver/joints/row_motion.hpp).
  float carried_rows[kMaxRigidRows] = {};
  // The torques (N m) a revolute joint's motor and its lower and upper limit rows bore in the
  // last substep, carried across steps likewise (AngleMotion).
  float carried_angle[3] = {};
  Vec2 reaction_force;
  float reaction_torque = 0;
  float motor_impulse = 0;
  std::uint32_t slot = 0;  // joint id slot
  JointDef def;            // settings: as created, then as changed by the run-time setters
  bool dead = false;       // destroyed; removed from JointStore::dense before the next step
};

// Whether a joint's settings ask for joint events: a finite force or torque threshold
// (JointStore::threshold_count counts the live joints that do).
inline bool has_event_threshold(const JointDef& def) {
  return std::visit(
      [](const auto& d) {
        return std::isfinite(d.force_threshold) || std::isfinite(d.torque_threshold);
      },
      def);
}

// Marks an item of PointMotion::items that is a group of points projected in lanes.
inline constexpr std::uint32_t kProjectGroup = 1u << 31;

// A joint's rows held at the velocity level for one step (solver/joints/row_motion.hpp): the
// rows at the poses of the last refresh, the inverse of their mass matrix, and the position
// impulse (N s^2; N m s^2 for an angle row) each row carries from substep to substep. Rigid, or
// one row held by a spring: spring_a = (omega h)^2 and spring_b = 2 zeta omega h of the spring
// over a substep (both 0 when rigid), spring_c the row's value at the last refresh.
struct RigidRows {
  JointBodies q;
  std::uint32_t joint = 0;  // index in JointStore::dense
  int count = 0;
  Row rows[kMaxRigidRows];
  float inv_k[kMaxRigidRows][kMaxRigidRows] = {};
  float impulse[kMaxRigidRows] = {};
  float spring_a = 0, spring_b = 0, spring_c = 0;
  bool sprung() const { return spring_a > 0 || spring_b > 0; }
};

// A revolute joint's motor and limit rows at the velocity level for one step, held in the last of
// its point's solve and relax passes, before the point (solver/joints/point_motion.hpp and
// joint_solver.cpp), as Box2D orders them: the
// motor drives the relative turn over the substep to speed x h with a carried impulse of at most
// max_effort x h^2; each limit row keeps the turn from passing its limit within the substep
// (speculatively: the slack is how far the angle is from it, 0 once at or past it; the
// projection's limit rows put a passed limit right). Impulses in N m s^2: the motor's, the lower
// limit's (>= 0) and the upper one's (<= 0), carried from substep to substep.
struct AngleMotion {
  std::uint32_t a = 0, b = 0;  // the bodies (dense)
  std::uint32_t joint = 0;     // index in JointStore::dense
  float ia = 0, ib = 0;        // inverse inertias
  float inv_k = 0;             // 1 / (ia + ib): the angle row's effective mass (0: both fixed)
  bool motor = false, limit = false;
  float motor_shift = 0, motor_bound = 0;  // speed x h, max_effort x h^2
  float lower = 0, upper = 0;
  Rot reference;
  float slack_lower = 0, slack_upper = 0;  // angle - lower and upper - angle at the refresh, >= 0
  float impulse[3] = {};                   // motor, lower, upper
};

// The joint trees of a step (solver/joints/tree_motion.hpp). Tree t's joints, in elimination
// order (leaves first), are joints[tree_begin[t] .. tree_begin[t + 1]) and its movable bodies
// bodies[body_begin[t] .. body_begin[t + 1]).
inline constexpr std::uint32_t kFixedSide = ~0u;  // a tree joint's side on a fixed body
inline constexpr std::uint64_t kLiveJoint = 1, kCandidateJoint = 2;  // TreeMotion::key flags
// The trees' factors and passes. In double, every robustness figure was the same and a 20-link
// rope swinging a box of 3,000 times a link opened a pin 6.6 mm instead of 10.6 mm: not kept.
using TreeReal = float;
struct TreeJoint {
  std::uint32_t joint = 0;  // index in JointStore::dense
  // The sides' slots in TreeMotion::bodies (kFixedSide for a fixed body): the leaf side has no
  // other joint left when this one is eliminated, the parent side may.
  std::uint32_t leaf = kFixedSide, parent = kFixedSide;
  bool leaf_is_b = true;       // whether the leaf side is the joint's body b (else a)
  std::uint32_t a = 0, b = 0;  // the joint's bodies (dense)
  Vec2 local_a, local_b;       // its anchors in their bodies' frames
  Vec2 ra, rb;                 // the anchors' arms at the last refresh
  // b's anchor less a's at the refresh before the solve (zero for the relax): the solve closes
  // it over the substep, as the contacts' soft bias closes an overlap.
  Vec2 gap;
  // The inverse of the joint's reduced 2x2 block (xx, xy, yy), and J_p W_p (2 x 3) of its parent
  // side at its elimination; TreeReal, as the eliminations subtract nearly equal masses.
  TreeReal a_inv[3] = {};
  TreeReal jw[2][3] = {};
  TreeReal z[2] = {};  // a pass's forward result
  Vec2 impulse;        // position impulse (N s^2) carried from substep to substep
};
struct TreeBody {
  std::uint32_t body = 0;  // dense index
  float m = 0, i = 0;      // inverse mass and inertia
  TreeReal w[6] = {};      // the articulated inverse mass (xx, xy, xt, yy, yt, tt) during a refresh
  TreeReal s[3] = {}, g[3] = {};  // a pass's forward sums and the impulses of its back substitution
};
struct TreeMotion {
  std::vector<TreeJoint> joints;
  std::vector<TreeBody> bodies;
  std::vector<std::uint32_t> tree_begin, body_begin;
  std::vector<std::uint8_t> in_tree;  // per joint (index in joints), this step
  // What the trees were found from (prepare_tree_motion): per joint its bodies (dense) and flags
  // (kLiveJoint, kCandidateJoint), and the movable flags' version.
  std::vector<std::uint64_t> key;
  std::uint64_t moving_version = ~std::uint64_t{0};
  // Scratch of finding them: per body (dense), per movable body found (local), per joint.
  std::vector<std::uint32_t> local_of_body;
  std::vector<std::uint32_t> local_body, root, degree, adjacency_begin, adjacency, tree_of, slot;
  std::vector<std::uint32_t> side_a, side_b, queue;
  std::vector<TreeJoint> peeled_sides;
  std::vector<std::uint8_t> bad, eliminated;
  template <class F>
  void for_each_field(F&& f) {
    f(joints), f(bodies), f(tree_begin), f(body_begin);
    f(in_tree), f(key), f(moving_version), f(local_of_body), f(local_body), f(root), f(degree);
    f(adjacency_begin), f(adjacency), f(tree_of), f(slot), f(side_a), f(side_b), f(queue);
    f(peeled_sides), f(bad), f(eliminated);
  }
};

// The point rows of a step in colour order, kWideLanes a group (solver/joints/point_lanes.hpp):
// colour c is groups[begin[c] .. begin[c + 1]) (the joint colouring's colours; below its
// threshold all rows are in the serial overflow colour). The position projection's work of
// colour c is items[item_begin[c] .. item_begin[c + 1]): kProjectGroup | g for group g, whose
// points are projected in lanes (joints whose solve is nothing else, or the point and the angle
// rows of angles[g]; coloured joints only; such groups lead their colour's), else a joint's
// index, solved by its type.
struct PointMotion {
  std::vector<PointGroup> groups;
  std::vector<AngleGroup> angles;  // one per group, the same index
  std::vector<std::uint32_t> begin;
  // The rigid rows of the weld, prismatic and wheel joints: colour c's are rigid[rigid_begin[c]
  // .. rigid_begin[c + 1]); each pass solves them after all the points.
  std::vector<RigidRows> rigid;
  std::vector<std::uint32_t> rigid_begin;
  // The motor and limit rows of the revolute joints in the groups: group g's joints' are
  // angle_rows[angle_begin[g] .. angle_begin[g + 1]), in lane order; each pass solves them before
  // the group's points.
  std::vector<AngleMotion> angle_rows;
  std::vector<std::uint32_t> angle_begin;
  std::vector<std::uint32_t> items, item_begin;
  std::vector<std::uint32_t> projected, typed, rows;  // scratch of prepare_point_motion
  std::vector<AngleRows> projected_rows, typed_rows;  // likewise: the joints' angle rows
  std::vector<std::uint32_t> tree_projected;          // likewise: tree joints projected in lanes
  std::vector<AngleRows> tree_projected_rows;
  // Per group: where its colour's groups with velocity rows end. A tree's joints (their velocity
  // rows are the tree's) projected in lanes are in groups after them, to the colour's end.
  std::vector<std::uint32_t> velocity_end;
  std::uint32_t velocity_groups = 0;  // how many groups have velocity rows
  TreeMotion trees;                   // the joints solved exactly (tree_motion.hpp)
  // What the packing above was made from (JointStore::version, the movable flags' version, the
  // joint count and the substep length): kept while they are (prepare_point_motion).
  std::uint64_t packed_version = ~std::uint64_t{0}, packed_moving_version = ~std::uint64_t{0};
  std::size_t packed_joints = 0;
  float packed_h = 0;
  template <class F>
  void for_each_field(F&& f) {
    f(groups), f(angles), f(begin), f(rigid), f(rigid_begin), f(angle_rows), f(angle_begin);
    f(items), f(item_begin), f(projected), f(typed), f(rows), f(projected_rows), f(typed_rows);
    f(tree_projected), f(tree_projected_rows), f(velocity_end), f(velocity_groups);
    trees.for_each_field(f);
    f(packed_version), f(packed_moving_version), f(packed_joints), f(packed_h);
  }
};

}  // namespace strut
