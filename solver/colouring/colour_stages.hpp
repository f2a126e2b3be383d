// The stages of a coloured list of work items (joints, strut groups, contact work items):
// one stage per colour that has items, in colour order. A colour's items share no moving body,
// so its chunks run in parallel and in any order with the same result; the overflow colour,
// whose items may share bodies, is one chunk, solved in order by one thread.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "solver/colouring/colouring.hpp"
#include "solver/core/task_system.hpp"

namespace strut {

// Colour c's items are [begin[c], begin[c + 1]) (kColourCount + 2 entries). A colour is cut into
// about 2 x threads chunks of at least min_grain items. fn(first, last, overflow) solves items
// [first, last); it is copied into the stages, which run after this returns.
template <class Fn>
void add_colour_stages(std::vector<TaskSystem::Stage>& stages, std::span<const std::uint32_t> begin,
                       int threads, int min_grain, int phase, Fn fn) {
  const int chunks = 2 * threads;
  const std::uint32_t end = begin[std::size_t(kOverflowColour) + 1];
  for (int colour = 0; colour <= kOverflowColour; ++colour) {
    const std::uint32_t b = begin[std::size_t(colour)], e = begin[std::size_t(colour) + 1];
    // The colours from one that starts at the end on are empty (a small world fills the first
    // few of them, and this runs for every pass of every substep).
    if (b == end) break;
    if (b == e) continue;
    const int count = int(e - b);
    const bool overflow = colour == kOverflowColour;
    const int grain = overflow ? count : std::max(min_grain, (count + chunks - 1) / chunks);
    stages.push_back({count, grain,
                      [b, fn, overflow](int lo, int hi, int) {
                        fn(b + std::uint32_t(lo), b + std::uint32_t(hi), overflow);
                      },
                      phase});
  }
}

// fn(first, last, overflow) on each colour that has items, in colour order, as the stages of
// add_colour_stages run them when each colour is one chunk.
template <class Fn>
void for_each_colour(std::span<const std::uint32_t> begin, Fn&& fn) {
  // Uncoloured lists (few joints) have items in the overflow colour only: no scan of the others
  // (a lander's step ran this 64 times a substep).
  const int first = begin[0] == begin[std::size_t(kOverflowColour)] ? kOverflowColour : 0;
  for (int colour = first; colour <= kOverflowColour; ++colour) {
    const std::uint32_t b = begin[std::size_t(colour)], e = begin[std::size_t(colour) + 1];
    if (b != e) fn(b, e, colour == kOverflowColour);
  }
}

}  // namespace strut
