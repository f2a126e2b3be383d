// The program's contact callbacks and the custom filter's answers (part of the world's
// state, solver/world_state.hpp).
#pragma once

#include <cstdint>
#include <exception>
#include <vector>

#include "strut/world.hpp"

namespace strut {

// The custom filter's answer for a pair of shapes (solver/step/custom_filter.cpp): the key of
// their shape slots, the first of the sweep's collider pairs that named them, and the answer
// (kAsk: not answered yet, or the filter threw).
struct FilterVerdict {
  enum : std::uint8_t { kReject = 0, kCollide = 1, kAsk = 2 };
  std::uint64_t key = 0;
  std::uint32_t first = 0;
  std::uint8_t verdict = kAsk;
  std::uint8_t unused[3] = {};  // no padding: snapshots store the bytes
};

// The program's contact callbacks (strut/contact_callbacks.hpp) and the custom filter's answers.
struct CallbackStore {
  // The callbacks belong to the World object, not its state: snapshots leave them out and
  // restore keeps the world's own (world.cpp).
  CustomFilter custom_filter;
  PreSolve pre_solve;
  std::exception_ptr error;  // the first a callback threw this step, rethrown after it
  // The custom filter's answers for the shape pairs of the last sweep's pairs, sorted by key
  // (solver/step/custom_filter.cpp).
  std::vector<FilterVerdict> filter_verdicts;
};

}  // namespace strut
