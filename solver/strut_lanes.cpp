// The lane groups' SIMD kernel and scalar twin around project_lane_struts (strut_lanes.hpp).
#include "solver/strut_lanes.hpp"

#include <algorithm>

namespace strut {

void solve_lane_group_wide(const StrutSpans& p, const LaneShape& t, const LaneGroup& g,
                           LaneStrut* rows, float inv_h2) {
  // Slot-major copy of the group's particles. Padding lanes stay zero: a zero-length strut,
  // which the kernel skips.
  alignas(64) float x[kMaxLaneSlots][kLaneBodies], y[kMaxLaneSlots][kLaneBodies];
  alignas(64) float w[kMaxLaneSlots][kLaneBodies];
  alignas(64) float dx[kMaxLaneSlots][kLaneBodies], dy[kMaxLaneSlots][kLaneBodies];
  const std::uint32_t slots = t.slots, lanes = g.lanes;
  if (lanes < std::uint32_t(kLaneBodies)) {
    for (std::uint32_t k = 0; k < slots; ++k)
      for (auto* v : {x[k], y[k], w[k], dx[k], dy[k]}) std::fill(v + lanes, v + kLaneBodies, 0.0f);
  }
  for (std::uint32_t l = 0; l < lanes; ++l) {
    const std::size_t f = std::size_t(g.first[l]);
    for (std::uint32_t k = 0; k < slots; ++k) {
      x[k][l] = p.x[f + k], y[k][l] = p.y[f + k], w[k][l] = p.w[f + k];
      dx[k][l] = p.dx[f + k], dy[k][l] = p.dy[f + k];
    }
  }
  const StrutSpans block{x[0], y[0], dx[0], dy[0], w[0]};
  wide::project_lane_struts<WideFloat>(block, t.ends, rows, 0, inv_h2);
  for (std::uint32_t l = 0; l < lanes; ++l) {
    const std::size_t f = std::size_t(g.first[l]);
    for (std::uint32_t k = 0; k < slots; ++k) {
      p.x[f + k] = x[k][l], p.y[f + k] = y[k][l];
      p.dx[f + k] = dx[k][l], p.dy[f + k] = dy[k][l];
    }
  }
}

void solve_lane_group_scalar(const StrutSpans& p, const LaneShape& t, const LaneGroup& g,
                             LaneStrut* rows, float inv_h2) {
  for (std::uint32_t l = 0; l < g.lanes; ++l) {
    const std::size_t f = std::size_t(g.first[l]);
    const StrutSpans body{p.x + f, p.y + f, p.dx + f, p.dy + f, p.w + f};
    wide::project_lane_struts<float>(body, t.ends, rows, int(l), inv_h2);
  }
}

}  // namespace strut
