// After the substeps: rigid bodies' particles (hull vertices) follow their pose, soft bodies get
// a best-fit pose and motion for reporting.
#include <cmath>

#include "solver/bodies/body_store.hpp"
#include "solver/core/stores.hpp"
#include "solver/core/task_system.hpp"
#include "solver/step/step_internals.hpp"
#include "solver/step/step_scratch.hpp"
#include "solver/step/visited_bodies.hpp"

namespace strut {
namespace {

// Vertices [begin, end) placed at position + r (lx, ly). The columns are distinct arrays: said
// (restrict), the compiler no longer checks them for overlap before every body's few vertices.
inline void place_vertices(const float* __restrict lx, const float* __restrict ly,
                           float* __restrict x, float* __restrict y, std::uint32_t begin,
                           std::uint32_t end, Rot r, Vec2 position) {
  for (std::uint32_t i = begin; i < end; ++i) {
    const Vec2 p = position + rotate(r, {lx[i], ly[i]});
    x[i] = p.x;
    y[i] = p.y;
  }
}

}  // namespace

// Particles of rigid bodies follow their pose; soft bodies get a best-fit pose for reporting.
void sync_particles(Stores<RunsTasks, WritesBodies, WritesParticles, ReadsScratch> w) {
  auto& b = w.bodies;
  auto& q = w.particles;
  // The bodies the solver may have moved; the others' particles are where they were put.
  parallel_for_runs(w, w.scratch.solver_runs, [&](int lo, int hi) {
    for (std::uint32_t k = std::uint32_t(lo); k < std::uint32_t(hi); ++k) {
      const std::uint8_t flags = b.flags[k];
      if (flags & kSoft) {
        fit_soft_pose(w, k);
        continue;
      }
      // Static and sleeping bodies have not moved since their particles were placed (moving one
      // by hand places them and wakes it).
      if (flags & (kStatic | kSleeping)) continue;
      const Rot r{b.qc[k], b.qs[k]};
      const Vec2 position{b.px[k], b.py[k]};
      const std::uint32_t p0 = b.particle_begin[k];
      place_vertices(q.lx.data(), q.ly.data(), q.x.data(), q.y.data(), p0, p0 + b.particle_count[k],
                     r, position);
    }
  });
}

void fit_soft_pose(Stores<WritesBodies, WritesParticles> w, std::uint32_t k) {
  auto& b = w.bodies;
  auto& q = w.particles;
  const std::uint32_t p0 = b.particle_begin[k], pc = b.particle_count[k];
  auto fit = [&](const std::vector<float>& xs, const std::vector<float>& ys, float& px, float& py,
                 float& qc, float& qs) {
    double m = 0, cx = 0, cy = 0;
    for (std::uint32_t i = p0; i < p0 + pc; ++i) {
      const double mi = 1.0 / q.w[i];
      m += mi, cx += mi * xs[i], cy += mi * ys[i];
    }
    cx /= m, cy /= m;
    double sc = 0, ss = 0;
    for (std::uint32_t i = p0; i < p0 + pc; ++i) {
      const double mi = 1.0 / q.w[i];
      const double rx = xs[i] - cx, ry = ys[i] - cy;
      sc += mi * (q.lx[i] * rx + q.ly[i] * ry);
      ss += mi * (q.lx[i] * ry - q.ly[i] * rx);
    }
    const double len = std::sqrt(sc * sc + ss * ss);
    px = float(cx), py = float(cy);
    qc = len > 0 ? float(sc / len) : 1.0f;
    qs = len > 0 ? float(ss / len) : 0.0f;
  };
  fit(q.x, q.y, b.px[k], b.py[k], b.qc[k], b.qs[k]);
  // Motion of the body: mass-weighted particle motion, and the rotation that best maps the
  // particles' previous offsets onto the current ones.
  double m = 0, mx = 0, my = 0, sc = 0, ss = 0;
  for (std::uint32_t i = p0; i < p0 + pc; ++i) {
    const double mi = 1.0 / q.w[i];
    m += mi, mx += mi * q.dx[i], my += mi * q.dy[i];
  }
  b.dx[k] = float(mx / m);
  b.dy[k] = float(my / m);
  for (std::uint32_t i = p0; i < p0 + pc; ++i) {
    const double mi = 1.0 / q.w[i];
    const double rx = q.x[i] - b.px[k], ry = q.y[i] - b.py[k];
    const double ox = rx - (q.dx[i] - b.dx[k]), oy = ry - (q.dy[i] - b.dy[k]);
    sc += mi * (ox * rx + oy * ry);
    ss += mi * (ox * ry - oy * rx);
  }
  const double len = std::sqrt(sc * sc + ss * ss);
  b.da[k] = len > 0 ? float(std::atan2(ss, sc)) : 0.0f;
}

}  // namespace strut
