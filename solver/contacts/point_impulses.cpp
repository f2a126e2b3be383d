// Where a contact point's impulses live between steps. After the substeps, the impulses, the
// sliding state, the largest normal impulse and the approach of every point solved in a wide
// lane stay in that lane (finish_contacts): a settled pile keeps its constraints (colour_contacts)
// and warm-starts each lane from its own rows, so nothing needs them in the points. The few
// readers that do (a pair collided afresh inherits the impulses of its old features, events,
// the touching flags) read them through point_impulses, and whenever the constraints are rebuilt
// from the points, the impulses are pulled back into them first (pull_impulses).
//
// Written back to the points after every step, as before, the copy was 8.5 % of large_pyramid's
// time (perf, 600 steps, 1 thread) and 1.2 ms of many_pyramids' 13.5: random writes, one cache
// line per point.
#include "solver/contacts/contact_features.hpp"
#include "solver/contacts/contact_solver.hpp"

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

}  // namespace

std::uint32_t point_lane_code(std::uint32_t wide, int k, int lane) {
  return (wide * 2 + std::uint32_t(k)) * kContactLanes + std::uint32_t(lane);
}

PointImpulses point_impulses(const ContactSet& set, const std::vector<ContactPoint>& points,
                             std::uint32_t k) {
  const ContactPoint& cp = points[k];
  if (!set.impulses_in_lanes || set.point_lane[k] == ~0u)
    return {cp.lambda_n, cp.lambda_t, cp.max_lambda_n, cp.vn_pre, cp.sliding};
  const LaneOf at = lane_of(set.point_lane[k]);
  const WidePoint& p = set.wide[at.wide].p[at.k];
  const FeatureRows& rows = set.wide_features[at.wide].p[at.k];
  const float lambda_t = rows.flip[at.lane] != 0 ? -p.lambda_t[at.lane] : p.lambda_t[at.lane];
  return {p.lambda_n[at.lane], lambda_t, p.max_lambda_n[at.lane], rows.vn_pre[at.lane],
          p.sliding[at.lane] > 0.5f};
}

void pull_impulses(World::Impl& w, std::vector<ContactPoint>& points, bool reused_pairs_only) {
  ContactSet& set = w.contacts;
  if (!set.impulses_in_lanes) return;
  const auto pull = [&](std::uint32_t k) {
    if (set.point_lane[k] == ~0u) return;
    const PointImpulses i = point_impulses(set, points, k);
    ContactPoint& cp = points[k];
    cp.lambda_n = i.lambda_n, cp.lambda_t = i.lambda_t, cp.max_lambda_n = i.max_lambda_n;
    cp.vn_pre = i.vn_pre, cp.sliding = i.sliding;
  };
  if (reused_pairs_only) {
    // The points of pairs collided afresh hold what they inherited; the rest are last step's.
    w.tasks.parallel_for(int(set.pair_reused.size()), 2048, [&](int lo, int hi, int) {
      for (int p = lo; p < hi; ++p)
        if (set.pair_reused[std::size_t(p)])
          for (std::uint32_t k = set.pair_begin[std::size_t(p)];
               k < set.pair_begin[std::size_t(p) + 1]; ++k)
            pull(k);
    });
  } else {
    w.tasks.parallel_for(int(points.size()), 4096, [&](int lo, int hi, int) {
      for (int k = lo; k < hi; ++k) pull(std::uint32_t(k));
    });
  }
  set.impulses_in_lanes = false;
}

}  // namespace strut
