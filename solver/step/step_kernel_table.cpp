// The step's kernel tables: the scalar level's, the scalar twins compiled for the baseline, and
// the tables of every level (step_kernel_table.hpp).
#include "solver/step/step_kernel_table.hpp"

#include "solver/step/bounds_kernel.hpp"
#include "solver/step/integrate.hpp"

namespace strut {

const StepKernels kStepKernelsScalar = {1, &integrate_rigid_velocity_scalar,
                                        &integrate_rigid_position_scalar, &fatten_bounds_scalar};

const SimdTables<StepKernels> kStepKernelTables{kStepKernelsScalar, kStepKernelsSse42,
                                                kStepKernelsAvx2, kStepKernelsAvx512};

}  // namespace strut
