// The joint points' kernel tables: the scalar level's, the scalar twins of point_lanes.hpp, and
// the tables of every level (point_kernel_table.hpp).
#include "solver/joints/point_kernel_table.hpp"

#include "solver/joints/point_lanes.hpp"

namespace strut {
namespace {

// The scalar twin without the largest motion it returns (the table's kernels return nothing).
void point_solve(const PointSpans& s, PointGroup* groups, std::uint32_t lo, std::uint32_t hi) {
  solve_point_groups_scalar(s, groups, lo, hi);
}

}  // namespace

const PointKernels kPointKernelsScalar = {1, &refresh_point_groups_scalar, &point_solve,
                                          &project_point_groups_scalar};

const SimdTables<PointKernels> kPointKernelTables{kPointKernelsScalar, kPointKernelsSse42,
                                                  kPointKernelsAvx2, kPointKernelsAvx512};

}  // namespace strut
