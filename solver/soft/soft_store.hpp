// Soft bodies' distance constraints and how they are solved (part of the world's state,
// solver/world_state.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "solver/colouring/colouring.hpp"
#include "solver/soft/strut_kernel.hpp"
#include "solver/soft/strut_lanes.hpp"

namespace strut {

// Distance constraint between two particles of one soft body (XPBD).
struct Strut {
  std::uint32_t a, b;  // particle indices
  float rest;
  float compliance;
};

// Soft bodies' distance constraints and how they are solved.
struct SoftStore {
  std::vector<Strut> struts;
  // Coloured struts (only when there are enough of them, see colour_struts): colour c is
  // groups[group_begin[c] .. group_begin[c + 1]), kWideLanes struts a group.
  Colouring colours;
  std::vector<WideStrut> groups;
  std::vector<std::uint32_t> group_begin;
  // Small soft bodies solved one per lane (strut_lanes.hpp); the struts they leave are the ones
  // coloured above or looped over in creation order. It caches strut ends, rest lengths and
  // compliances: code that edits `struts` or renumbers particles sets lanes.dirty.
  StrutLanes lanes;
};

}  // namespace strut
