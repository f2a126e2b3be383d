// The broad phase's sweep queries over one chunk of moving boxes (sweep_queries.hpp) in one table
// per SIMD level (solver/simd/simd_dispatch.hpp): the scalar twin, ScalarKernel
// (sweep_kernel_table.cpp), and the xsimd batch of each level, compiled for it in
// sweep_kernel_table_<level>.cpp.
#pragma once

#include <cstddef>

#include "solver/simd/simd_dispatch.hpp"

namespace strut::broadphase {

struct SweepView;
struct HitBuffer;

struct SweepKernels {
  int lanes;  // floats a register holds at this level (1: the scalar twin)
  void (*queries)(const SweepView& v, std::size_t begin, std::size_t end,
                  void (*flush)(void* context, HitBuffer& hits), void* context);
};
extern const SweepKernels kSweepKernelsScalar;
extern const SweepKernels kSweepKernelsSse42;
extern const SweepKernels kSweepKernelsAvx2;
extern const SweepKernels kSweepKernelsAvx512;
extern const SimdTables<SweepKernels> kSweepKernelTables;

// The table of the level in use.
inline const SweepKernels& sweep_kernels() { return kSweepKernelTables.current(); }

}  // namespace strut::broadphase
