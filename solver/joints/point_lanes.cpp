// Moving joint-point groups' bodies into SIMD lanes and back, around the kernels of
// point_lanes.hpp, and their scalar twins.
#include "solver/joints/point_lanes.hpp"

#include "solver/joints/point_kernels.hpp"

#if defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
#endif

namespace strut {
namespace {

using F = WideFloat;

// Field `base` of the lanes' bodies idx[0 .. kWideLanes). Every lane's index is a body this
// group owns or one nobody writes in this stage (fixed bodies; padding lanes repeat lane 0's), so
// a hardware gather may read them all. xsimd's own gather loads lane by lane through a call (20%
// of joint_grid's instructions at 4 passes, callgrind).
inline F gather(const float* base, const std::uint32_t* idx) {
#if defined(__AVX512F__)
  static_assert(kWideLanes == 16);
  return _mm512_i32gather_ps(_mm512_load_si512(idx), base, 4);
#elif defined(__AVX2__)
  static_assert(kWideLanes == 8);
  return _mm256_i32gather_ps(base, _mm256_load_si256(reinterpret_cast<const __m256i*>(idx)), 4);
#else
  alignas(64) float v[kWideLanes];
  for (int i = 0; i < kWideLanes; ++i) v[i] = base[idx[i]];
  return F::load_aligned(v);
#endif
}

inline wide::Motion<F> gather_motion(const PointSpans& s, const std::uint32_t* idx) {
  return {gather(s.dx, idx), gather(s.dy, idx), gather(s.da, idx)};
}

// Writes the motion of the lanes whose body is movable (mass or inertia finite). Within a colour
// such a body belongs to one lane of one group.
inline void scatter_motion(const PointSpans& s, const std::uint32_t* idx, const float* inv_mass,
                           const float* inv_inertia, const wide::Motion<F>& m) {
  alignas(64) float v[3][kWideLanes];
  m.dx.store_aligned(v[0]), m.dy.store_aligned(v[1]), m.da.store_aligned(v[2]);
  for (int i = 0; i < kWideLanes; ++i) {
    if (inv_mass[i] == 0 && inv_inertia[i] == 0) continue;
    s.dx[idx[i]] = v[0][i], s.dy[idx[i]] = v[1][i], s.da[idx[i]] = v[2][i];
  }
}

// Whether each lane may write its body: movable (mass or inertia finite) and acted on (1).
inline void movable(const float* inv_mass, const float* inv_inertia, const float* acted,
                    bool out[kWideLanes]) {
  for (int i = 0; i < kWideLanes; ++i)
    out[i] = (inv_mass[i] != 0 || inv_inertia[i] != 0) && acted[i] != 0;
}

inline wide::Pose<F> gather_pose(const PointSpans& s, const std::uint32_t* idx) {
  return {gather(s.px, idx), gather(s.py, idx), gather(s.qc, idx), gather(s.qs, idx),
          gather(s.dx, idx), gather(s.dy, idx), gather(s.da, idx)};
}

inline wide::Pose<float> load_pose(const PointSpans& s, std::uint32_t k) {
  return {s.px[k], s.py[k], s.qc[k], s.qs[k], s.dx[k], s.dy[k], s.da[k]};
}
inline void store_pose(const PointSpans& s, std::uint32_t k, const wide::Pose<float>& p) {
  s.px[k] = p.px, s.py[k] = p.py, s.qc[k] = p.qc, s.qs[k] = p.qs;
  s.dx[k] = p.dx, s.dy[k] = p.dy, s.da[k] = p.da;
}

inline void scatter_pose(const PointSpans& s, const std::uint32_t* idx, const bool* write,
                         const wide::Pose<F>& p) {
  alignas(64) float v[7][kWideLanes];
  p.px.store_aligned(v[0]), p.py.store_aligned(v[1]), p.qc.store_aligned(v[2]);
  p.qs.store_aligned(v[3]), p.dx.store_aligned(v[4]), p.dy.store_aligned(v[5]);
  p.da.store_aligned(v[6]);
  for (int i = 0; i < kWideLanes; ++i)
    if (write[i])
      store_pose(s, idx[i], {v[0][i], v[1][i], v[2][i], v[3][i], v[4][i], v[5][i], v[6][i]});
}

// Runs fn(A, B) on the group's gathered bodies and writes back the movable ones.
template <class Fn>
inline void run_wide(const PointSpans& s, PointGroup& g, Fn&& fn) {
  wide::Motion<F> A = gather_motion(s, g.a), B = gather_motion(s, g.b);
  fn(A, B);
  scatter_motion(s, g.a, g.ma, g.ia, A);
  scatter_motion(s, g.b, g.mb, g.ib, B);
}

// The scalar twin of run_wide: lane after lane, reading the bodies as the earlier lanes left them.
template <class Fn>
inline void run_scalar(const PointSpans& s, PointGroup& g, Fn&& fn) {
  for (int i = 0; i < kWideLanes; ++i) {
    if (g.joint[i] == kPointPadding) continue;
    const std::uint32_t a = g.a[i], b = g.b[i];
    wide::Motion<float> A{s.dx[a], s.dy[a], s.da[a]}, B{s.dx[b], s.dy[b], s.da[b]};
    fn(A, B, i);
    if (g.ma[i] != 0 || g.ia[i] != 0) s.dx[a] = A.dx, s.dy[a] = A.dy, s.da[a] = A.da;
    if (g.mb[i] != 0 || g.ib[i] != 0) s.dx[b] = B.dx, s.dy[b] = B.dy, s.da[b] = B.da;
  }
}

}  // namespace

void refresh_point_groups_wide(const PointSpans& s, PointGroup* groups, std::uint32_t lo,
                               std::uint32_t hi, bool warm_start) {
  for (std::uint32_t k = lo; k < hi; ++k) {
    PointGroup& g = groups[k];
    wide::refresh_point_lanes(g, 0, gather(s.qc, g.a), gather(s.qs, g.a), gather(s.qc, g.b),
                              gather(s.qs, g.b));
    if (warm_start)
      run_wide(s, g, [&g](wide::Motion<F>& A, wide::Motion<F>& B) {
        wide::warm_start_point_lanes(A, B, g, 0);
      });
  }
}

void refresh_point_groups_scalar(const PointSpans& s, PointGroup* groups, std::uint32_t lo,
                                 std::uint32_t hi, bool warm_start) {
  for (std::uint32_t k = lo; k < hi; ++k) {
    PointGroup& g = groups[k];
    for (int i = 0; i < kWideLanes; ++i)
      wide::refresh_point_lanes(g, i, s.qc[g.a[i]], s.qs[g.a[i]], s.qc[g.b[i]], s.qs[g.b[i]]);
    if (warm_start)
      run_scalar(s, g, [&g](wide::Motion<float>& A, wide::Motion<float>& B, int i) {
        wide::warm_start_point_lanes(A, B, g, i);
      });
  }
}

void solve_point_groups_wide(const PointSpans& s, PointGroup* groups, std::uint32_t lo,
                             std::uint32_t hi) {
  for (std::uint32_t k = lo; k < hi; ++k) {
    PointGroup& g = groups[k];
    run_wide(s, g,
             [&g](wide::Motion<F>& A, wide::Motion<F>& B) { wide::solve_point_lanes(A, B, g, 0); });
  }
}

void solve_point_groups_scalar(const PointSpans& s, PointGroup* groups, std::uint32_t lo,
                               std::uint32_t hi) {
  for (std::uint32_t k = lo; k < hi; ++k) {
    PointGroup& g = groups[k];
    run_scalar(s, g, [&g](wide::Motion<float>& A, wide::Motion<float>& B, int i) {
      wide::solve_point_lanes(A, B, g, i);
    });
  }
}

void project_point_groups_wide(const PointSpans& s, const PointGroup* groups, std::uint32_t lo,
                               std::uint32_t hi) {
  for (std::uint32_t k = lo; k < hi; ++k) {
    const PointGroup& g = groups[k];
    wide::Pose<F> A = gather_pose(s, g.a), B = gather_pose(s, g.b);
    alignas(64) float acted[kWideLanes];
    wide::project_point_lanes(A, B, g, 0).store_aligned(acted);
    bool write[kWideLanes];
    movable(g.mb, g.ib, acted, write);
    scatter_pose(s, g.b, write, B);
    movable(g.ma, g.ia, acted, write);
    scatter_pose(s, g.a, write, A);
  }
}

void project_point_groups_scalar(const PointSpans& s, const PointGroup* groups, std::uint32_t lo,
                                 std::uint32_t hi) {
  for (std::uint32_t k = lo; k < hi; ++k) {
    const PointGroup& g = groups[k];
    for (int i = 0; i < kWideLanes; ++i) {
      if (g.joint[i] == kPointPadding) continue;
      const std::uint32_t a = g.a[i], b = g.b[i];
      wide::Pose<float> A = load_pose(s, a), B = load_pose(s, b);
      if (wide::project_point_lanes(A, B, g, i) == 0) continue;
      if (g.mb[i] != 0 || g.ib[i] != 0) store_pose(s, b, B);
      if (g.ma[i] != 0 || g.ia[i] != 0) store_pose(s, a, A);
    }
  }
}

}  // namespace strut
