// Opaque, generation-checked handles. The zero value is the null id; a handle to a
// destroyed object is stale and every World call rejects it with strut::Error.
#pragma once

#include <cstdint>

namespace strut {

struct BodyId {
  std::uint32_t index = 0;  // slot + 1; 0 means null
  std::uint32_t generation = 0;
  friend constexpr bool operator==(BodyId, BodyId) = default;
};

struct JointId {
  std::uint32_t index = 0;  // slot + 1; 0 means null
  std::uint32_t generation = 0;
  friend constexpr bool operator==(JointId, JointId) = default;
};

constexpr bool is_null(BodyId id) { return id.index == 0; }
constexpr bool is_null(JointId id) { return id.index == 0; }

}  // namespace strut
