// The joint-point groups' scalar twins (point_lanes.hpp), lane after lane on the body arrays, and
// the SIMD kernels of the level in use (point_group_kernels.hpp, dispatched at run time).
#include "solver/joints/point_lanes.hpp"

#include <algorithm>
#include <cmath>

#include "solver/joints/point_kernel_table.hpp"
#include "solver/joints/point_kernels.hpp"

namespace strut {
namespace {

inline wide::Pose<float> load_pose(const PointSpans& s, std::uint32_t k) {
  return {s.px[k], s.py[k], s.qc[k], s.qs[k], s.dx[k], s.dy[k], s.da[k]};
}
inline void store_pose(const PointSpans& s, std::uint32_t k, const wide::Pose<float>& p) {
  s.px[k] = p.px, s.py[k] = p.py, s.qc[k] = p.qc, s.qs[k] = p.qs;
  s.dx[k] = p.dx, s.dy[k] = p.dy, s.da[k] = p.da;
}

// Runs fn(A, B, lane) lane after lane, reading the bodies as the earlier lanes left them, up to
// the first unused lane (the rest are unused too).
template <class Fn>
inline void run_scalar(const PointSpans& s, PointGroup& g, Fn&& fn) {
  for (int i = 0; i < kWideLanes; ++i) {
    if (g.joint[i] == kPointPadding) break;
    const std::uint32_t a = g.a[i], b = g.b[i];
    wide::Motion<float> A{s.dx[a], s.dy[a], s.da[a]}, B{s.dx[b], s.dy[b], s.da[b]};
    fn(A, B, i);
    if (g.ma[i] != 0 || g.ia[i] != 0) s.dx[a] = A.dx, s.dy[a] = A.dy, s.da[a] = A.da;
    if (g.mb[i] != 0 || g.ib[i] != 0) s.dx[b] = B.dx, s.dy[b] = B.dy, s.da[b] = B.da;
  }
}

}  // namespace

void refresh_point_groups_wide(const PointSpans& s, PointGroup* groups, std::uint32_t lo,
                               std::uint32_t hi, bool warm_start) {
  point_kernels().refresh(s, groups, lo, hi, warm_start);
}

void refresh_point_groups_scalar(const PointSpans& s, PointGroup* groups, std::uint32_t lo,
                                 std::uint32_t hi, bool warm_start) {
  for (std::uint32_t k = lo; k < hi; ++k) {
    PointGroup& g = groups[k];
    // Unused lanes are skipped (pad_lane left them as a refresh would), and they end the group:
    // a small world's two joints fill two lanes of a group.
    for (int i = 0; i < kWideLanes && g.joint[i] != kPointPadding; ++i)
      wide::refresh_point_lanes(g, i, s.qc[g.a[i]], s.qs[g.a[i]], s.qc[g.b[i]], s.qs[g.b[i]]);
    if (warm_start)
      run_scalar(s, g, [&g](wide::Motion<float>& A, wide::Motion<float>& B, int i) {
        wide::warm_start_point_lanes(A, B, g, i);
      });
  }
}

void solve_point_groups_wide(const PointSpans& s, PointGroup* groups, std::uint32_t lo,
                             std::uint32_t hi) {
  point_kernels().solve(s, groups, lo, hi);
}

float solve_point_groups_scalar(const PointSpans& s, PointGroup* groups, std::uint32_t lo,
                                std::uint32_t hi) {
  float largest = 0.0f;
  for (std::uint32_t k = lo; k < hi; ++k) {
    PointGroup& g = groups[k];
    run_scalar(s, g, [&g, &largest](wide::Motion<float>& A, wide::Motion<float>& B, int i) {
      const wide::AnchorMotion<float> motion = wide::solve_point_lanes(A, B, g, i);
      largest = std::max(largest, std::max(std::abs(motion.x), std::abs(motion.y)));
    });
  }
  return largest;
}

void project_point_groups_wide(const PointSpans& s, const PointGroup* groups, AngleGroup* angles,
                               std::uint32_t lo, std::uint32_t hi, bool first) {
  point_kernels().project(s, groups, angles, lo, hi, first);
}

void project_point_groups_scalar(const PointSpans& s, const PointGroup* groups, AngleGroup* angles,
                                 std::uint32_t lo, std::uint32_t hi, bool first) {
  for (std::uint32_t k = lo; k < hi; ++k) {
    const PointGroup& g = groups[k];
    for (int i = 0; i < kWideLanes; ++i) {
      if (g.joint[i] == kPointPadding) break;
      const std::uint32_t a = g.a[i], b = g.b[i];
      wide::Pose<float> A = load_pose(s, a), B = load_pose(s, b);
      if (angles[k].any)
        wide::project_revolute_lanes(A, B, g, angles[k], i, first);
      else if (wide::project_point_lanes(A, B, g, i) == 0)
        continue;
      if (g.mb[i] != 0 || g.ib[i] != 0) store_pose(s, b, B);
      if (g.ma[i] != 0 || g.ia[i] != 0) store_pose(s, a, A);
    }
  }
}

}  // namespace strut
