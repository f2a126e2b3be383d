// Whether World implements its shape API yet (strut/world.hpp: World::shapes,
// World::definition(ShapeId), World::sensor_begin_events and sensor_end_events). The contract
// declared them before the world defines them; the scene tools call them only inside
// `if constexpr (kWorldHasShapeApi)`, whose discarded branch is compiled (so it keeps up with the
// contract) but needs no definition to link. Set it to true when the world's shapes land.
#pragma once

namespace strut {

inline constexpr bool kWorldHasShapeApi = false;

}  // namespace strut
