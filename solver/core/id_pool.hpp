// Generation-checked slots behind the public ids (BodyId, ShapeId, JointId) and the colliders'
// broad-phase keys: one pool type, so that allocating, releasing and checking an id work the
// same way for all of them.
//
// A public id is (slot + 1, generation); index 0 is the null id. Releasing a slot bumps its
// generation, so every id handed out for it before becomes stale, and puts the slot on a free
// list; the most recently released slot is reused first (the order is part of the world's
// determinism: scenes that destroy and create reuse the same slots on every run).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace strut {

struct IdSlot {
  std::uint32_t dense = 0;       // where the object is in its dense arrays, while alive
  std::uint32_t generation = 1;  // changes when the object is released
  bool alive = false;
};

class IdPool {
 public:
  // `kind` names the ids in errors ("body", "shape", "joint").
  explicit IdPool(const char* kind) : kind_(kind) {}

  // A slot for a new object: the last released one, or a new one. It is alive; the caller sets
  // its dense index.
  std::uint32_t allocate();
  // The object is gone: its ids become stale and the slot is free at once.
  void release(std::uint32_t slot);
  // As release, but the slot is reused only after recycle_retired(): for keys that data of the
  // last step may still name (a collider's contacts until the next narrow phase replaces them).
  void retire(std::uint32_t slot);
  void recycle_retired();

  // The slot of a live id, or strut::Error "<what>: null <kind> id" or "<what>: stale or unknown
  // <kind> <index>/<generation>".
  std::uint32_t slot_of(std::uint32_t index, std::uint32_t generation, const char* what) const;
  template <class Id>
  std::uint32_t slot_of(Id id, const char* what) const {
    return slot_of(id.index, id.generation, what);
  }
  // Whether the id names a live object (false for null, unknown and stale ids).
  template <class Id>
  bool is_live(Id id) const {
    return id.index != 0 && id.index <= slots_.size() && slots_[id.index - 1].alive &&
           slots_[id.index - 1].generation == id.generation;
  }
  // The public id of a slot as it is now.
  template <class Id>
  Id id_of(std::uint32_t slot) const {
    return Id{slot + 1, slots_[slot].generation};
  }

  IdSlot& operator[](std::uint32_t slot) { return slots_[slot]; }
  const IdSlot& operator[](std::uint32_t slot) const { return slots_[slot]; }
  std::size_t size() const { return slots_.size(); }  // slots ever made (live or not)
  std::size_t live_count() const { return slots_.size() - free_.size() - retired_.size(); }
  // Everything but the kind, which the owner gives (solver/core/field_archive.hpp).
  template <class F>
  void for_each_field(F&& f) {
    f(slots_), f(free_), f(retired_);
  }

 private:
  const char* kind_;
  std::vector<IdSlot> slots_;
  std::vector<std::uint32_t> free_;
  std::vector<std::uint32_t> retired_;  // released, not yet free (retire)
};

}  // namespace strut
