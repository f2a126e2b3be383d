// xsimd twins of the rigid integration kernels: the same operations in the same order on
// batches, so with -ffp-contract=off the results are bit-identical (tested in
// integration_test.cpp). Tails go to the scalar kernel.
#include <xsimd/xsimd.hpp>

#include "solver/integrate.hpp"
#include "solver/rotation.hpp"

// GCC 12 reports its own AVX-512 sqrt intrinsic ("__Y may be used uninitialized") when xsimd
// inlines it here; the operands are initialised batches.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace strut {

using Batch = xsimd::batch<float>;
constexpr int kWidth = int(Batch::size);

void integrate_rigid_velocity_simd(const RigidSpans& s, int begin, int end, float h) {
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

void integrate_rigid_position_simd(const RigidSpans& s, int begin, int end) {
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

}  // namespace strut
