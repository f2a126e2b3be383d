// The struts' kernel tables: the scalar level's, the scalar twins of strut_lanes.hpp and
// strut_kernel.hpp, and the tables of every level (strut_kernel_table.hpp).
#include "solver/soft/strut_kernel_table.hpp"

#include "solver/soft/strut_kernel.hpp"
#include "solver/soft/strut_lanes.hpp"

namespace strut {

const StrutKernels kStrutKernelsScalar = {1, &solve_lane_group_scalar, &solve_strut_group_scalar};

const SimdTables<StrutKernels> kStrutKernelTables{kStrutKernelsScalar, kStrutKernelsSse42,
                                                  kStrutKernelsAvx2, kStrutKernelsAvx512};

}  // namespace strut
