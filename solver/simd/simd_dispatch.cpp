#include "solver/simd/simd_dispatch.hpp"

#include <atomic>
#include <cstdlib>
#include <string>
#include <string_view>

#include "strut/error.hpp"

namespace strut {

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

}  // namespace

std::atomic<std::uint8_t> detail::simd_level_in_use{std::uint8_t(kSimdLevelCount)};

SimdLevel detail::choose_simd_level() {
  SimdLevel level = SimdLevel::Scalar;
  if (const char* forced = std::getenv("STRUT_SIMD")) {
    level = level_named(forced);
    if (!simd_level_runs(level))
      throw Error(std::string("STRUT_SIMD: this CPU cannot run ") + forced);
  } else {
    level = runnable_simd_levels().back();
  }
  // Threads meeting the first use together choose the same; set_simd_level may have come first.
  std::uint8_t unset = std::uint8_t(kSimdLevelCount);
  simd_level_in_use.compare_exchange_strong(unset, std::uint8_t(level), std::memory_order_relaxed);
  return SimdLevel(simd_level_in_use.load(std::memory_order_relaxed));
}

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

void set_simd_level(SimdLevel level) {
  if (!simd_level_runs(level))
    throw Error(std::string("set_simd_level: this CPU cannot run ") + simd_level_name(level));
  detail::simd_level_in_use.store(std::uint8_t(level), std::memory_order_relaxed);
}

}  // namespace strut
