#include "solver/simd/simd_dispatch.hpp"

#include <atomic>
#include <cstdlib>
#include <string>
#include <string_view>

#include "strut/error.hpp"

namespace strut {
namespace {

const SimdKernels& kernels_of(SimdLevel level) {
  switch (level) {
    case SimdLevel::Sse42:
      return kSimdKernelsSse42;
    case SimdLevel::Avx2:
      return kSimdKernelsAvx2;
    case SimdLevel::Scalar:
      return kSimdKernelsScalar;
    default:
      return kSimdKernelsAvx512;
  }
}

}  // namespace

bool simd_level_runs(SimdLevel level) {
  // libgcc's CPU model also checks (XGETBV) that the OS saves the AVX and AVX-512 registers.
  switch (level) {
    case SimdLevel::Scalar:
      return true;
    case SimdLevel::Sse42:
      return __builtin_cpu_supports("sse4.2");
    case SimdLevel::Avx2:
      return __builtin_cpu_supports("avx2");
    default:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  }
}

namespace {

constexpr SimdLevel kLevels[] = {SimdLevel::Scalar, SimdLevel::Sse42, SimdLevel::Avx2,
                                 SimdLevel::Avx512};  // narrowest first

SimdLevel level_named(std::string_view name) {
  for (const SimdLevel level : kLevels)
    if (name == simd_level_name(level)) return level;
  throw Error("STRUT_SIMD: unknown level \"" + std::string(name) +
              "\" (expected scalar, sse4.2, avx2 or avx512)");
}

std::atomic<const SimdKernels*>& chosen() {
  static std::atomic<const SimdKernels*> kernels = [] {
    if (const char* forced = std::getenv("STRUT_SIMD")) {
      const SimdLevel level = level_named(forced);
      if (!simd_level_runs(level))
        throw Error(std::string("STRUT_SIMD: this CPU cannot run ") + forced);
      return &kernels_of(level);
    }
    return &kernels_of(runnable_simd_levels().back());
  }();
  return kernels;
}

}  // namespace

const char* simd_level_name(SimdLevel level) {
  switch (level) {
    case SimdLevel::Scalar:
      return "scalar";
    case SimdLevel::Sse42:
      return "sse4.2";
    case SimdLevel::Avx2:
      return "avx2";
    default:
      return "avx512";
  }
}

std::vector<SimdLevel> runnable_simd_levels() {
  std::vector<SimdLevel> levels;
  for (const SimdLevel level : kLevels)
    if (simd_level_runs(level)) levels.push_back(level);
  return levels;
}

const SimdKernels& simd_kernels() { return *chosen().load(std::memory_order_relaxed); }

void set_simd_level(SimdLevel level) {
  if (!simd_level_runs(level))
    throw Error(std::string("set_simd_level: this CPU cannot run ") + simd_level_name(level));
  chosen().store(&kernels_of(level), std::memory_order_relaxed);
}

}  // namespace strut
