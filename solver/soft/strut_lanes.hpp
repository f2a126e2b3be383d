// The batched strut kernel: one small soft body per SIMD lane. Soft bodies made from the same
// shape kind share a topology (the same particle count and the same struts between the same
// particle slots, in the same order), and different bodies share no particle, so kLaneBodies
// bodies of one topology are solved side by side, each lane running its body's struts in creation
// order. A group loads its bodies' particles once, slot-major ([slot][lane]), projects every strut
// of the topology on whole registers (a strut's ends are group-uniform slots, so nothing is
// gathered per strut), and writes the particles back once.
//
// Written once as a template over the number type like strut_kernel.hpp: with float it is the
// scalar twin, lane by lane on the particle arrays themselves; with an xsimd batch the SIMD
// kernel, dispatched at run time (solver/simd/simd_dispatch.hpp): a group is kLaneBodies (32)
// bodies whatever the build or CPU, covered by 2 AVX-512, 4 AVX2 or 8 SSE registers per slot. Both
// do exactly solve_struts' arithmetic in solve_struts' order, so SIMD at every level, twin and the
// creation-order loop give the same bits (tests/strut_lanes_test.cpp, simd_dispatch_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "solver/soft/strut_kernel.hpp"
#include "strut/body.hpp"

namespace strut {

// Largest soft body the lanes take: every soft polygon the API can make (a 16-gon: 17 particles,
// 32 struts), so only hand-built bodies keep the per-strut paths. A group's slot-major copy of
// its particles then stays within 11 KB of stack.
inline constexpr int kMaxLaneSlots = kMaxPolygonVertices + 1;
inline constexpr int kMaxLaneStruts = 2 * kMaxPolygonVertices;

// Bodies in a lane group, fixed so every SIMD level groups the same bodies: two AVX-512
// registers per slot. A body's struts form one dependent chain (each reads what the one before
// wrote), so one register per slot left the kernel waiting on sqrt and division latency; two
// independent chains interleave (four gain little more, not worth twice the stack and padding).
// Narrower levels run four or eight.
inline constexpr int kLaneBodies = 32;

// Marks the unused lanes at the end of a topology's last group.
inline constexpr std::int32_t kLanePadding = -1;

// A strut of a topology: its ends as particle slots (particle index - the body's first particle).
// Never equal: the builder leaves bodies with a strut from a particle to itself to the other paths.
struct LaneEnds {
  std::uint8_t a, b;
};

// One strut of a topology in every lane of a group: per-body constants and the XPBD multiplier.
struct alignas(64) LaneStrut {
  float rest[kLaneBodies], compliance[kLaneBodies];
  float lambda[kLaneBodies];  // accumulated over a substep's iterations
};

// kLaneBodies bodies of one topology. Lanes [0, lanes) hold bodies, the rest are padding.
struct alignas(64) LaneGroup {
  std::int32_t first[kLaneBodies];  // each lane's first particle; kLanePadding in unused lanes
  std::uint32_t body[kLaneBodies];  // dense body index, ~0 in unused lanes (tests, debugging)
  std::uint32_t topology = 0;
  std::uint32_t strut_row = 0;  // its struts are LaneStrut rows strut_row .. + strut count
  std::uint32_t lanes = 0;
};

struct LaneTopology {
  std::uint32_t slots = 0;                       // particles per body
  std::uint32_t end_begin = 0, strut_count = 0;  // its struts in StrutLanes::ends
};

// A run [begin, end) of SoftStore::struts indices.
struct StrutRun {
  std::uint32_t begin, end;
};

// The soft bodies solved by lanes, and the struts left to the creation-order loop or the
// colouring. Rebuilt (strut_batching.cpp) only when bodies or struts change.
struct StrutLanes {
  std::vector<LaneTopology> topologies;
  std::vector<LaneEnds> ends;
  std::vector<LaneGroup> groups;  // topology by topology, bodies in creation order
  std::vector<LaneStrut> rows;
  std::vector<StrutRun> other;  // struts not in a lane group, in creation order
  std::size_t other_count = 0;
  bool dirty = true;         // bodies or struts changed since the last build
  std::uint64_t builds = 0;  // tests: how often it was rebuilt
  template <class F>
  void for_each_field(F&& f) {
    f(topologies), f(ends), f(groups), f(rows), f(other), f(other_count), f(dirty);
    f(builds);
  }
};

namespace wide {

// Exact negation. xsimd negates a batch as 0 - x, which turns +0 into +0, not -0; solve_struts
// negates a float, so the lanes flip the sign bit to agree with it.
inline float negate(float a) { return -a; }
template <class A>
xsimd::batch<float, A> negate(const xsimd::batch<float, A>& a) {
  return a ^ xsimd::batch<float, A>(-0.0f);
}

// The struts of one topology on a group's particle slots. F = float: one body, slot k at
// p.x[k] (the particle arrays from the body's first particle), constants in lane `lane` of the
// rows. F = a batch: all kLaneBodies bodies, slot k at p.x + k * kLaneBodies (slot-major
// copy), lane 0, each strut on the slot's kLaneBodies / width registers in turn. Each strut is
// solve_struts' projection, operation for operation: the skips (length < 1e-9, no mass) select the
// old values, so a skipping strut leaves its multiplier and particles' bits alone. Both ends are
// read before either is written, which is solve_struts' order because a topology never joins a slot
// to itself.
template <class F>
void project_lane_struts(const StrutSpans& p, std::span<const LaneEnds> ends, LaneStrut* rows,
                         int lane, float inv_h2) {
  constexpr bool scalar = std::is_same_v<F, float>;
  constexpr std::size_t stride = scalar ? 1 : std::size_t(kLaneBodies);
  constexpr int width = kLanesOf<F>;
  constexpr int batches = scalar ? 1 : kLaneBodies / width;
  const F zero(0.0f);
  for (std::size_t k = 0; k < ends.size(); ++k)
    for (int m = 0; m < batches; ++m) {
      const std::size_t a = ends[k].a * stride + std::size_t(m * width);
      const std::size_t b = ends[k].b * stride + std::size_t(m * width);
      const int ln = lane + m * width;
      LaneStrut& s = rows[k];
      const F xa = load<F>(p.x + a), ya = load<F>(p.y + a), wa = load<F>(p.w + a);
      const F xb = load<F>(p.x + b), yb = load<F>(p.y + b), wb = load<F>(p.w + b);
      const F dx = xb - xa, dy = yb - ya;
      const F len = vsqrt(dx * dx + dy * dy);
      const F alpha = load<F>(s.compliance + ln) * F(inv_h2);
      const F wsum = (wa + wb) + alpha;
      const auto active = !(len < F(1e-9f)) && !(wsum <= zero);
      const F lambda = load<F>(s.lambda + ln);
      const F dl = (negate(len - load<F>(s.rest + ln)) - alpha * lambda) / wsum;
      store(s.lambda + ln, select(active, lambda + dl, lambda));
      const F l = dl / len;
      const F ax = wa * l * dx, ay = wa * l * dy;
      const F bx = wb * l * dx, by = wb * l * dy;
      const F dxa = load<F>(p.dx + a), dya = load<F>(p.dy + a);
      const F dxb = load<F>(p.dx + b), dyb = load<F>(p.dy + b);
      store(p.x + a, select(active, xa - ax, xa));
      store(p.y + a, select(active, ya - ay, ya));
      store(p.dx + a, select(active, dxa - ax, dxa));
      store(p.dy + a, select(active, dya - ay, dya));
      store(p.x + b, select(active, xb + bx, xb));
      store(p.y + b, select(active, yb + by, yb));
      store(p.dx + b, select(active, dxb + bx, dxb));
      store(p.dy + b, select(active, dyb + by, dyb));
    }
}

}  // namespace wide

// What a group needs from its topology.
struct LaneShape {
  std::uint32_t slots;
  std::span<const LaneEnds> ends;
};

namespace wide {

// One group in registers of F (a batch): copies its bodies' particles slot-major, projects, and
// writes the used lanes back. Padding lanes stay zero (a zero-length strut, which the kernel
// skips) and read and write no particle. Each SIMD level's file instantiates its own
// (strut_kernel_table_<level>.cpp); plain loops, no library algorithm a baseline file might share.
template <class F>
void solve_lane_group_simd(const StrutSpans& p, const LaneShape& t, const LaneGroup& g,
                           LaneStrut* rows, float inv_h2) {
  alignas(64) float x[kMaxLaneSlots][kLaneBodies], y[kMaxLaneSlots][kLaneBodies];
  alignas(64) float w[kMaxLaneSlots][kLaneBodies];
  alignas(64) float dx[kMaxLaneSlots][kLaneBodies], dy[kMaxLaneSlots][kLaneBodies];
  const std::uint32_t slots = t.slots, lanes = g.lanes;
  for (std::uint32_t k = 0; k < slots; ++k)
    for (std::uint32_t l = lanes; l < std::uint32_t(kLaneBodies); ++l)
      x[k][l] = y[k][l] = w[k][l] = dx[k][l] = dy[k][l] = 0.0f;
  for (std::uint32_t l = 0; l < lanes; ++l) {
    const std::size_t f = std::size_t(g.first[l]);
    for (std::uint32_t k = 0; k < slots; ++k) {
      x[k][l] = p.x[f + k], y[k][l] = p.y[f + k], w[k][l] = p.w[f + k];
      dx[k][l] = p.dx[f + k], dy[k][l] = p.dy[f + k];
    }
  }
  const StrutSpans block{x[0], y[0], dx[0], dy[0], w[0]};
  project_lane_struts<F>(block, t.ends, rows, 0, inv_h2);
  for (std::uint32_t l = 0; l < lanes; ++l) {
    const std::size_t f = std::size_t(g.first[l]);
    for (std::uint32_t k = 0; k < slots; ++k) {
      p.x[f + k] = x[k][l], p.y[f + k] = y[k][l];
      p.dx[f + k] = dx[k][l], p.dy[f + k] = dy[k][l];
    }
  }
}

}  // namespace wide

// Fewest bodies for which a group goes through the SIMD kernel; a group of fewer is cheaper
// through the scalar twin, which gives the same bits (measured on soft boxes: the SIMD kernel
// wins from two bodies on).
inline constexpr std::uint32_t kMinWideBodies = 2;

// One group through the SIMD kernel of the level in use (wide::solve_lane_group_simd).
void solve_lane_group_wide(const StrutSpans& p, const LaneShape& t, const LaneGroup& g,
                           LaneStrut* rows, float inv_h2);
// The scalar twin: body by body in lane order, straight on the particle arrays (the same memory
// traffic as solve_struts' loop).
void solve_lane_group_scalar(const StrutSpans& p, const LaneShape& t, const LaneGroup& g,
                             LaneStrut* rows, float inv_h2);

}  // namespace strut
