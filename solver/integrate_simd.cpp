// SIMD twin of integrate_rigid_scalar: the same operations in the same order on xsimd batches,
// so with -ffp-contract=off the results are bit-identical (tested in integrate_test.cpp).
#include <xsimd/xsimd.hpp>

#include "solver/step_internals.hpp"

namespace strut {

void integrate_rigid_simd(const RigidSpans& s, int begin, int end, float h) {
  using B = xsimd::batch<float>;
  constexpr int W = int(B::size);
  const B h2(h * h);
  const B one(1.0f);
  int i = begin;
  for (; i + W <= end; i += W) {
    const B d = B::load_unaligned(s.damping + i);
    const B dx = B::load_unaligned(s.dx + i) * d + B::load_unaligned(s.ax + i) * h2;
    const B dy = B::load_unaligned(s.dy + i) * d + B::load_unaligned(s.ay + i) * h2;
    dx.store_unaligned(s.dx + i);
    dy.store_unaligned(s.dy + i);
    (B::load_unaligned(s.px + i) + dx).store_unaligned(s.px + i);
    (B::load_unaligned(s.py + i) + dy).store_unaligned(s.py + i);
    const B dc = B::load_unaligned(s.dqc + i);
    const B ds = B::load_unaligned(s.dqs + i) * d + B::load_unaligned(s.alpha + i) * h2 * dc;
    const B inv = one / xsimd::sqrt(dc * dc + ds * ds);
    const B ec = dc * inv, es = ds * inv;
    ec.store_unaligned(s.dqc + i);
    es.store_unaligned(s.dqs + i);
    const B c = B::load_unaligned(s.qc + i), sn = B::load_unaligned(s.qs + i);
    const B nc = ec * c - es * sn, ns = es * c + ec * sn;
    const B inv2 = one / xsimd::sqrt(nc * nc + ns * ns);
    (nc * inv2).store_unaligned(s.qc + i);
    (ns * inv2).store_unaligned(s.qs + i);
  }
  integrate_rigid_scalar(s, i, end, h);
}

void integrate_rigid(const RigidSpans& s, int begin, int end, float h) {
  integrate_rigid_simd(s, begin, end, h);
}

}  // namespace strut
