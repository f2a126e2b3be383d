// The lane groups' SIMD kernel and scalar twin around project_lane_struts (strut_lanes.hpp).
#include "solver/soft/strut_lanes.hpp"

#include "solver/soft/strut_kernel_table.hpp"

namespace strut {

void solve_lane_group_wide(const StrutSpans& p, const LaneShape& t, const LaneGroup& g,
                           LaneStrut* rows, float inv_h2) {
  strut_kernels().lane_group(p, t, g, rows, inv_h2);
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
