// The SIMD levels and the choice among them. Each subsystem with SIMD kernels that work on plain
// arrays owns a table of them (rigid integration and bounds: solver/step/step_kernel_table.hpp;
// contacts: solver/contacts/contact_kernel_table.hpp; joint points:
// solver/joints/point_kernel_table.hpp; struts: solver/soft/strut_kernel_table.hpp; the broad
// phase's sweep: broadphase/sweep_kernel_table.hpp) in one copy per level: the scalar twins,
// lane after lane, which every CPU runs, and one per x86-64 level, SSE4.2, AVX2 and AVX-512, each
// in a file of its own compiled with that level's -march (cmake/simd_dispatch.cmake). The widest
// level this CPU and its OS run is chosen on first use, so one binary runs on any x86-64 with
// SSE4.2 and uses the wide registers where they exist. The kernels treat every lane alike, so
// every level gives the same bits, the scalar level's (tests/simd_dispatch_test.cpp).
// STRUT_SIMD=scalar|sse4.2|avx2|avx512 in the environment forces a level the CPU runs.
//
// A level's file instantiates templates over the xsimd architecture only (each subsystem's
// kernels are written so): no inline function compiled there with wide instructions can then be
// shared with (and picked by the linker for) baseline code.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace strut {

enum class SimdLevel : std::uint8_t { Sse42 = 0, Avx2 = 1, Avx512 = 2, Scalar = 3 };
inline constexpr std::size_t kSimdLevelCount = 4;

const char* simd_level_name(SimdLevel level);  // "scalar", "sse4.2", "avx2", "avx512"
// The levels this CPU (and its OS, which must save the wide registers) runs, narrowest first:
// the scalar level, then the SIMD ones.
std::vector<SimdLevel> runnable_simd_levels();
// Whether this CPU (and its OS) runs `level`.
bool simd_level_runs(SimdLevel level);
namespace detail {
// The level in use as a number, kSimdLevelCount until the first use chooses it.
extern std::atomic<std::uint8_t> simd_level_in_use;
// Chooses the level in use on first use: STRUT_SIMD's, else the widest runnable level.
SimdLevel choose_simd_level();
}  // namespace detail

// The level in use: the widest runnable level, or STRUT_SIMD's (read once). Inline, a load and a
// branch taken once: the kernels' callers ask for it every work item.
inline SimdLevel simd_level() {
  const std::uint8_t level = detail::simd_level_in_use.load(std::memory_order_relaxed);
  return level < kSimdLevelCount ? SimdLevel(level) : detail::choose_simd_level();
}
// Switches every world of the process to `level` (tests compare the levels' results); throws
// strut::Error if this CPU cannot run it.
void set_simd_level(SimdLevel level);

// A subsystem's kernel tables, one per level, and the one of the level in use: a load of the
// chosen level, then of its table.
template <class Table>
class SimdTables {
 public:
  constexpr SimdTables(const Table& scalar, const Table& sse42, const Table& avx2,
                       const Table& avx512)
      : by_level_{&sse42, &avx2, &avx512, &scalar} {}
  const Table& operator[](SimdLevel level) const { return *by_level_[std::size_t(level)]; }
  const Table& current() const { return (*this)[simd_level()]; }

 private:
  const Table* by_level_[kSimdLevelCount];  // in SimdLevel order
};

}  // namespace strut
