// Runs a test's worlds at one SIMD level (solver/simd/simd_dispatch.hpp) and restores the
// process's level after: the scalar level runs every kernel's scalar twin, which the wide
// kernels must match bit for bit.
#pragma once

#include "solver/simd/simd_dispatch.hpp"

namespace strut::test {

class SimdLevelScope {
 public:
  explicit SimdLevelScope(SimdLevel level) { set_simd_level(level); }
  ~SimdLevelScope() { set_simd_level(saved_); }
  SimdLevelScope(const SimdLevelScope&) = delete;
  SimdLevelScope& operator=(const SimdLevelScope&) = delete;

 private:
  SimdLevel saved_ = simd_level();
};

}  // namespace strut::test
