#include "solver/core/id_pool.hpp"

#include <string>

#include "strut/error.hpp"

namespace strut {

std::uint32_t IdPool::allocate() {
  std::uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
  } else {
    slot = std::uint32_t(slots_.size());
    slots_.push_back(IdSlot{});
  }
  slots_[slot].alive = true;
  return slot;
}

void IdPool::release(std::uint32_t slot) {
  slots_[slot].alive = false;
  slots_[slot].generation++;
  free_.push_back(slot);
}

void IdPool::retire(std::uint32_t slot) {
  slots_[slot].alive = false;
  slots_[slot].generation++;
  retired_.push_back(slot);
}

void IdPool::recycle_retired() {
  free_.insert(free_.end(), retired_.begin(), retired_.end());
  retired_.clear();
}

std::uint32_t IdPool::slot_of(std::uint32_t index, std::uint32_t generation,
                              const char* what) const {
  if (index == 0) throw Error(std::string(what) + ": null " + kind_ + " id");
  const std::uint32_t s = index - 1;
  if (s >= slots_.size() || !slots_[s].alive || slots_[s].generation != generation)
    throw Error(std::string(what) + ": stale or unknown " + kind_ + " " + std::to_string(index) +
                "/" + std::to_string(generation));
  return s;
}

}  // namespace strut
