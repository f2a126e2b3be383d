// The separating-axis pass of a polygon core (3..16 vertices) against a two-vertex core (a
// capsule's or a segment's) in SIMD lanes, one face and one vertex of the polygon per lane:
// every face's normal and the separations of both segment points in front of it, and every
// polygon vertex's signed distance from the segment's line, in ceil(count / width) steps over
// the SoA vertex buffer instead of a loop of one face (a square root and two divisions) at a
// time. collide_polygon_capsule.cpp runs it on the baseline build's batch.
//
// Written once as templates over the number type, as the contact kernels are: with float they
// are the scalar twin (one lane), with xsimd::batch<float> the SIMD pass. Each lane does the
// scalar loop's operations in its order (-ffp-contract=off), and the reductions over lanes keep
// what the scalar loop keeps (the first face or vertex of the best value), so every width gives
// the same manifold bits (tests/polygon_segment_lanes_test.cpp).
//
// Not dispatched at run time (solver/simd/simd_dispatch.hpp): a pair's batch is one polygon, 4
// vertices for a box, which a single SSE register already holds; wider registers would only add
// empty lanes, and a call through the dispatch table per pair costs more than it could save.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <xsimd/xsimd.hpp>

#include "solver/collide/face_clipping.hpp"
#include "solver/contacts/contact_wide.hpp"
#include "strut/shape.hpp"

namespace strut::collide::lanes {

// The baseline build's batch: 4 lanes in the portable (SSE4.2) build, 8 with an AVX2 baseline.
using Wide = xsimd::batch<float>;

template <class F>
inline constexpr int kWidth = wide::kLanesOf<F>;

// Room for a polygon's per-face values written a whole register at a time.
inline constexpr int kFaceSlots = kMaxPolygonVertices + kWidth<Wide>;

// The operations the pass needs beyond the wide maths of contact_wide.hpp. Its own max keeps
// the first operand on ties, as the scalar loop's comparisons do (xsimd::max does not, for
// zeros of two signs), and its stores are unaligned (a polygon's rows start at any vertex).
using wide::load;
using wide::select;
using wide::vsqrt;
inline bool both(bool a, bool b) { return a && b; }
inline Wide::batch_bool_type both(const Wide::batch_bool_type& a, const Wide::batch_bool_type& b) {
  return a & b;
}
inline float vmax(float a, float b) { return a < b ? b : a; }
inline Wide vmax(const Wide& a, const Wide& b) { return select(a < b, b, a); }
inline void store(float* p, float v) { *p = v; }
inline void store(float* p, const Wide& v) { v.store_unaligned(p); }

// A running best per lane: the value and the first index that reached it (indices as floats,
// exact up to 2^24). Lane l sees indices l, l + width, ..., so keeping the first index of a
// strictly better value per lane and then the smallest index among the lanes holding the best
// value is the scalar loop's choice: the first index of the best value.
template <class F>
struct LaneBest {
  F value, index;
  // Takes v at `at` where the mask says it beats the lane's best.
  template <class M>
  void take(const M& better, const F& v, const F& at) {
    value = select(better, v, value);
    index = select(better, at, index);
  }
};

// Lane i's partner K lanes away (i xor K), for the butterfly reductions below.
template <unsigned K>
struct LanesApart {
  static constexpr unsigned get(unsigned i, unsigned) { return i ^ K; }
};
// GCC 12 reports its own AVX-512 permute intrinsic (_mm512_permutexvar_ps: "__Y is used
// uninitialized") when it is inlined here, as for max/min in contact_wide.hpp.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
template <unsigned K>
Wide partner(const Wide& v) {
  return xsimd::swizzle(v,
                        xsimd::make_batch_constant<xsimd::batch<std::uint32_t>, LanesApart<K>>());
}
#pragma GCC diagnostic pop

// The largest value over all lanes (log2(width) swaps and maxima).
inline float largest(float v) { return v; }
template <unsigned K = kWidth<Wide> / 2>
float largest(const Wide& v) {
  if constexpr (K == 0) {
    return v.get(0);
  } else {
    return largest<K / 2>(vmax(v, partner<K>(v)));
  }
}

// The best over all lanes as {value, first index}: the largest value (kLargest) or the smallest.
// Every lane swaps with its partner K lanes away and keeps the better of the two (the smaller
// index on equal values), for K = width / 2, ..., 1, after which every lane holds the best; the
// value is the winning lane's own (a +0 / -0 tie keeps the sign the scalar loop keeps).
template <bool kLargest>
std::pair<float, int> reduce(const LaneBest<float>& b) {
  return {b.value, int(b.index)};
}
template <bool kLargest, unsigned K = kWidth<Wide> / 2>
std::pair<float, int> reduce(LaneBest<Wide> b) {
  if constexpr (K == 0) {
    return {b.value.get(0), int(b.index.get(0))};
  } else {
    const Wide v = partner<K>(b.value), i = partner<K>(b.index);
    const auto better = kLargest ? v > b.value : v < b.value;
    b.take(better | ((v == b.value) & (i < b.index)), v, i);
    return reduce<kLargest, K / 2>(b);
  }
}

// A polygon's vertices copied to aligned buffers for whole-register loads: vertex i at i, and
// vertex 0 again in the width's slots from `count` on (past the end of the last register), so
// the lane of face e reads its end vertex at e + 1 and the lanes past the last face see a face
// of length zero (skipped, as a degenerate face is) and a repeat of vertex 0 (never the first of
// any best). Copied a whole register at a time, then vertex by vertex: a call to memcpy cost
// more than the pass's face arithmetic on a box.
template <class F>
struct PaddedPolygon {
  alignas(64) float x[kFaceSlots + 1];
  alignas(64) float y[kFaceSlots + 1];
  explicit PaddedPolygon(const PolygonView& p) {
    int i = 0;
    if constexpr (kWidth < F >> 1) {
      for (; i + kWidth<F> <= p.count; i += kWidth<F>) {
        store(x + i, F::load_unaligned(p.x + i));
        store(y + i, F::load_unaligned(p.y + i));
      }
    }
    for (; i < p.count; ++i) x[i] = p.x[i], y[i] = p.y[i];
    store(x + p.count, F(p.x[0]));
    store(y + p.count, F(p.y[0]));
  }
};

// A's faces against points q0, q1 (the segment's vertices), and A's vertices against the
// segment's line (normal nb through q0), as lanes not yet reduced (the caller reduces only
// what it needs).
template <class F>
struct PolygonSegmentLanes {
  F longest_edge;          // of A's faces
  LaneBest<F> separation;  // over A's faces: min(s0, s1), the segment's deepest point
  F support;               // per lane: the segment vertex of that face's separation (0 or 1)
  LaneBest<F> ahead[2];    // over A's faces: s0 (and s1), how far q0 (q1) lies in front
  LaneBest<F> lowest;      // over A's vertices: the smallest nb . (v - q0)
  LaneBest<F> highest;     // and the largest
};

// One pass over A (padded as above): lanes of faces and of vertices. nx, ny receive every
// face's outward unit normal ({0, 0} for a degenerate face), kFaceSlots floats each.
template <class F>
[[gnu::always_inline]] inline PolygonSegmentLanes<F> polygon_segment_lanes(
    const PaddedPolygon<F>& a, int count, Vec2 q0, Vec2 q1, Vec2 nb, float* nx, float* ny) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  constexpr int W = kWidth<F>;
  const F zero(0.0f), minus_one(-1.0f), inf(kInf), minus_inf(-kInf);
  PolygonSegmentLanes<F> r{zero,        {minus_inf, zero},
                           zero,        {{minus_inf, zero}, {minus_inf, zero}},
                           {inf, zero}, {minus_inf, zero}};
  alignas(64) float lane_index[W];
  for (int l = 0; l < W; ++l) lane_index[l] = float(l);
  F index = load<F>(lane_index);
  const F q0x(q0.x), q0y(q0.y), q1x(q1.x), q1y(q1.y), nbx(nb.x), nby(nb.y);
  for (int e = 0; e < count; e += W, index = index + F(float(W))) {
    const F ax = load<F>(a.x + e), ay = load<F>(a.y + e);
    // Unaligned on purpose: the face's end vertex, one slot on.
    F bx, by;
    if constexpr (W == 1) {
      bx = a.x[e + 1], by = a.y[e + 1];
    } else {
      bx = F::load_unaligned(a.x + e + 1), by = F::load_unaligned(a.y + e + 1);
    }
    const F dx = bx - ax, dy = by - ay;
    const F len = vsqrt(dx * dx + dy * dy);
    r.longest_edge = vmax(r.longest_edge, len);
    const auto degenerate = len == zero;
    // -1 * dx, not -dx: a sign flip that keeps -0 at every width.
    const F fx = select(degenerate, zero, dy / len),
            fy = select(degenerate, zero, minus_one * dx / len);
    store(nx + e, fx), store(ny + e, fy);
    const F s0 = fx * (q0x - ax) + fy * (q0y - ay);
    const F s1 = fx * (q1x - ax) + fy * (q1y - ay);
    const auto face = len != zero;
    r.ahead[0].take(both(face, s0 > r.ahead[0].value), s0, index);
    r.ahead[1].take(both(face, s1 > r.ahead[1].value), s1, index);
    const auto second = s1 < s0;
    const F sep = select(second, s1, s0);
    const auto better = both(face, sep > r.separation.value);
    r.separation.take(better, sep, index);
    r.support = select(better, select(second, F(1.0f), zero), r.support);
    // The vertex at the face's start against the segment's line.
    const F s = nbx * (ax - q0x) + nby * (ay - q0y);
    r.lowest.take(s < r.lowest.value, s, index);
    r.highest.take(s > r.highest.value, s, index);
  }
  return r;
}

// The support (0 or 1) of the face a reduction chose: its lane's.
inline int support_of(const PolygonSegmentLanes<float>& r, int) { return int(r.support); }
inline int support_of(const PolygonSegmentLanes<Wide>& r, int face) {
  return int(r.support.get(std::size_t(face % kWidth<Wide>)));
}

}  // namespace strut::collide::lanes

namespace strut::collide {

// collide_polygon_capsule's scalar twin (the same routine one lane at a time), for tests: the
// same bits.
Manifold collide_polygon_capsule_scalar(const PolygonView& a, float ra, const PolygonView& b,
                                        float rb, float margin);

}  // namespace strut::collide
