// Graph colouring of constraints: constraints of one colour share no moving body, so a colour
// can be solved in parallel (and in any order) with the same result. The colouring is greedy in
// constraint order, so it depends only on the constraints, never on the thread count.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace strut {

// Colour `kOverflowColour` collects constraints that found no free colour: solved serially.
inline constexpr int kColourCount = 24;
inline constexpr int kOverflowColour = kColourCount;

struct Colouring {
  // Constraint indices grouped by colour: colour c is order[begin[c] .. begin[c + 1]).
  std::vector<std::uint32_t> order;
  std::vector<std::uint32_t> begin;  // kColourCount + 2 entries
  std::vector<std::uint32_t> colour_of;
  std::vector<std::uint32_t> used;  // per body: bit c set when colour c touches it (scratch)
  template <class F>
  void for_each_field(F&& f) {
    f(order), f(begin), f(colour_of), f(used);
  }
};

// bodies_a/bodies_b: the two bodies of each constraint; moving[k] false for bodies that are
// never written (static, kinematic), which may be shared freely.
void colour_constraints(std::span<const std::uint32_t> bodies_a,
                        std::span<const std::uint32_t> bodies_b,
                        const std::vector<std::uint8_t>& moving, std::size_t body_count,
                        Colouring& out);

}  // namespace strut
