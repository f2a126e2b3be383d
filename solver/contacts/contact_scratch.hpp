// Per-step scratch of the narrow phase and the contact colouring, kept between steps so a
// steady-state step allocates nothing (held in StepScratch, solver/step/step_scratch.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "solver/contacts/contact.hpp"
#include "solver/contacts/contact_features.hpp"

namespace strut {

// One chunk's narrow-phase output, merged in chunk order. The per-pair rows are valid up to
// `pairs`, the separations of reused points up to `reused_points`; the buffers only grow.
struct NarrowChunk {
  std::vector<ContactPoint> points;       // of pairs collided afresh
  std::vector<std::uint8_t> reused_pair;  // features came from the cache
  std::size_t pairs = 0;
  std::size_t point_count = 0;  // both kinds
  bool same_counts = false;     // every pair is last step's pair of the same index and count
  // Every pair collided afresh has its first point between the bodies of last step's first
  // point (colour_contacts keeps the colouring when, with same_counts, this holds).
  bool same_bodies = false;
  bool bouncy = false;  // a pair collided afresh has restitution on its first point
  std::vector<std::uint64_t> keys;
  std::vector<std::uint8_t> touching;
  std::vector<float> deepest;
  std::vector<std::uint32_t> counts;
  std::vector<std::uint32_t> previous;
  std::vector<PairCache> caches;
  std::size_t first_pair = 0, first_point = 0;  // where the chunk lands in the merged lists
  template <class F>
  void for_each_field(F &&f) {
    f(points), f(reused_pair), f(pairs), f(point_count), f(same_counts), f(same_bodies);
    f(bouncy), f(keys), f(touching), f(deepest), f(counts), f(previous), f(caches);
    f(first_pair), f(first_point);
  }
};

// A union-find over body indices (colour_contacts.cpp's push-out clusters) that is the identity
// between uses: a step touches only the bodies its pairs name, lists them in `touched`, and puts
// them back, so a step with a few joining pairs does not pay per body.
struct BodyClusters {
  std::vector<std::uint32_t> parent;
  std::vector<float> bodies;           // per root: its cluster's bodies (0 between uses)
  std::vector<std::uint8_t> listed;    // per index: in `touched` (0 between uses)
  std::vector<std::uint16_t> deep;     // per index: its deep pairs, saturating (0 between uses)
  std::vector<std::uint32_t> touched;  // indices united this use, in pair order
  template <class F>
  void for_each_field(F &&f) {
    f(parent), f(bodies), f(listed), f(deep), f(touched);
  }
};

}  // namespace strut
