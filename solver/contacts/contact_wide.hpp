// The wide contact kernel: one lane per contact pair (up to two points), kContactLanes lanes to a
// wide constraint, so a colour's pairs are solved 16 at a time. The kernel is written once as a
// template over the number type: instantiated with float it is the scalar twin, with an
// xsimd::batch<float, Arch> the SIMD kernel, which covers a wide constraint in one register
// (AVX-512), two (AVX2) or four (SSE4.2) (solver/contacts/contact_kernels.hpp, dispatched at run
// time). Lanes are independent, so every width gives the scalar twin's bits (same operations in
// the same order, -ffp-contract=off), which tests/contact_wide_test.cpp and
// tests/simd_dispatch_test.cpp check.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <xsimd/xsimd.hpp>

#include "solver/contacts/contact.hpp"

namespace strut {

// The storage width of the coloured struts' and the joint points' lane groups (strut_kernel.hpp,
// joints/point_lanes.hpp): 16 like kContactLanes and for the same reason, so that every SIMD
// level (dispatched at run time) and every build packs the same rows into the same lanes.
inline constexpr int kWideLanes = 16;

// The storage width of the wide contact constraints, fixed whatever the build or the CPU so that
// every SIMD level sees the same lanes (and the same lane assignment): 16, one AVX-512 register.
inline constexpr int kContactLanes = 16;

// Both points of a lane; a missing second point has zero masses and so does nothing. Only the
// rows the substep passes read: what only the prepare, the restitution pass and the write-back
// read (which point a lane holds, its approach speed, the restitution) lies beside the
// constraint in its WideFeatures (contact_features.hpp), so every pass streams fewer lines.
struct alignas(64) WidePoint {
  float nx[kContactLanes], ny[kContactLanes];  // from a to b
  float rax[kContactLanes], ray[kContactLanes], rbx[kContactLanes], rby[kContactLanes];
  float base[kContactLanes], normal_mass[kContactLanes], tangent_mass[kContactLanes];
  float lambda_n[kContactLanes], lambda_t[kContactLanes], max_lambda_n[kContactLanes];
  float sliding[kContactLanes];
};

struct alignas(64) WideConstraint {
  std::uint32_t a[kContactLanes], b[kContactLanes];  // solver bodies (a spare zero body pads lanes)
  float friction[kContactLanes], static_friction[kContactLanes];
  float ima[kContactLanes], iia[kContactLanes], imb[kContactLanes], iib[kContactLanes];
  // The lane's push-out cap as a fraction of WidePass::push_max (the smaller push_scale of its
  // two bodies), negated when a body has infinite mass (stiffer softness): one row, one load.
  float push[kContactLanes];
  // The radii of the lane's features on a and on b (a circle's, a capsule's, a rounded
  // polygon's; 0 for sharp ones): a rounded feature's contact stays on its surface facing the
  // other body however the body turns, so its separation does not turn with the arm.
  float radius_a[kContactLanes], radius_b[kContactLanes];
  WidePoint p[2];
};

// Flags of a wide constraint (ContactSet::wide_flags): some lane has a rounded feature (the solve
// reads the radius rows), some lane has a tangent speed or rolling resistance (the passes read
// its WideSurface).
enum WideFlag : std::uint8_t { kRoundedLanes = 1, kSurfaceLanes = 2 };

// A wide constraint's surface rows (ShapeDef::tangent_speed, rolling_resistance), kept apart from
// it in ContactSet::wide_surface, which is filled only while some collider has one: a world
// without them streams not one line more per pass, and a constraint without them (its flags say)
// is solved by the very code it was before. The rolling row is Box2D v3's: one per lane (pair),
// after the friction rows, bounded by rolling x the lane's total normal impulse.
struct alignas(64) WideSurface {
  float tangent[kContactLanes];       // the friction rows' target: (s_a + s_b) h per substep
  float rolling[kContactLanes];       // rolling impulse bound per normal impulse: resistance x r
  float rolling_mass[kContactLanes];  // 1 / (iia + iib), 0 when neither body turns
  float lambda_r[kContactLanes];      // accumulated rolling impulse (x h), warm-started per substep
};

// Constants of one pass, in displacement units (see contact_solver.hpp).
struct WidePass {
  float bias_rate, mass_scale, impulse_scale;                    // contact softness
  float fixed_bias_rate, fixed_mass_scale, fixed_impulse_scale;  // with an infinite mass
  float push_max;
  float slide;
  bool use_bias;
};

namespace wide {

// The operations the kernels use, for float (the scalar twin) and for any xsimd batch. The batch
// versions are templates over the architecture: each level's file (solver/simd/simd_dispatch.hpp)
// instantiates its own, so no copy compiled with wide instructions is shared with baseline code.
inline float select(bool m, float a, float b) { return m ? a : b; }
template <class A>
xsimd::batch<float, A> select(const xsimd::batch_bool<float, A>& m, const xsimd::batch<float, A>& a,
                              const xsimd::batch<float, A>& b) {
  return xsimd::select(m, a, b);
}
inline float vmax(float a, float b) { return std::max(a, b); }
inline float vmin(float a, float b) { return std::min(a, b); }
inline float vabs(float a) { return std::fabs(a); }
// GCC 12 reports its own AVX-512 max/min intrinsics (_mm512_max_ps: "__Y may be used
// uninitialized") when they are inlined here; the operands are initialised batches.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
template <class A>
xsimd::batch<float, A> vmax(const xsimd::batch<float, A>& a, const xsimd::batch<float, A>& b) {
  return xsimd::max(a, b);
}
template <class A>
xsimd::batch<float, A> vmin(const xsimd::batch<float, A>& a, const xsimd::batch<float, A>& b) {
  return xsimd::min(a, b);
}
#pragma GCC diagnostic pop
template <class A>
xsimd::batch<float, A> vabs(const xsimd::batch<float, A>& a) {
  return xsimd::abs(a);
}
inline float vsqrt(float a) { return std::sqrt(a); }
// The same GCC 12 false positive as for max/min above (_mm512_sqrt_ps passes an undefined
// pass-through operand).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
template <class A>
xsimd::batch<float, A> vsqrt(const xsimd::batch<float, A>& a) {
  return xsimd::sqrt(a);
}
#pragma GCC diagnostic pop

// The number of lanes of F: 1 for float.
template <class F>
inline constexpr int kLanesOf = int(F::size);
template <>
inline constexpr int kLanesOf<float> = 1;

// Lanes [lane, lane + width) of a row; rows are 64-byte aligned and lane a multiple of the width.
template <class F>
F load(const float* p) {
  return F::load_aligned(p);
}
template <>
inline float load<float>(const float* p) {
  return *p;
}
inline void store(float* p, float v) { *p = v; }
template <class A>
void store(float* p, const xsimd::batch<float, A>& v) {
  v.store_aligned(p);
}

// A body's state in a lane.
template <class F>
struct Body {
  F dx, dy, da, dpx, dpy, dqc, dqs;
};

// Impulse P at anchors ra (on A, taken with minus) and rb (on B): the motion (dx, dy, da) of a
// contact's Body or of a joint point's Motion (joints/point_kernels.hpp).
template <class F, template <class> class BodyOf>
[[gnu::always_inline]] inline void push(BodyOf<F>& A, BodyOf<F>& B, F ima, F iia, F imb, F iib,
                                        F px, F py, F rax, F ray, F rbx, F rby) {
  A.dx = A.dx - ima * px;
  A.dy = A.dy - ima * py;
  A.da = A.da - iia * (rax * py - ray * px);
  B.dx = B.dx + imb * px;
  B.dy = B.dy + imb * py;
  B.da = B.da + iib * (rbx * py - rby * px);
}

// One lane group: bodies gathered by the caller; solves both points' normal rows, then both
// friction rows (Box2D's order), then (relax only) records which points slide. `rounded`: some
// lane of c has a rounded feature (WideConstraint::radius_a, radius_b; ContactSet::wide_flags),
// else its radius rows are not read (a pile of sharp boxes pays nothing for them). `surface`: its
// surface rows (kSurfaceLanes) or null; with them the friction rows drive the relative tangent
// motion to WideSurface::tangent instead of 0 (a conveyor), and a rolling row follows them.
template <class F>
[[gnu::always_inline]] inline void solve_lanes(Body<F>& A, Body<F>& B, WideConstraint& c, int lane,
                                               const WidePass& pass, bool rounded = true,
                                               WideSurface* surface = nullptr) {
  const F zero(0.0f), one(1.0f);
  const F ima = load<F>(c.ima + lane), iia = load<F>(c.iia + lane);
  const F imb = load<F>(c.imb + lane), iib = load<F>(c.iib + lane);
  const F cap = load<F>(c.push + lane);
  const auto fixed = cap < zero;
  const F bias_rate = select(fixed, F(pass.fixed_bias_rate), F(pass.bias_rate));
  const F soft_mass = select(fixed, F(pass.fixed_mass_scale), F(pass.mass_scale));
  const F soft_impulse = select(fixed, F(pass.fixed_impulse_scale), F(pass.impulse_scale));
  const F push_max = F(pass.push_max) * vabs(cap);  // exactly push_max when cap is +-1
  auto apply = [&](F px, F py, F rax, F ray, F rbx, F rby) {
    push(A, B, ima, iia, imb, iib, px, py, rax, ray, rbx, rby);
  };
  auto relative = [&](F rax, F ray, F rbx, F rby, F& vx, F& vy) {
    vx = (B.dx - B.da * rby) - (A.dx - A.da * ray);
    vy = (B.dy + B.da * rbx) - (A.dy + A.da * rax);
  };
  // A rounded feature's surface point is r out along the normal, which does not turn with its
  // body: the turned arm lowered it by r (1 - cos), and a circle spinning at 100 rad/s on the
  // ground sank 4.5 cm, at 1,000 rad/s 9.8 cm. Both points share it (the poses do not change
  // within a pass).
  const F roll = rounded ? load<F>(c.radius_b + lane) * (one - B.dqc) +
                               load<F>(c.radius_a + lane) * (one - A.dqc)
                         : zero;
  for (WidePoint& p : c.p) {
    const F nx = load<F>(p.nx + lane), ny = load<F>(p.ny + lane);
    const F rax = load<F>(p.rax + lane), ray = load<F>(p.ray + lane);
    const F rbx = load<F>(p.rbx + lane), rby = load<F>(p.rby + lane);
    // Separation from the pose change since the step began.
    const F prax = A.dqc * rax - A.dqs * ray, pray = A.dqs * rax + A.dqc * ray;
    const F prbx = B.dqc * rbx - B.dqs * rby, prby = B.dqs * rbx + B.dqc * rby;
    const F dx = (B.dpx - A.dpx) + (prbx - prax), dy = (B.dpy - A.dpy) + (prby - pray);
    const F s = (dx * nx + dy * ny) + load<F>(p.base + lane) - roll;
    F vx, vy;
    relative(rax, ray, rbx, rby, vx, vy);
    const F vn = vx * nx + vy * ny;
    const auto speculative = s > zero;
    F bias = select(speculative, s, zero);
    F mass_scale = one, impulse_scale = zero;
    if (pass.use_bias) {
      bias = select(speculative, s, vmax(bias_rate * s, zero - push_max));
      mass_scale = select(speculative, one, soft_mass);
      impulse_scale = select(speculative, zero, soft_impulse);
    }
    const F lambda = load<F>(p.lambda_n + lane);
    const F impulse =
        zero - load<F>(p.normal_mass + lane) * mass_scale * (vn + bias) - impulse_scale * lambda;
    const F total = vmax(lambda + impulse, zero);
    const F change = total - lambda;
    store(p.lambda_n + lane, total);
    store(p.max_lambda_n + lane, vmax(load<F>(p.max_lambda_n + lane), total));
    apply(change * nx, change * ny, rax, ray, rbx, rby);
  }
  const F friction = load<F>(c.friction + lane),
          static_friction = load<F>(c.static_friction + lane);
  for (WidePoint& p : c.p) {
    const F tx = load<F>(p.ny + lane), ty = zero - load<F>(p.nx + lane);
    const F rax = load<F>(p.rax + lane), ray = load<F>(p.ray + lane);
    const F rbx = load<F>(p.rbx + lane), rby = load<F>(p.rby + lane);
    F vx, vy;
    relative(rax, ray, rbx, rby, vx, vy);
    F vt = vx * tx + vy * ty;
    if (surface) vt = vt - load<F>(surface->tangent + lane);
    const auto sliding = load<F>(p.sliding + lane) > F(0.5f);
    const F bound = select(sliding, friction, static_friction) * load<F>(p.lambda_n + lane);
    const F lambda = load<F>(p.lambda_t + lane);
    const F total = vmin(vmax(lambda - load<F>(p.tangent_mass + lane) * vt, zero - bound), bound);
    const F change = total - lambda;
    store(p.lambda_t + lane, total);
    apply(change * tx, change * ty, rax, ray, rbx, rby);
    if (!pass.use_bias) {
      relative(rax, ray, rbx, rby, vx, vy);
      F slip = vx * tx + vy * ty;
      if (surface) slip = slip - load<F>(surface->tangent + lane);
      store(p.sliding + lane, select(vabs(slip) > F(pass.slide), one, zero));
    }
  }
  if (surface) {  // rolling resistance: a torque against the relative turning, bounded
    const F bound = load<F>(surface->rolling + lane) *
                    (load<F>(c.p[0].lambda_n + lane) + load<F>(c.p[1].lambda_n + lane));
    const F lambda = load<F>(surface->lambda_r + lane);
    const F total = vmin(
        vmax(lambda - load<F>(surface->rolling_mass + lane) * (B.da - A.da), zero - bound), bound);
    const F change = total - lambda;
    store(surface->lambda_r + lane, total);
    A.da = A.da - iia * change;
    B.da = B.da + iib * change;
  }
}

// Warm start: both points' accumulated impulses applied again.
template <class F>
void warm_start_lanes(Body<F>& A, Body<F>& B, const WideConstraint& c, int lane) {
  const F ima = load<F>(c.ima + lane), iia = load<F>(c.iia + lane);
  const F imb = load<F>(c.imb + lane), iib = load<F>(c.iib + lane);
  for (const WidePoint& p : c.p) {
    const F nx = load<F>(p.nx + lane), ny = load<F>(p.ny + lane);
    const F ln = load<F>(p.lambda_n + lane), lt = load<F>(p.lambda_t + lane);
    const F px = ln * nx + lt * ny, py = ln * ny - lt * nx;
    const F rax = load<F>(p.rax + lane), ray = load<F>(p.ray + lane);
    const F rbx = load<F>(p.rbx + lane), rby = load<F>(p.rby + lane);
    push(A, B, ima, iia, imb, iib, px, py, rax, ray, rbx, rby);
  }
}

// The rolling impulse of a constraint with surface rows applied again, after every constraint's
// warm_start_lanes (a pass of its own: with a second call site warm_start_lanes would no longer
// be inlined, which makes the warm start of a world without surfaces much dearer).
template <class F>
void warm_start_rolling(Body<F>& A, Body<F>& B, const WideConstraint& c, int lane,
                        const WideSurface& s) {
  const F lr = load<F>(s.lambda_r + lane);
  A.da = A.da - load<F>(c.iia + lane) * lr;
  B.da = B.da + load<F>(c.iib + lane) * lr;
}

}  // namespace wide

}  // namespace strut
