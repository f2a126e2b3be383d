// The sweep's kernel tables: the scalar level's, the scalar twin (ScalarKernel) compiled for the
// baseline, and the tables of every level (sweep_kernel_table.hpp).
#include "broadphase/sweep_kernel_table.hpp"

#include "broadphase/sweep_queries.hpp"

namespace strut::broadphase {

const SweepKernels kSweepKernelsScalar = {1, &sweep_queries<ScalarKernel>};

const SimdTables<SweepKernels> kSweepKernelTables{kSweepKernelsScalar, kSweepKernelsSse42,
                                                  kSweepKernelsAvx2, kSweepKernelsAvx512};

}  // namespace strut::broadphase
