// The wide contact kernels (prepare, warm start, solve and relax over wide constraints of a fixed
// 16 lanes, which a level covers in registers of its width) in one table per SIMD level
// (solver/simd/simd_dispatch.hpp): the scalar twins, lane after lane (contact_kernel_table.cpp),
// and the kernels of contact_kernels.hpp, compiled for each level in
// contact_kernel_table_<level>.cpp.
#pragma once

#include <cstdint>

#include "solver/simd/simd_dispatch.hpp"

namespace strut {

struct SolverBody;
struct PrepareBody;
struct WideConstraint;
struct WideSurface;
struct WidePass;
struct LanePositions;
struct WideFeatures;

// Each kernel works on one work item, cs[0 .. count) (contact_kernels.hpp). flags: each
// constraint's WideFlag bits; surface: their surface rows (null when none has any).
struct ContactKernels {
  int lanes;  // floats a register holds at this level (1: the scalar twins)
  void (*warm_start)(SolverBody* bodies, WideConstraint* cs, std::uint32_t count);
  void (*warm_start_rolling)(SolverBody* bodies, WideConstraint* cs, std::uint32_t count,
                             const std::uint8_t* flags, const WideSurface* surface);
  void (*solve)(SolverBody* bodies, WideConstraint* cs, std::uint32_t count, const WidePass& pass,
                const std::uint8_t* flags, WideSurface* surface);
  void (*prepare)(const PrepareBody* bodies, const LanePositions& positions, WideFeatures& features,
                  WideConstraint& c);
};
// The scalar level's also serves the overflow colour, whose lanes may share a body
// (contact_stages.cpp).
extern const ContactKernels kContactKernelsScalar;
extern const ContactKernels kContactKernelsSse42;
extern const ContactKernels kContactKernelsAvx2;
extern const ContactKernels kContactKernelsAvx512;
extern const SimdTables<ContactKernels> kContactKernelTables;

// The table of the level in use.
inline const ContactKernels& contact_kernels() { return kContactKernelTables.current(); }

}  // namespace strut
