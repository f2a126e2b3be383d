// WorldState by name, for headers that only pass it on (solver/world_state.hpp defines it; the stages that take the whole world name it through this).
#pragma once

namespace strut {
namespace detail {
struct WorldState;
}  // namespace detail
using detail::WorldState;
}  // namespace strut
