// The wide contact kernels as each SIMD level runs them (solver/simd/simd_dispatch.hpp): a wide
// constraint holds kContactLanes (16) lanes whatever the level, and a level whose registers hold
// fewer covers it in steps of its width, 1 x 16 (AVX-512), 2 x 8 (AVX2) or 4 x 4 (SSE4.2), each
// step gathering its lanes' bodies by a register transpose and scattering them back. The lanes
// are independent (a colour's lanes share no movable body), so every level gives the bits of the
// scalar twin, which runs the same templates with float lane by lane (contact_passes.hpp).
// Included only by the per-level files contact_kernel_table_<level>.cpp and the scalar table's
// (solver/simd/simd_dispatch.hpp: everything here is a template over the architecture).
#pragma once

#include <cstdint>
#include <xsimd/xsimd.hpp>

#include "solver/contacts/body_lanes.hpp"
#include "solver/contacts/contact_prepare.hpp"
#include "solver/contacts/contact_wide.hpp"

namespace strut::simd {

// Whether lanes [lane, lane + width) of c all pad it: a padding lane runs from the spare zero
// body to itself, a real one between two bodies.
template <int kWidth>
bool padding_only(const WideConstraint& c, int lane) {
  for (int i = lane; i < lane + kWidth; ++i)
    if (c.a[i] != c.b[i]) return false;
  return true;
}

// Runs fn(A, B, c, lane) on every wide constraint of cs[0 .. count) (a work item: one wide
// constraint, or a group whose layers share their lanes' bodies), one register of lanes at a
// time: the bodies gathered once for all layers, then the motion of movable ones scattered.
// A register of padding lanes only is skipped: it moves no body, and its impulses are nobody's
// (a small world's last wide constraint of a colour is often half padding, a register's worth
// at widths below 16).
template <class Arch, class Fn>
[[gnu::always_inline]] inline void lane_groups(SolverBody* bodies, WideConstraint* cs,
                                               std::uint32_t count, Fn&& fn) {
  using F = xsimd::batch<float, Arch>;
  const WideConstraint& first = cs[0];
  for (int lane = 0; lane < kContactLanes; lane += wide::kLanesOf<F>) {
    if (padding_only<wide::kLanesOf<F>>(first, lane)) continue;
    wide::Body<F> A = gather_lanes<F>(bodies, first.a + lane);
    wide::Body<F> B = gather_lanes<F>(bodies, first.b + lane);
    for (std::uint32_t k = 0; k < count; ++k) fn(A, B, cs[k], lane);
    scatter_lanes(bodies, first.a + lane, A, movable_lanes<F>(first.ima, first.iia, lane));
    scatter_lanes(bodies, first.b + lane, B, movable_lanes<F>(first.imb, first.iib, lane));
  }
}

// Warm start: the accumulated impulses of cs[0 .. count) applied again.
template <class Arch>
void contact_warm_start(SolverBody* bodies, WideConstraint* cs, std::uint32_t count) {
  lane_groups<Arch>(bodies, cs, count, [](auto& A, auto& B, WideConstraint& c, int lane) {
    wide::warm_start_lanes(A, B, c, lane);
  });
}

// After contact_warm_start, when the step has surface rows (surface: those of cs[0 ..)): the
// rolling impulses of the constraints whose flags[k] has kSurfaceLanes applied again. A kernel
// of its own, so that the warm start of a world without surfaces runs the very loop it did.
template <class Arch>
void contact_warm_start_rolling(SolverBody* bodies, WideConstraint* cs, std::uint32_t count,
                                const std::uint8_t* flags, const WideSurface* surface) {
  lane_groups<Arch>(bodies, cs, count,
                    [cs, flags, surface](auto& A, auto& B, WideConstraint& c, int lane) {
                      const std::size_t k = std::size_t(&c - cs);
                      if (flags[k] & kSurfaceLanes)
                        wide::warm_start_rolling(A, B, c, lane, surface[k]);
                    });
}

// One solve (pass.use_bias) or relax pass over cs[0 .. count). flags[k]: cs[k]'s WideFlag bits
// (kRoundedLanes: some lane has a rounded feature, solve_lanes; kSurfaceLanes: some lane has
// surface rows); surface: the rows of cs[0 ..), null when the step has none, and then the loop
// reads no surface rows at all. (The two loops need gather_lanes and its kin always inlined,
// body_lanes.hpp: left to GCC, the second loop put them out of line, which slows every step.)
template <class Arch>
void contact_solve(SolverBody* bodies, WideConstraint* cs, std::uint32_t count,
                   const WidePass& pass, const std::uint8_t* flags, WideSurface* surface) {
  if (!surface) {
    lane_groups<Arch>(bodies, cs, count,
                      [&pass, cs, flags](auto& A, auto& B, WideConstraint& c, int lane) {
                        if (flags[&c - cs] & kRoundedLanes)
                          wide::solve_lanes(A, B, c, lane, pass, true);
                        else
                          wide::solve_lanes(A, B, c, lane, pass, false);
                      });
    return;
  }
  lane_groups<Arch>(bodies, cs, count,
                    [&pass, cs, flags, surface](auto& A, auto& B, WideConstraint& c, int lane) {
                      const std::size_t k = std::size_t(&c - cs);
                      if (flags[k] & kSurfaceLanes)
                        wide::solve_lanes(A, B, c, lane, pass, (flags[k] & kRoundedLanes) != 0,
                                          surface + k);
                      else if (flags[k] & kRoundedLanes)
                        wide::solve_lanes(A, B, c, lane, pass, true);
                      else
                        wide::solve_lanes(A, B, c, lane, pass, false);
                    });
}

// The prepare of wide constraint c from its features and its bodies (prepare_lanes).
template <class Arch>
void contact_prepare(const PrepareBody* bodies, const LanePositions& positions,
                     WideFeatures& features, WideConstraint& c) {
  using F = xsimd::batch<float, Arch>;
  for (int lane = 0; lane < kContactLanes; lane += wide::kLanesOf<F>)
    wide::prepare_lanes<F>(bodies, positions, features, c, lane);
}

}  // namespace strut::simd
