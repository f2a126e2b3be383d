// Where a contact point's impulses live between steps. After the substeps, the impulses, the
// sliding state, the largest normal impulse and the approach of every point solved in a wide
// lane stay in that lane (finish_contacts): a settled pile keeps its constraints (colour_contacts)
// and warm-starts each lane from its own rows, so nothing needs them in the points. The few
// readers that do (a pair collided afresh inherits the impulses of its old features, events,
// the touching flags) read them through point_impulses, and whenever the constraints are rebuilt
// from the points, the impulses are pulled back into them first (pull_impulses).
//
// Written back to the points after every step, the copy would be a large share of a pile's
// step: random writes, one cache line per point.
#include "solver/contacts/contact_features.hpp"
#include "solver/contacts/contact_solver.hpp"
#include "solver/contacts/contact_store.hpp"
#include "solver/core/stores.hpp"
#include "solver/core/task_system.hpp"

namespace strut {

namespace {

// The lane that holds point k of the points the lanes were filled from, if any.
struct LaneOf {
  std::uint32_t wide, k, lane;
};
LaneOf lane_of(std::uint32_t code) {
  const std::uint32_t lane = code % kContactLanes, row = code / kContactLanes;
  return {row / 2, row % 2, lane};
}

// The impulses lane `lane` of point row p (with its feature rows) holds, in the point's own
// orientation: a mirrored row's tangent impulse changes sign.
PointImpulses impulses_in_lane(const WidePoint& p, const FeatureRows& rows, int lane) {
  const float lambda_t = rows.flip[lane] != 0 ? -p.lambda_t[lane] : p.lambda_t[lane];
  return {p.lambda_n[lane], lambda_t, p.max_lambda_n[lane], rows.vn_pre[lane],
          p.sliding[lane] > 0.5f};
}

void put_impulses(ContactPoint& cp, const PointImpulses& i) {
  cp.lambda_n = i.lambda_n, cp.lambda_t = i.lambda_t, cp.max_lambda_n = i.max_lambda_n;
  cp.vn_pre = i.vn_pre, cp.sliding = i.sliding;
}

}  // namespace

std::uint32_t point_lane_code(std::uint32_t wide, int k, int lane) {
  return (wide * 2 + std::uint32_t(k)) * kContactLanes + std::uint32_t(lane);
}

PointImpulses lane_impulses(const ContactSet& set, std::uint32_t lane_code) {
  const LaneOf at = lane_of(lane_code);
  return impulses_in_lane(set.wide[at.wide].p[at.k], set.wide_features[at.wide].p[at.k],
                          int(at.lane));
}

void pull_impulses(Stores<RunsTasks, WritesContacts> w, std::vector<ContactPoint>& points,
                   bool reused_pairs_only) {
  ContactSet& set = w.contacts;
  if (!set.impulses_in_lanes) return;
  if (reused_pairs_only) {
    // The points of pairs collided afresh hold what they inherited; the rest are last step's.
    w.tasks.parallel_for(int(set.pair_reused.size()), 2048, [&](int lo, int hi, int) {
      for (int p = lo; p < hi; ++p) {
        if (!set.pair_reused[std::size_t(p)]) continue;
        for (std::uint32_t k = set.pair_begin[std::size_t(p)];
             k < set.pair_begin[std::size_t(p) + 1]; ++k) {
          if (set.point_lane[k] != ~0u)
            put_impulses(points[k], lane_impulses(set, set.point_lane[k]));
        }
      }
    });
    set.impulses_in_lanes = false;
    return;
  }
  // Lane by lane: every point lives in exactly one lane, so the copies are independent. Lanes
  // are in colour order and points in pair order, so each copy writes a line far from the last:
  // the points of the wide constraint two ahead are asked for first, so that their misses
  // overlap (two ahead measured best: one and four ahead gain less).
  constexpr int kAhead = 2;
  w.tasks.parallel_for(int(set.wide.size()), 64, [&](int lo, int hi, int) {
    for (int i = lo; i < hi; ++i) {
      if (i + kAhead < hi)
        for (const FeatureRows& rows : set.wide_features[std::size_t(i) + kAhead].p)
          for (int lane = 0; lane < kContactLanes; ++lane)
            if (rows.point[lane] != ~0u) __builtin_prefetch(&points[rows.point[lane]], 1);
      for (int k = 0; k < 2; ++k) {
        const FeatureRows& rows = set.wide_features[std::size_t(i)].p[k];
        for (int lane = 0; lane < kContactLanes; ++lane)
          if (rows.point[lane] != ~0u)
            put_impulses(points[rows.point[lane]],
                         impulses_in_lane(set.wide[std::size_t(i)].p[k], rows, lane));
      }
    }
  });
  set.impulses_in_lanes = false;
}

}  // namespace strut
