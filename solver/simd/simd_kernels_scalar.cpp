// The scalar level: every dispatched kernel's scalar twin, lane after lane, compiled for the
// baseline. The SIMD levels give its bits (tests/simd_dispatch_test.cpp); forced with
// STRUT_SIMD=scalar (or set_simd_level), it runs a whole world without SIMD kernels, which is
// what tests and benchmarks compare the wide kernels against. The contact stages also use its
// contact kernels for the overflow colour, whose lanes may share a body (contact_stages.cpp).
#include "broadphase/sweep_queries.hpp"
#include "solver/contacts/contact_kernels.hpp"
#include "solver/joints/point_lanes.hpp"
#include "solver/simd/simd_dispatch.hpp"
#include "solver/soft/strut_kernel.hpp"
#include "solver/soft/strut_lanes.hpp"
#include "solver/step/bounds_kernel.hpp"
#include "solver/step/integrate.hpp"

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

void point_solve(const PointSpans& s, PointGroup* groups, std::uint32_t lo, std::uint32_t hi) {
  solve_point_groups_scalar(s, groups, lo, hi);
}

}  // namespace

const SimdKernels kSimdKernelsScalar = {SimdLevel::Scalar,
                                        1,
                                        &integrate_rigid_velocity_scalar,
                                        &integrate_rigid_position_scalar,
                                        &fatten_bounds_scalar,
                                        &contact_warm_start,
                                        &contact_warm_start_rolling,
                                        &contact_solve,
                                        &contact_prepare,
                                        &solve_lane_group_scalar,
                                        &solve_strut_group_scalar,
                                        &refresh_point_groups_scalar,
                                        &point_solve,
                                        &project_point_groups_scalar,
                                        &broadphase::sweep_queries<broadphase::ScalarKernel>};

}  // namespace strut
