// The contact kernel tables: the scalar level's, every kernel's scalar twin lane after lane,
// compiled for the baseline, and the tables of every level (contact_kernel_table.hpp). Forced
// with STRUT_SIMD=scalar (or set_simd_level), the scalar level runs a whole world without SIMD
// kernels, which is what tests and benchmarks compare the wide kernels against. The contact
// stages also use its kernels for the overflow colour, whose lanes may share a body
// (contact_stages.cpp).
#include "solver/contacts/contact_kernel_table.hpp"

#include "solver/contacts/contact_kernels.hpp"

namespace strut {
namespace {

// fn(A, B, c, lane) on every lane of cs[0 .. count), constraint after constraint.
template <class Fn>
void each_lane(SolverBody* bodies, WideConstraint* cs, std::uint32_t count, Fn&& fn) {
  for (std::uint32_t k = 0; k < count; ++k)
    run_scalar(bodies, cs[k], [&](wide::Body<float>& A, wide::Body<float>& B, int lane) {
      fn(A, B, cs[k], lane);
    });
}

void contact_warm_start(SolverBody* bodies, WideConstraint* cs, std::uint32_t count) {
  each_lane(bodies, cs, count,
            [](wide::Body<float>& A, wide::Body<float>& B, WideConstraint& c, int lane) {
              wide::warm_start_lanes(A, B, c, lane);
            });
}

void contact_warm_start_rolling(SolverBody* bodies, WideConstraint* cs, std::uint32_t count,
                                const std::uint8_t* flags, const WideSurface* surface) {
  each_lane(bodies, cs, count,
            [cs, flags, surface](wide::Body<float>& A, wide::Body<float>& B, WideConstraint& c,
                                 int lane) {
              const std::size_t k = std::size_t(&c - cs);
              if (flags[k] & kSurfaceLanes) wide::warm_start_rolling(A, B, c, lane, surface[k]);
            });
}

void contact_solve(SolverBody* bodies, WideConstraint* cs, std::uint32_t count,
                   const WidePass& pass, const std::uint8_t* flags, WideSurface* surface) {
  each_lane(bodies, cs, count,
            [&pass, cs, flags, surface](wide::Body<float>& A, wide::Body<float>& B,
                                        WideConstraint& c, int lane) {
              const std::size_t k = std::size_t(&c - cs);
              WideSurface* rows = surface && (flags[k] & kSurfaceLanes) ? surface + k : nullptr;
              wide::solve_lanes(A, B, c, lane, pass, (flags[k] & kRoundedLanes) != 0, rows);
            });
}

void contact_prepare(const PrepareBody* bodies, const LanePositions& positions,
                     WideFeatures& features, WideConstraint& c) {
  for (int lane = 0; lane < kContactLanes; ++lane)
    wide::prepare_lanes<float>(bodies, positions, features, c, lane);
}

}  // namespace

const ContactKernels kContactKernelsScalar = {1, &contact_warm_start, &contact_warm_start_rolling,
                                              &contact_solve, &contact_prepare};

const SimdTables<ContactKernels> kContactKernelTables{kContactKernelsScalar, kContactKernelsSse42,
                                                      kContactKernelsAvx2, kContactKernelsAvx512};

}  // namespace strut
