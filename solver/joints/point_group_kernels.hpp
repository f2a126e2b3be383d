// The joint points' SIMD kernels as each SIMD level runs them (solver/simd/simd_dispatch.hpp): a
// PointGroup holds kWideLanes (16) rows whatever the level, and a level whose registers hold
// fewer covers it in steps of its width, 1 x 16 (AVX-512), 2 x 8 (AVX2) or 4 x 4 (SSE4.2), each
// step gathering its lanes' bodies, running the kernel of point_kernels.hpp and writing the
// movable bodies back. Rows of one colour share no movable body, so the steps are independent and
// every level gives the bits of the scalar twin (point_lanes.cpp), which runs the same kernels
// with float lane after lane. Included only by the per-level files point_kernel_table_<level>.cpp
// (see solver/simd/simd_dispatch.hpp): everything here is a template over the architecture.
#pragma once

#include <algorithm>
#include <cstdint>
#include <xsimd/xsimd.hpp>

#include "solver/joints/point_kernels.hpp"
#include "solver/simd/lane_gather.hpp"

namespace strut::simd {

namespace point {

// The motion of lanes [lane, lane + width) of the bodies idx.
template <class F>
[[gnu::always_inline]] inline wide::Motion<F> gather_motion(const PointSpans& s,
                                                            const std::uint32_t* idx) {
  return {wide::gather_column<F>(s.dx, idx), wide::gather_column<F>(s.dy, idx),
          wide::gather_column<F>(s.da, idx)};
}

// Whether each lane of a register has a movable body (mass or inertia finite). Decided before
// the first store of a scatter: as far as the compiler knows, the stores may alias the masses.
template <class F>
[[gnu::always_inline]] inline auto movable_lanes(const float* inv_mass, const float* inv_inertia) {
  const F zero(0.0f);
  return (F::load_aligned(inv_mass) != zero) | (F::load_aligned(inv_inertia) != zero);
}

// Writes the motion of the lanes whose body is movable. Within a colour such a body belongs to
// one lane of one group. The columns are held in locals, which the stores cannot change (read
// through `s` they were read again for every store), and a register whose bodies are all movable,
// as most are, writes without a test per lane: the scatters were most of a joint pass's work.
template <class F>
[[gnu::always_inline]] inline void scatter_motion(const PointSpans& s, const std::uint32_t* idx,
                                                  const float* inv_mass, const float* inv_inertia,
                                                  const wide::Motion<F>& m) {
  constexpr int kWidth = wide::kLanesOf<F>;
  const auto movable = movable_lanes<F>(inv_mass, inv_inertia);
  float* const dx = s.dx;
  float* const dy = s.dy;
  float* const da = s.da;
  alignas(64) float v[3][kWidth];
  m.dx.store_aligned(v[0]), m.dy.store_aligned(v[1]), m.da.store_aligned(v[2]);
  if (xsimd::all(movable)) {
    for (int i = 0; i < kWidth; ++i)
      dx[idx[i]] = v[0][i], dy[idx[i]] = v[1][i], da[idx[i]] = v[2][i];
    return;
  }
  alignas(64) float write[kWidth];
  select(movable, F(1.0f), F(0.0f)).store_aligned(write);
  for (int i = 0; i < kWidth; ++i) {
    if (write[i] == 0) continue;
    dx[idx[i]] = v[0][i], dy[idx[i]] = v[1][i], da[idx[i]] = v[2][i];
  }
}

template <class F>
[[gnu::always_inline]] inline wide::Pose<F> gather_pose(const PointSpans& s,
                                                        const std::uint32_t* idx) {
  return {wide::gather_column<F>(s.px, idx), wide::gather_column<F>(s.py, idx),
          wide::gather_column<F>(s.qc, idx), wide::gather_column<F>(s.qs, idx),
          wide::gather_column<F>(s.dx, idx), wide::gather_column<F>(s.dy, idx),
          wide::gather_column<F>(s.da, idx)};
}

// Writes the pose of the lanes that acted and whose body is movable (as scatter_motion does).
template <class F>
[[gnu::always_inline]] inline void scatter_pose(const PointSpans& s, const std::uint32_t* idx,
                                                const float* inv_mass, const float* inv_inertia,
                                                const float* acted, const wide::Pose<F>& p) {
  constexpr int kWidth = wide::kLanesOf<F>;
  const auto write = movable_lanes<F>(inv_mass, inv_inertia) & (F::load_aligned(acted) != F(0.0f));
  const PointSpans to = s;
  alignas(64) float v[7][kWidth];
  p.px.store_aligned(v[0]), p.py.store_aligned(v[1]), p.qc.store_aligned(v[2]);
  p.qs.store_aligned(v[3]), p.dx.store_aligned(v[4]), p.dy.store_aligned(v[5]);
  p.da.store_aligned(v[6]);
  auto store = [&](int i) {
    const std::uint32_t k = idx[i];
    to.px[k] = v[0][i], to.py[k] = v[1][i], to.qc[k] = v[2][i], to.qs[k] = v[3][i];
    to.dx[k] = v[4][i], to.dy[k] = v[5][i], to.da[k] = v[6][i];
  };
  if (xsimd::all(write)) {
    for (int i = 0; i < kWidth; ++i) store(i);
    return;
  }
  alignas(64) float flags[kWidth];
  select(write, F(1.0f), F(0.0f)).store_aligned(flags);
  for (int i = 0; i < kWidth; ++i)
    if (flags[i] != 0) store(i);
}

// Runs fn(A, B, lane) on every register of g's lanes, its bodies gathered before and the movable
// ones written back after.
template <class F, class Fn>
[[gnu::always_inline]] inline void each_register(const PointSpans& s, PointGroup& g, Fn&& fn) {
  for (int lane = 0; lane < kWideLanes; lane += wide::kLanesOf<F>) {
    wide::Motion<F> A = gather_motion<F>(s, g.a + lane), B = gather_motion<F>(s, g.b + lane);
    fn(A, B, lane);
    scatter_motion(s, g.a + lane, g.ma + lane, g.ia + lane, A);
    scatter_motion(s, g.b + lane, g.mb + lane, g.ib + lane, B);
  }
}

}  // namespace point

// Groups [lo, hi) of one colour: arms and masses from the poses now, then (warm_start) the
// carried impulse applied (refresh_point_groups_wide).
template <class Arch>
void refresh_point_groups(const PointSpans& s, PointGroup* groups, std::uint32_t lo,
                          std::uint32_t hi, bool warm_start) {
  using F = xsimd::batch<float, Arch>;
  for (std::uint32_t k = lo; k < hi; ++k) {
    PointGroup& g = groups[k];
    for (int lane = 0; lane < kWideLanes; lane += wide::kLanesOf<F>)
      wide::refresh_point_lanes(g, lane, wide::gather_column<F>(s.qc, g.a + lane),
                                wide::gather_column<F>(s.qs, g.a + lane),
                                wide::gather_column<F>(s.qc, g.b + lane),
                                wide::gather_column<F>(s.qs, g.b + lane));
    if (warm_start)
      point::each_register<F>(s, g, [&g](wide::Motion<F>& A, wide::Motion<F>& B, int lane) {
        wide::warm_start_point_lanes(A, B, g, lane);
      });
  }
}

// One velocity pass over groups [lo, hi) of one colour (solve_point_groups_wide).
template <class Arch>
void solve_point_groups(const PointSpans& s, PointGroup* groups, std::uint32_t lo,
                        std::uint32_t hi) {
  using F = xsimd::batch<float, Arch>;
  for (std::uint32_t k = lo; k < hi; ++k) {
    PointGroup& g = groups[k];
    point::each_register<F>(s, g, [&g](wide::Motion<F>& A, wide::Motion<F>& B, int lane) {
      wide::solve_point_lanes(A, B, g, lane);
    });
  }
}

// The position projection of groups [lo, hi) of one colour (project_point_groups_wide): b's
// pose written before a's, as the scalar twin does.
template <class Arch>
void project_point_groups(const PointSpans& s, const PointGroup* groups, AngleGroup* angles,
                          std::uint32_t lo, std::uint32_t hi, bool first) {
  using F = xsimd::batch<float, Arch>;
  for (std::uint32_t k = lo; k < hi; ++k) {
    const PointGroup& g = groups[k];
    if (angles[k].any) {
      alignas(64) float acted[wide::kLanesOf<F>];
      std::fill(acted, acted + wide::kLanesOf<F>, 1.0f);
      for (int lane = 0; lane < kWideLanes; lane += wide::kLanesOf<F>) {
        wide::Pose<F> A = point::gather_pose<F>(s, g.a + lane);
        wide::Pose<F> B = point::gather_pose<F>(s, g.b + lane);
        wide::project_revolute_lanes(A, B, g, angles[k], lane, first);
        point::scatter_pose(s, g.b + lane, g.mb + lane, g.ib + lane, acted, B);
        point::scatter_pose(s, g.a + lane, g.ma + lane, g.ia + lane, acted, A);
      }
      continue;
    }
    for (int lane = 0; lane < kWideLanes; lane += wide::kLanesOf<F>) {
      wide::Pose<F> A = point::gather_pose<F>(s, g.a + lane);
      wide::Pose<F> B = point::gather_pose<F>(s, g.b + lane);
      alignas(64) float acted[wide::kLanesOf<F>];
      wide::project_point_lanes(A, B, g, lane).store_aligned(acted);
      point::scatter_pose(s, g.b + lane, g.mb + lane, g.ib + lane, acted, B);
      point::scatter_pose(s, g.a + lane, g.ma + lane, g.ia + lane, acted, A);
    }
  }
}

}  // namespace strut::simd
