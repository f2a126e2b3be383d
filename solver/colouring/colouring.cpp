#include "solver/colouring/colouring.hpp"

#include <algorithm>
#include <array>
#include <bit>

namespace strut {

void colour_constraints(std::span<const std::uint32_t> bodies_a,
                        std::span<const std::uint32_t> bodies_b,
                        const std::vector<std::uint8_t>& moving, std::size_t body_count,
                        Colouring& out) {
  const std::size_t n = bodies_a.size();
  // Only the constraints' bodies are read: clear theirs, not every body's (idle bodies cost
  // nothing).
  out.used.resize(body_count);
  for (std::size_t i = 0; i < n; ++i) out.used[bodies_a[i]] = out.used[bodies_b[i]] = 0u;
  out.colour_of.resize(n);
  // On the stack: a settled pile recolours every step, and two heap arrays would be two
  // allocations every step.
  std::array<std::uint32_t, kColourCount + 1> count{};
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t a = bodies_a[i], b = bodies_b[i];
    std::uint32_t taken = 0;
    if (moving[a]) taken |= out.used[a];
    if (moving[b]) taken |= out.used[b];
    const std::uint32_t free = ~taken & ((1u << kColourCount) - 1);
    std::uint32_t c = kOverflowColour;
    if (free != 0) {
      c = static_cast<std::uint32_t>(std::countr_zero(free));
      if (moving[a]) out.used[a] |= 1u << c;
      if (moving[b]) out.used[b] |= 1u << c;
    }
    out.colour_of[i] = c;
    ++count[c];
  }
  out.begin.assign(kColourCount + 2, 0);
  for (int c = 0; c <= kColourCount; ++c) out.begin[c + 1] = out.begin[c] + count[c];
  out.order.resize(n);
  std::array<std::uint32_t, kColourCount + 1> cursor;
  std::copy(out.begin.begin(), out.begin.end() - 1, cursor.begin());
  for (std::size_t i = 0; i < n; ++i) out.order[cursor[out.colour_of[i]]++] = std::uint32_t(i);
}

}  // namespace strut
