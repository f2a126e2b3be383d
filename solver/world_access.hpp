// The one way tests and benchmarks reach a world's internals (World befriends WorldAccess): the
// engine itself never uses it.
#pragma once

#include "solver/world_impl.hpp"

namespace strut {

struct WorldAccess {
  static World::Impl& impl(World& w) { return *w.impl_; }
  static const World::Impl& impl(const World& w) { return *w.impl_; }
};

}  // namespace strut
