// Opaque, generation-checked handles. The zero value is the null id; a handle to a
// destroyed object is stale and every World call rejects it with strut::Error.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace strut {

struct BodyId {
  std::uint32_t index = 0;  // slot + 1; 0 means null
  std::uint32_t generation = 0;
  friend constexpr bool operator==(BodyId, BodyId) = default;
  // By index, then generation: an arbitrary but fixed order, so ids can key std::map/std::set.
  friend constexpr auto operator<=>(BodyId, BodyId) = default;
};

struct JointId {
  std::uint32_t index = 0;  // slot + 1; 0 means null
  std::uint32_t generation = 0;
  friend constexpr bool operator==(JointId, JointId) = default;
  friend constexpr auto operator<=>(JointId, JointId) = default;
};

// A shape of a body (strut/shape.hpp); stale once it or its body is removed.
struct ShapeId {
  std::uint32_t index = 0;  // slot + 1; 0 means null
  std::uint32_t generation = 0;
  friend constexpr bool operator==(ShapeId, ShapeId) = default;
  friend constexpr auto operator<=>(ShapeId, ShapeId) = default;
};

constexpr bool is_null(ShapeId id) { return id.index == 0; }
constexpr bool is_null(BodyId id) { return id.index == 0; }
constexpr bool is_null(JointId id) { return id.index == 0; }

}  // namespace strut

// Ids key std::unordered_map/set: the hash mixes index and generation (one 64-bit value through
// a multiplicative mix, so ids that differ only in generation land apart).
template <>
struct std::hash<strut::BodyId> {
  std::size_t operator()(strut::BodyId id) const noexcept {
    const std::uint64_t v = (std::uint64_t(id.generation) << 32) | id.index;
    return std::size_t((v * 0x9E3779B97F4A7C15ull) ^ (v >> 29));
  }
};
template <>
struct std::hash<strut::ShapeId> {
  std::size_t operator()(strut::ShapeId id) const noexcept {
    return std::hash<strut::BodyId>{}(strut::BodyId{id.index, id.generation});
  }
};
template <>
struct std::hash<strut::JointId> {
  std::size_t operator()(strut::JointId id) const noexcept {
    return std::hash<strut::BodyId>{}(strut::BodyId{id.index, id.generation});
  }
};
