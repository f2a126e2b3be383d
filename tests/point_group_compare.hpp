// Comparing joint-point groups (solver/joints/point_lanes.hpp) between the SIMD kernels and
// their scalar twin, lane by lane.
#pragma once

#include <cstdint>
#include <cstring>

#include "solver/joints/point_lanes.hpp"

namespace strut::test {

// Whether two groups hold the same bits in every lane a joint uses (the scalar twin leaves the
// unused lanes as packed; the SIMD kernels compute them too, which writes nothing to a body).
inline bool same_used_lanes(const PointGroup& x, const PointGroup& y) {
  // PointGroup is its per-lane arrays of 4-byte words back to back.
  constexpr std::size_t kArrays = sizeof(PointGroup) / (kWideLanes * sizeof(float));
  static_assert(sizeof(PointGroup) == kArrays * kWideLanes * sizeof(float));
  std::uint32_t wx[kArrays * kWideLanes], wy[kArrays * kWideLanes];
  std::memcpy(wx, &x, sizeof wx), std::memcpy(wy, &y, sizeof wy);
  int used = 0;
  for (int i = 0; i < kWideLanes; ++i) {
    if (x.joint[i] != y.joint[i]) return false;
    if (x.joint[i] == kPointPadding) continue;
    ++used;
    for (std::size_t f = 0; f < kArrays; ++f)
      if (wx[f * kWideLanes + std::size_t(i)] != wy[f * kWideLanes + std::size_t(i)]) return false;
  }
  return used > 0;
}

}  // namespace strut::test
