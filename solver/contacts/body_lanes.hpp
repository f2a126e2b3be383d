// Moving solver bodies into SIMD lanes and back. A wide contact constraint reads the 32-byte
// SolverBody of each lane's two bodies and writes back their motion. Done field by field (a
// scalar load and store per field and lane, then a vector load of the stored row) it was half
// the cost of a contact pass: 14 x 16 scalar stores whose vector reload cannot be forwarded.
// Here a body is one 256-bit load (two 128-bit loads for SSE) and the lanes come out of a
// register transpose: the 8 x 8 float transpose of unpack / shuffle / lane permute for AVX2, run
// on both halves of the register for AVX-512, two 4 x 4 transposes for SSE. The motion goes back
// as one 128-bit store per movable body. Every function here is a template over the batch type
// F (an xsimd::batch<float, Arch>, whose width picks the transpose), so each SIMD level's file
// compiles its own copy (solver/simd/simd_dispatch.hpp); float is one lane, the scalar twin's.
// The field-by-field versions are the reference the tests compare against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "solver/contacts/contact.hpp"
#include "solver/contacts/contact_wide.hpp"

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace strut {

static_assert(sizeof(SolverBody) == 32, "a solver body is one 256-bit row");
static_assert(sizeof(PrepareBody) == 32, "a prepare body is one 256-bit row");

// The seven state fields of the lanes' bodies (idx[0 .. width)).
template <class F>
wide::Body<F> gather_lanes_reference(const SolverBody* bodies, const std::uint32_t* idx) {
  alignas(64) float g[7][wide::kLanesOf<F>];
  for (int i = 0; i < wide::kLanesOf<F>; ++i) {
    const SolverBody& s = bodies[idx[i]];
    g[0][i] = s.dx, g[1][i] = s.dy, g[2][i] = s.da, g[3][i] = s.dpx, g[4][i] = s.dpy;
    g[5][i] = s.dqc, g[6][i] = s.dqs;
  }
  using wide::load;
  return {load<F>(g[0]), load<F>(g[1]), load<F>(g[2]), load<F>(g[3]),
          load<F>(g[4]), load<F>(g[5]), load<F>(g[6])};
}

// Writes the motion (dx, dy, da) of lanes whose mask bit is set.
template <class F>
void scatter_lanes_reference(SolverBody* bodies, const std::uint32_t* idx, const wide::Body<F>& B,
                             std::uint32_t mask) {
  alignas(64) float g[3][wide::kLanesOf<F>];
  wide::store(g[0], B.dx), wide::store(g[1], B.dy), wide::store(g[2], B.da);
  for (int i = 0; i < wide::kLanesOf<F>; ++i)
    if (mask >> i & 1u) {
      SolverBody& s = bodies[idx[i]];
      s.dx = g[0][i], s.dy = g[1][i], s.da = g[2][i];
    }
}

namespace detail {

// Rows of 8 floats (32-byte records) into lanes and motion back, by width. The primary template
// goes field by field (one lane, or a width without a transpose here).
template <int kWidth>
struct LaneRows {
  template <class F>
  static void gather(const float* base, const std::uint32_t* idx, F rows[8]) {
    alignas(64) float g[8][kWidth];
    for (int i = 0; i < kWidth; ++i)
      for (int f = 0; f < 8; ++f) g[f][i] = base[8 * std::size_t(idx[i]) + f];
    for (int f = 0; f < 8; ++f) rows[f] = wide::load<F>(g[f]);
  }
  template <class F>
  static void scatter(SolverBody* bodies, const std::uint32_t* idx, const wide::Body<F>& B,
                      std::uint32_t mask) {
    scatter_lanes_reference(bodies, idx, B, mask);
  }
};

#if defined(__SSE2__)
// SSE: a record's two halves (fields 0-3, 4-7) of four bodies, each a 4 x 4 transpose.
template <>
struct LaneRows<4> {
  template <class F>
  static void gather(const float* base, const std::uint32_t* idx, F rows[8]) {
    for (int half = 0; half < 2; ++half) {
      __m128 r[4];
      for (int i = 0; i < 4; ++i) r[i] = _mm_loadu_ps(base + 8 * std::size_t(idx[i]) + 4 * half);
      _MM_TRANSPOSE4_PS(r[0], r[1], r[2], r[3]);
      for (int f = 0; f < 4; ++f) rows[4 * half + f] = F(r[f]);
    }
  }
  template <class F>
  static void scatter(SolverBody* bodies, const std::uint32_t* idx, const wide::Body<F>& B,
                      std::uint32_t mask) {
    __m128 r[4] = {B.dx, B.dy, B.da, _mm_setzero_ps()};
    _MM_TRANSPOSE4_PS(r[0], r[1], r[2], r[3]);  // r[j]: dx dy da 0 of body j
    for (int j = 0; j < 4; ++j)
      if (mask >> j & 1u) _mm_storeu_ps(&bodies[idx[j]].dx, r[j]);
  }
};
#endif

#if defined(__AVX__)
// 8 x 8 transpose inside each 256-bit half: row r holds the 8 fields of one body (per half),
// field f of the 8 bodies comes out in row f. Ops: the register type R and its unpacks and
// shuffles, which work per 128-bit block, and join, which assembles the blocks.
template <class Ops, class R>
[[gnu::always_inline]] inline void transpose8(R r[8]) {
  R t[8], u[8];
  for (int k = 0; k < 4; ++k) {
    t[2 * k] = Ops::unpacklo(r[2 * k], r[2 * k + 1]);      // per block: a0 b0 a1 b1
    t[2 * k + 1] = Ops::unpackhi(r[2 * k], r[2 * k + 1]);  // a2 b2 a3 b3
  }
  for (int k = 0; k < 2; ++k) {
    const int o = 4 * k;
    u[o + 0] = Ops::template shuffle<0x44>(t[o + 0], t[o + 2]);  // field 0 of a b c d
    u[o + 1] = Ops::template shuffle<0xEE>(t[o + 0], t[o + 2]);  // field 1
    u[o + 2] = Ops::template shuffle<0x44>(t[o + 1], t[o + 3]);  // field 2
    u[o + 3] = Ops::template shuffle<0xEE>(t[o + 1], t[o + 3]);  // field 3
  }
  // u[f] holds field f (low block) and f + 4 (high block) of bodies 0-3, u[4 + f] of bodies 4-7.
  for (int f = 0; f < 4; ++f) {
    r[f] = Ops::join_low(u[f], u[4 + f]);
    r[f + 4] = Ops::join_high(u[f], u[4 + f]);
  }
}

// The motion rows dx, dy, da (and a zero row) regrouped into one 128-bit block (dx dy da unused)
// per body: body j ends in block j / 4 of v[j % 4], stored to its SolverBody if mask says so.
template <class Ops, class R>
[[gnu::always_inline]] inline void scatter_motion(SolverBody* bodies, const std::uint32_t* idx,
                                                  R dx, R dy, R da, std::uint32_t mask) {
  constexpr int lanes = int(sizeof(R) / sizeof(float));
  const R zero = Ops::zero();
  const R u0 = Ops::unpacklo(dx, dy), u1 = Ops::unpackhi(dx, dy);
  const R u2 = Ops::unpacklo(da, zero), u3 = Ops::unpackhi(da, zero);
  alignas(64) float v[4][lanes];
  Ops::store(v[0], Ops::template shuffle<0x44>(u0, u2));
  Ops::store(v[1], Ops::template shuffle<0xEE>(u0, u2));
  Ops::store(v[2], Ops::template shuffle<0x44>(u1, u3));
  Ops::store(v[3], Ops::template shuffle<0xEE>(u1, u3));
  for (int j = 0; j < lanes; ++j)
    if (mask >> j & 1u) _mm_storeu_ps(&bodies[idx[j]].dx, _mm_load_ps(&v[j % 4][4 * (j / 4)]));
}

struct AvxOps {
  static __m256 zero() { return _mm256_setzero_ps(); }
  static void store(float* p, __m256 v) { _mm256_store_ps(p, v); }
  static __m256 unpacklo(__m256 a, __m256 b) { return _mm256_unpacklo_ps(a, b); }
  static __m256 unpackhi(__m256 a, __m256 b) { return _mm256_unpackhi_ps(a, b); }
  template <int imm>
  static __m256 shuffle(__m256 a, __m256 b) {
    return _mm256_shuffle_ps(a, b, imm);
  }
  static __m256 join_low(__m256 a, __m256 b) { return _mm256_permute2f128_ps(a, b, 0x20); }
  static __m256 join_high(__m256 a, __m256 b) { return _mm256_permute2f128_ps(a, b, 0x31); }
};

template <>
struct LaneRows<8> {
  template <class F>
  static void gather(const float* base, const std::uint32_t* idx, F rows[8]) {
    __m256 r[8];
    for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(base + 8 * std::size_t(idx[i]));
    transpose8<AvxOps>(r);
    for (int f = 0; f < 8; ++f) rows[f] = F(r[f]);
  }
  template <class F>
  static void scatter(SolverBody* bodies, const std::uint32_t* idx, const wide::Body<F>& B,
                      std::uint32_t mask) {
    scatter_motion<AvxOps, __m256>(bodies, idx, B.dx, B.dy, B.da, mask);
  }
};
#endif

#if defined(__AVX512F__)
// GCC 12's AVX-512 unpack intrinsics pass an undefined pass-through operand and then warn about
// it (as for max/min in contact_wide.hpp).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
struct Avx512Ops {
  static __m512 zero() { return _mm512_setzero_ps(); }
  static void store(float* p, __m512 v) { _mm512_store_ps(p, v); }
  static __m512 unpacklo(__m512 a, __m512 b) { return _mm512_unpacklo_ps(a, b); }
  static __m512 unpackhi(__m512 a, __m512 b) { return _mm512_unpackhi_ps(a, b); }
  template <int imm>
  static __m512 shuffle(__m512 a, __m512 b) {
    return _mm512_shuffle_ps(a, b, imm);
  }
  // Blocks 0, 1 of a row are bodies 0-7, blocks 2, 3 bodies 8-15. The low field takes block 0
  // of a, block 0 of b, block 2 of a, block 2 of b; the high field blocks 1 and 3.
  static __m512 join_low(__m512 a, __m512 b) {
    return _mm512_permutex2var_ps(
        a, _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27), b);
  }
  static __m512 join_high(__m512 a, __m512 b) {
    return _mm512_permutex2var_ps(
        a, _mm512_setr_epi32(4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31), b);
  }
};

// Bodies 0-7 in the low halves of the rows, 8-15 in the high halves.
template <>
struct LaneRows<16> {
  template <class F>
  static void gather(const float* base, const std::uint32_t* idx, F rows[8]) {
    __m512 r[8];
    for (int i = 0; i < 8; ++i) {
      const __m256 lo = _mm256_loadu_ps(base + 8 * std::size_t(idx[i]));
      const __m256 hi = _mm256_loadu_ps(base + 8 * std::size_t(idx[i + 8]));
      r[i] = _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1);
    }
    transpose8<Avx512Ops>(r);
    for (int f = 0; f < 8; ++f) rows[f] = F(r[f]);
  }
  template <class F>
  static void scatter(SolverBody* bodies, const std::uint32_t* idx, const wide::Body<F>& B,
                      std::uint32_t mask) {
    scatter_motion<Avx512Ops, __m512>(bodies, idx, B.dx, B.dy, B.da, mask);
  }
};
#pragma GCC diagnostic pop
#endif

}  // namespace detail

// Rows 0-7 of the 32-byte records base[idx[lane]] (8 floats each), one row per field, for the
// lanes of F.
template <class F>
[[gnu::always_inline]] inline void gather_rows8(const float* base, const std::uint32_t* idx,
                                                F rows[8]) {
  detail::LaneRows<wide::kLanesOf<F>>::gather(base, idx, rows);
}

// The seven state fields of the lanes' bodies.
template <class F>
[[gnu::always_inline]] inline wide::Body<F> gather_lanes(const SolverBody* bodies,
                                                         const std::uint32_t* idx) {
  F r[8];
  gather_rows8(&bodies[0].dx, idx, r);
  return {r[0], r[1], r[2], r[4], r[5], r[6], r[7]};
}

// Writes the motion (dx, dy, da) of lanes whose mask bit is set.
template <class F>
[[gnu::always_inline]] inline void scatter_lanes(SolverBody* bodies, const std::uint32_t* idx,
                                                 const wide::Body<F>& B, std::uint32_t mask) {
  detail::LaneRows<wide::kLanesOf<F>>::scatter(bodies, idx, B, mask);
}

// Which of the lanes [lane, lane + width of F) hold a body the solver may write (inverse masses
// im, ii): bodies of infinite mass may be shared by lanes and chunks and are never written. One
// compare of each row and a move of the sign bits: asked lane by lane (two scalar compares a
// lane) it would weigh on every step of a pile.
template <class F>
[[gnu::always_inline]] inline std::uint32_t movable_lanes(const float* im, const float* ii,
                                                          int lane) {
  const F zero(0.0f);
  const auto movable = (wide::load<F>(im + lane) != zero) | (wide::load<F>(ii + lane) != zero);
  // The mask register tells the level: a 16-bit mask (AVX-512), or a vector of 128 (SSE) or 256
  // bits (AVX2), whose sign bits are the lanes.
  using Register = typename std::decay_t<decltype(movable)>::register_type;
  constexpr std::size_t kRegisterBytes = sizeof(Register);
  static_assert(kRegisterBytes == 2 || kRegisterBytes == 16 || kRegisterBytes == 32);
  if constexpr (kRegisterBytes == 2)
    return std::uint32_t(Register(movable));
  else if constexpr (kRegisterBytes == 16)
    return std::uint32_t(_mm_movemask_ps(movable));
  else
    return std::uint32_t(_mm256_movemask_ps(movable));
}

// The scalar twin: lane by lane, through the kernels instantiated with float. Lanes run one
// after another, so they may share bodies (the overflow colour).
template <class Fn>
void run_scalar(SolverBody* bodies, WideConstraint& c, Fn&& fn) {
  for (int i = 0; i < kContactLanes; ++i) {
    SolverBody& a = bodies[c.a[i]];
    SolverBody& b = bodies[c.b[i]];
    wide::Body<float> A{a.dx, a.dy, a.da, a.dpx, a.dpy, a.dqc, a.dqs};
    wide::Body<float> B{b.dx, b.dy, b.da, b.dpx, b.dpy, b.dqc, b.dqs};
    fn(A, B, i);
    if (c.ima[i] != 0 || c.iia[i] != 0) a.dx = A.dx, a.dy = A.dy, a.da = A.da;
    if (c.imb[i] != 0 || c.iib[i] != 0) b.dx = B.dx, b.dy = B.dy, b.da = B.da;
  }
}

}  // namespace strut
