// The step's dispatched kernels (step_kernel_table.hpp) as templates over the xsimd
// architecture: xsimd twins of the scalar rigid integration and bounds kernels, the same
// operations in the same order on batches, so with -ffp-contract=off every width gives the
// scalar kernel's bits (tested in integration_test.cpp and simd_dispatch_test.cpp). Tails go to
// the scalar kernels. Included only by the per-level files step_kernel_table_<level>.cpp, each
// compiled for its level: everything here is a template over Arch (solver/simd/simd_dispatch.hpp).
#pragma once

#include <xsimd/xsimd.hpp>

#include "solver/core/rotation.hpp"
#include "solver/step/bounds_kernel.hpp"
#include "solver/step/integrate.hpp"

// GCC 12 reports its own AVX-512 sqrt intrinsic ("__Y may be used uninitialized") when xsimd
// inlines it here; the operands are initialised batches. (Clang has no such warning.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace strut::simd {

// d' = d * damping + a h^2; da' = da * angular_damping + alpha h^2.
template <class Arch>
void rigid_velocity(const RigidSpans& s, int begin, int end, float h) {
  using Batch = xsimd::batch<float, Arch>;
  constexpr int kWidth = int(Batch::size);
  const Batch h2(h * h);
  int i = begin;
  for (; i + kWidth <= end; i += kWidth) {
    const Batch d = Batch::load_unaligned(s.damping + i);
    (Batch::load_unaligned(s.dx + i) * d + Batch::load_unaligned(s.ax + i) * h2)
        .store_unaligned(s.dx + i);
    (Batch::load_unaligned(s.dy + i) * d + Batch::load_unaligned(s.ay + i) * h2)
        .store_unaligned(s.dy + i);
    const Batch ad = Batch::load_unaligned(s.angular_damping + i);
    (Batch::load_unaligned(s.da + i) * ad + Batch::load_unaligned(s.alpha + i) * h2)
        .store_unaligned(s.da + i);
  }
  integrate_rigid_velocity_scalar(s, i, end, h);
}

// d, da clamped; p' = p + d; q' = rot(da) q, renormalised.
template <class Arch>
void rigid_position(const RigidSpans& s, int begin, int end) {
  using Batch = xsimd::batch<float, Arch>;
  constexpr int kWidth = int(Batch::size);
  const Batch one(1.0f), move(s.max_move), turn(s.max_turn);
  int i = begin;
  for (; i + kWidth <= end; i += kWidth) {
    const Batch dx = xsimd::min(xsimd::max(Batch::load_unaligned(s.dx + i), -move), move);
    const Batch dy = xsimd::min(xsimd::max(Batch::load_unaligned(s.dy + i), -move), move);
    const Batch a = xsimd::min(xsimd::max(Batch::load_unaligned(s.da + i), -turn), turn);
    dx.store_unaligned(s.dx + i), dy.store_unaligned(s.dy + i), a.store_unaligned(s.da + i);
    (Batch::load_unaligned(s.px + i) + dx).store_unaligned(s.px + i);
    (Batch::load_unaligned(s.py + i) + dy).store_unaligned(s.py + i);
    Batch ec, es;
    cos_sin(a, ec, es);
    const Batch c = Batch::load_unaligned(s.qc + i), sn = Batch::load_unaligned(s.qs + i);
    const Batch nc = ec * c - es * sn, ns = es * c + ec * sn;
    const Batch inv = one / xsimd::sqrt(nc * nc + ns * ns);
    (nc * inv).store_unaligned(s.qc + i);
    (ns * inv).store_unaligned(s.qs + i);
  }
  integrate_rigid_position_scalar(s, i, end);
}

// Each tight box swept along its body's displacement and grown by the rest of its motion plus
// half the contact slop (bounds_kernel.hpp). max(0, -0) may give -0 here and +0 in the scalar
// twin; added to a positive grow, both give the same bits.
template <class Arch>
void fatten_bounds(const BoundsSpans& s, int begin, int end, float half_slop) {
  using Batch = xsimd::batch<float, Arch>;
  constexpr int kWidth = int(Batch::size);
  const Batch slop(half_slop), zero(0.0f);
  int i = begin;
  for (; i + kWidth <= end; i += kWidth) {
    const Batch grow = slop + Batch::load_unaligned(s.spread + i);
    const Batch sx = Batch::load_unaligned(s.sweep_x + i),
                sy = Batch::load_unaligned(s.sweep_y + i);
    (Batch::load_unaligned(s.lx + i) - (grow + xsimd::max(zero, -sx)))
        .store_unaligned(s.out_lx + i);
    (Batch::load_unaligned(s.ly + i) - (grow + xsimd::max(zero, -sy)))
        .store_unaligned(s.out_ly + i);
    (Batch::load_unaligned(s.ux + i) + (grow + xsimd::max(zero, sx))).store_unaligned(s.out_ux + i);
    (Batch::load_unaligned(s.uy + i) + (grow + xsimd::max(zero, sy))).store_unaligned(s.out_uy + i);
  }
  fatten_bounds_scalar(s, i, end, half_slop);
}

}  // namespace strut::simd
