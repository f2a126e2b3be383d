// World::set_custom_filter and set_pre_solve (strut/contact_callbacks.hpp).
#include "solver/world_state.hpp"

namespace strut {

void World::set_custom_filter(CustomFilter filter) {
  auto& w = *state_;
  w.callbacks.custom_filter = std::move(filter);
  // Every pair is asked again: the next step sweeps afresh (candidate_pairs.cpp).
  w.callbacks.filter_verdicts.clear();
  w.pairs.enlarged_version = ~std::uint64_t{0};
}

void World::set_pre_solve(PreSolve callback) { state_->callbacks.pre_solve = std::move(callback); }

}  // namespace strut
