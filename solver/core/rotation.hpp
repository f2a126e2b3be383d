// The rotation a rigid body makes in one substep, exact to float rounding at any angle the
// speed limit allows (|angle| <= limits::kMaxAngularSpeed x limits::kMaxDt = 1000 rad).
//
// The integrator used a fifth-order Taylor series of (cos a, sin a): cheap, but without range
// reduction it is only right for small a. At 4 substeps of a 60 Hz step the per-substep angle
// is omega / 240, and the series was off by 0.018 rad after one step at 300 rad/s, 2.2 rad at
// 1000 rad/s and NaN beyond about 5e6 rad/s. Here the angle is first reduced to
// r = a - k pi/2 with |r| <= pi/4 (k = the nearest integer to a 2/pi, pi/2 split in three
// parts whose products with k are exact for |k| < 2^13, Cody and Waite's method), then
// cos r and sin r come from minimax polynomials accurate to about one float ulp on
// [-pi/4, pi/4] (the single-precision coefficients published with the Cephes library), and
// the quadrant k mod 4 swaps and negates them.
//
// Written once for float and for xsimd batches: the same operations in the same order, so the
// SIMD kernel stays bit-identical to its scalar twin under -ffp-contract=off.
#pragma once

#include <cmath>
#include <xsimd/xsimd.hpp>

namespace strut {
namespace rotation_detail {

inline float select(bool m, float a, float b) { return m ? a : b; }
template <class A>
xsimd::batch<float, A> select(const xsimd::batch_bool<float, A>& m, const xsimd::batch<float, A>& a,
                              const xsimd::batch<float, A>& b) {
  return xsimd::select(m, a, b);
}
inline float nearest(float v) { return std::nearbyint(v); }
template <class A>
xsimd::batch<float, A> nearest(const xsimd::batch<float, A>& v) {
  return xsimd::nearbyint(v);
}
inline float floor_of(float v) { return std::floor(v); }
inline float magnitude(float v) { return std::fabs(v); }
template <class A>
xsimd::batch<float, A> magnitude(const xsimd::batch<float, A>& v) {
  return xsimd::abs(v);
}
// -v with the sign of zero flipped too, as float negation does (0 - v turns -0 into +0).
inline float negate(float v) { return -v; }
template <class A>
xsimd::batch<float, A> negate(const xsimd::batch<float, A>& v) {
  return xsimd::bitwise_xor(v, xsimd::batch<float, A>(-0.0f));
}
template <class A>
xsimd::batch<float, A> floor_of(const xsimd::batch<float, A>& v) {
  return xsimd::floor(v);
}

}  // namespace rotation_detail

// cos and sin of `a` (radians), accurate for |a| < 8192 (k < 2^13).
template <class F>
inline void cos_sin(F a, F& c, F& s) {
  using rotation_detail::floor_of;
  using rotation_detail::nearest;
  using rotation_detail::select;
  const F k = nearest(a * F(0.63661977236758134f));  // 2 / pi
  const F r =
      ((a - k * F(1.5703125f)) - k * F(4.837512969970703125e-4f)) - k * F(7.54978995489188216e-8f);
  const F z = r * r;
  const F sr =
      r + r * z * ((F(-1.9515295891e-4f) * z + F(8.3321608736e-3f)) * z - F(1.6666654611e-1f));
  const F cr =
      (F(1.0f) - F(0.5f) * z) + z * z *
                                    ((F(2.443315711809948e-5f) * z - F(1.388731625493765e-3f)) * z +
                                     F(4.166664568298827e-2f));
  // Quadrant q = k mod 4 (exact: k is an integer well inside float's exact range).
  const F q = k - F(4.0f) * floor_of(k * F(0.25f));
  const auto odd = (q == F(1.0f)) | (q == F(3.0f));
  const F c0 = select(odd, sr, cr), s0 = select(odd, cr, sr);
  const auto negate_c = (q == F(1.0f)) | (q == F(2.0f));
  const auto negate_s = (q == F(2.0f)) | (q == F(3.0f));
  c = select(negate_c, F(0.0f) - c0, c0);
  s = select(negate_s, F(0.0f) - s0, s0);
}

// The angle of the rotation (c, s), atan2(s, c) in (-pi, pi], for any (c, s) but (0, 0) (which
// gives 0). The ratio of the smaller to the larger of |c| and |s| is reduced to |t| <=
// tan(pi/8) (about 1 with atan(x) = pi/4 + atan((x - 1) / (x + 1))), atan t comes from a minimax
// polynomial accurate to about one float ulp there (Cephes' single-precision coefficients
// again), and the octant is put back. Measured against double atan2 on 2 million angles: within
// 2.7e-7 rad, about one float ulp at pi (tests/rotation_test.cpp). Why not std::atan2: the joints
// ask for an angle for every limit and spring row of every substep, where glibc's float atan2
// and atan are a large share of a ragdoll crowd's step; this is a few dozen instructions inline,
// and the same on every libm. Written once for float and for xsimd batches, like cos_sin (the
// revolute joints' angle rows run in SIMD lanes too, joints/point_kernels.hpp).
template <class F>
inline F angle_of(F c, F s) {
  using rotation_detail::magnitude;
  using rotation_detail::negate;
  using rotation_detail::select;
  const F zero(0.0f), one(1.0f);
  const F ac = magnitude(c), as = magnitude(s);
  const auto steep = as > ac;
  const F larger = select(steep, as, ac);
  // Where larger is 0 this is 0 / 0, and the lane's answer is replaced by 0 at the end.
  F t = select(steep, ac, as) / larger;                // in [0, 1]
  const auto past_eighth = t > F(0.414213562373095f);  // tan(pi / 8)
  const F base = select(past_eighth, F(0.785398163397448f), zero);
  t = select(past_eighth, (t - one) / (t + one), t);
  const F z = t * t;
  const F atan_t =
      (((F(8.05374449538e-2f) * z - F(1.38776856032e-1f)) * z + F(1.99777106478e-1f)) * z -
       F(3.33329491539e-1f)) *
          z * t +
      t;
  F a = base + atan_t;                                // atan(|s| / |c|) or atan(|c| / |s|)
  a = select(steep, F(1.57079632679490f) - a, a);     // first octant pair: [0, pi/2]
  a = select(c < zero, F(3.14159265358979f) - a, a);  // second quadrant
  a = select(s < zero, negate(a), a);                 // lower half
  return select(larger > zero, a, zero);
}

// A position correction pushes a rigid body along its arm as the substep began (start_arm in
// point_ref.hpp; joint_rows.hpp says why) while the body has turned less than this in the substep
// (radians; 12 rad/s at 4 substeps of 1/60 s), and along its arm now beyond. Pushed along arms a
// large turn away from the arms it is measured at, the correction answers a turn with a larger one:
// in joint_grid at 1 joint pass bodies spun up to 238 rad/s and joints opened to 3.1 m (0.40 m
// with the arms now). The joint_grid gap at 1 pass, by this bound: 0.02 0.404 m, 0.05 0.405 m,
// 0.1 0.417 m, 0.2 0.511 m, none 3.11 m; a pendulum or hammer turns under 0.02 a substep.
inline constexpr float kStartArmTurn = 0.05f;

}  // namespace strut
