// After the last substep: pressed points that approached faster than the threshold leave with
// -restitution times their approach speed (Box2D's restitution pass), lane by lane.
#include <algorithm>
#include <span>

#include "solver/contacts/contact_features.hpp"
#include "solver/contacts/contact_passes.hpp"
#include "solver/contacts/soft_contacts.hpp"

namespace strut {
namespace {

Vec2 cross_sv(float s, Vec2 v) { return {-s * v.y, s * v.x}; }

}  // namespace

void apply_restitution(WorldState &w, float h, float threshold) {
  if (!w.contacts.any_restitution) return;  // a pass that would change nothing
  const float threshold_d = threshold * h;
  contact_pass(
      w,
      [&w, threshold_d](WideConstraint *cs, std::uint32_t n, bool) {
        // Once per step: lane by lane through the scalar types.
        for (WideConstraint &c : std::span(cs, n)) {
          const WideFeatures &f =
              w.contacts.wide_features[std::size_t(&c - w.contacts.wide.data())];
          run_scalar(w.scratch.solver_bodies.data(), c,
                     [&](wide::Body<float> &A, wide::Body<float> &B, int lane) {
                       for (int k = 0; k < 2; ++k) {
                         WidePoint &p = c.p[k];
                         const float vn_pre = f.p[k].vn_pre[lane], e = f.restitution[lane];
                         if (e <= 0 || vn_pre > -threshold_d || p.max_lambda_n[lane] <= 0) continue;
                         const Vec2 n{p.nx[lane], p.ny[lane]};
                         const Vec2 ra{p.rax[lane], p.ray[lane]}, rb{p.rbx[lane], p.rby[lane]};
                         const Vec2 va = Vec2{A.dx, A.dy} + cross_sv(A.da, ra);
                         const Vec2 vb = Vec2{B.dx, B.dy} + cross_sv(B.da, rb);
                         // (A mirrored point flips both its normal and its body order: vn is
                         // unchanged.)
                         const float vn = dot(vb - va, n);
                         const float total = std::max(
                             p.lambda_n[lane] - p.normal_mass[lane] * (vn + e * vn_pre), 0.0f);
                         const float dn = total - p.lambda_n[lane];
                         p.lambda_n[lane] = total;
                         wide::push(A, B, c.ima[lane], c.iia[lane], c.imb[lane], c.iib[lane],
                                    dn * n.x, dn * n.y, ra.x, ra.y, rb.x, rb.y);
                       }
                     });
        }
      },
      [&w, threshold_d](ContactPoint &cp) { restitute_soft_point(w, cp, threshold_d); });
}

}  // namespace strut
