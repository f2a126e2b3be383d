// World::snapshot, from_snapshot and restore(bytes): the world's state as bytes.
//
// Layout of a snapshot (all integers in this machine's byte order):
//   bytes 0-8    "STRUTSNP"
//   bytes 8-12   format version (kFormatVersion)
//   bytes 12-16  layout fingerprint: the sizes of the stored structs in this build
//   bytes 16-24  payload length
//   bytes 24-32  XXH3-64 checksum of the payload
//   bytes 32-    payload: the world's settings, then each of WorldState::for_each_section's
//                members as its length (8 bytes) and its fields (solver/core/field_archive.hpp)
// The checksum rejects a damaged or cut file before anything is parsed; the lengths, counts and
// then the stores' ids and index ranges (check_stores) are checked as well, so that a file made
// to pass the checksum cannot make a step read outside the stores either.
#include <array>
#include <cstring>
#include <string>

#include "solver/core/field_archive.hpp"
#include "solver/core/public_fields.hpp"
#include "solver/world_state.hpp"
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace strut {
namespace {

using snapshot::Reader;
using snapshot::SnapshotError;
using snapshot::Writer;

constexpr char kMagic[8] = {'S', 'T', 'R', 'U', 'T', 'S', 'N', 'P'};
constexpr std::uint32_t kFormatVersion = 3;
constexpr std::size_t kHeaderBytes = 32;

// The sizes of what the payload stores as raw bytes: a build that lays any of them out otherwise
// cannot read this build's snapshots.
std::uint32_t layout_fingerprint() {
  const std::array<std::size_t, 24> sizes = {
      sizeof(WorldConfig),  sizeof(WorldState), sizeof(StepScratch),    sizeof(ContactSet),
      sizeof(ContactPoint), sizeof(PairCache),  sizeof(WideConstraint), sizeof(WideFeatures),
      sizeof(ContactWork),  sizeof(Joint),      sizeof(JointDef),       sizeof(PrepareBody),
      sizeof(SolverBody),   sizeof(LaneStrut),  sizeof(LaneGroup),      sizeof(PointGroup),
      sizeof(AngleGroup),   sizeof(AngleRows),  sizeof(RigidRows),      sizeof(AngleMotion),
      sizeof(WideStrut),    sizeof(Material),   sizeof(Aabb),           sizeof(void*)};
  return std::uint32_t(XXH3_64bits(sizes.data(), sizeof sizes));
}

template <class T>
void put(std::vector<std::uint8_t>& out, std::size_t at, const T& value) {
  std::memcpy(out.data() + at, &value, sizeof value);
}
template <class T>
T get(std::span<const std::uint8_t> in, std::size_t at) {
  T value;
  std::memcpy(&value, in.data() + at, sizeof value);
  return value;
}

[[noreturn]] void reject(std::size_t from, std::size_t to, const std::string& field,
                         const std::string& problem) {
  throw SnapshotError("bytes " + std::to_string(from) + "-" + std::to_string(to) + ": " + field +
                      ": " + problem);
}

// Index ranges that the step follows without checking: each body's particles, colliders and
// struts inside their stores, every store's columns of one length, every id slot naming its
// object and back, every collider, particle, strut and joint naming objects that exist. Errors
// name the store and the object, not a byte range (the bytes read well).
void check_stores(WorldState& w) {
  const auto fail = [](const std::string& what) {
    throw SnapshotError("snapshot: " + what + " (the stores do not agree)");
  };
  const std::size_t n = w.bodies.size(), nc = w.colliders.size(), np = w.particles.size();
  const auto same_length = [&](auto& store, std::size_t size, const char* name) {
    store.for_each_column([&](auto& column) {
      if (column.size() != size) fail(std::string(name) + " columns differ in length");
    });
  };
  same_length(w.bodies, n, "body");
  same_length(w.colliders, nc, "collider");
  same_length(w.particles, np, "particle");
  if (w.bodies.cold.size() != n)
    fail("body definitions: " + std::to_string(w.bodies.cold.size()) + " for " + std::to_string(n) +
         " bodies");
  for (std::size_t b = 0; b < n; ++b) {
    const std::string body = "body " + std::to_string(b);
    // A body destroyed, or laid out again by a shape change, since the last step waits for the
    // next step's compaction: its slot is free or names the body's new entry, as a dead joint's.
    const std::uint32_t slot = w.bodies.slot[b];
    const bool dead = (w.bodies.flags[b] & kDead) != 0;
    if (!dead && (slot >= w.bodies.slots.size() || !w.bodies.slots[slot].alive ||
                  w.bodies.slots[slot].dense != b))
      fail(body + ": id slot " + std::to_string(slot) + " does not name it");
    if (std::uint64_t(w.bodies.particle_begin[b]) + w.bodies.particle_count[b] > np)
      fail(body + ": particles outside the particle store");
    if (std::uint64_t(w.bodies.collider_begin[b]) + w.bodies.collider_count[b] > nc)
      fail(body + ": colliders outside the collider store");
    if (std::uint64_t(w.bodies.strut_begin[b]) + w.bodies.strut_count[b] > w.soft.struts.size())
      fail(body + ": struts outside the strut store");
  }
  for (std::size_t c = 0; c < nc; ++c) {
    const std::string collider = "collider " + std::to_string(c);
    const std::uint32_t body = w.colliders.body[c];
    if (body >= n) fail(collider + ": body " + std::to_string(body) + " does not exist");
    if (w.colliders.shape[c] >= w.colliders.shapes.size())
      fail(collider + ": its shape does not exist");
    const std::uint32_t slot = w.colliders.slot[c];
    if (slot >= w.colliders.slots.size() || w.colliders.slots[slot].dense != c)
      fail(collider + ": id slot " + std::to_string(slot) + " does not name it");
    if (std::uint64_t(w.colliders.vertex_begin[c]) + w.colliders.count[c] >
        w.bodies.particle_count[body])
      fail(collider + ": vertices outside its body's particles");
  }
  for (std::size_t p = 0; p < np; ++p)
    if (w.particles.body[p] >= n) fail("particle " + std::to_string(p) + ": no such body");
  for (std::size_t s = 0; s < w.soft.struts.size(); ++s)
    if (w.soft.struts[s].a >= np || w.soft.struts[s].b >= np)
      fail("strut " + std::to_string(s) + ": its particles do not exist");
  for (std::size_t j = 0; j < w.joints.dense.size(); ++j) {
    const Joint& joint = w.joints.dense[j];
    if (joint.dead) continue;
    if (joint.slot_a >= w.bodies.slots.size() || joint.slot_b >= w.bodies.slots.size() ||
        !w.bodies.slots[joint.slot_a].alive || !w.bodies.slots[joint.slot_b].alive)
      fail("joint " + std::to_string(j) + ": its bodies do not exist");
    if (joint.slot >= w.joints.slots.size() || w.joints.slots[joint.slot].dense != j)
      fail("joint " + std::to_string(j) + ": id slot does not name it");
  }
}

// Reads the payload's sections into w (made for the snapshot's settings, which `in`, a reader of
// the payload, has read already: checked_config).
void read_sections(WorldState& w, Reader& in, std::span<const std::uint8_t> payload,
                   std::size_t base) {
  w.for_each_section([&](const char* name, auto& member) {
    in.enter(name);
    const std::size_t length = in.count(0, 1);  // the section's bytes, checked against the file
    const std::size_t from = in.offset();
    Reader section(payload.data() + from, length, base + from);
    section.enter(name);
    snapshot::archive(section, member);
    if (!section.done())
      section.fail(section.offset(), length - section.offset(),
                   "read " + std::to_string(section.offset()) + " of its " +
                       std::to_string(length) + " bytes");
    in.skip(length);
  });
  if (!in.done())
    reject(base + in.offset(), base + payload.size(), "payload", "bytes after the last section");
  check_stores(w);
}

// Checks the header and the checksum; returns the payload.
std::span<const std::uint8_t> checked_payload(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < kHeaderBytes)
    reject(0, bytes.size(), "header",
           "a snapshot is at least " + std::to_string(kHeaderBytes) + " bytes, got " +
               std::to_string(bytes.size()));
  if (std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    reject(0, 8, "header", "not a strut snapshot (it does not start with STRUTSNP)");
  const auto version = get<std::uint32_t>(bytes, 8);
  if (version != kFormatVersion)
    reject(8, 12, "header",
           "format version " + std::to_string(version) + ", this build reads version " +
               std::to_string(kFormatVersion));
  if (get<std::uint32_t>(bytes, 12) != layout_fingerprint())
    reject(12, 16, "header", "made by a build of strut with another memory layout");
  const auto length = get<std::uint64_t>(bytes, 16);
  if (length != bytes.size() - kHeaderBytes)
    reject(16, 24, "header",
           "payload length " + std::to_string(length) + ", but the file holds " +
               std::to_string(bytes.size() - kHeaderBytes) + " bytes after the header");
  const std::span<const std::uint8_t> payload = bytes.subspan(kHeaderBytes);
  if (XXH3_64bits(payload.data(), payload.size()) != get<std::uint64_t>(bytes, 24))
    reject(kHeaderBytes, bytes.size(), "payload", "checksum mismatch: the snapshot is damaged");
  return payload;
}

// The settings at the payload's start (read by `in`, which is left at the first section),
// checked before a world is made for them, to run on `threads` (or in `external_arena`).
WorldConfig checked_config(Reader& in, int threads, void* external_arena) {
  in.enter("config");
  WorldConfig config;
  snapshot::archive(in, config);
  config.threads = threads;
  try {
    validate_config(config);
  } catch (const Error& e) {
    reject(kHeaderBytes, kHeaderBytes + sizeof(WorldConfig), "config", e.what());
  }
  config.external_arena = external_arena;
  return config;
}

}  // namespace

std::vector<std::uint8_t> World::snapshot() const {
  WorldConfig config = state_->config;
  // A pointer means nothing in a file, and the loader chooses the threads.
  config.external_arena = nullptr, config.threads = 0;
  snapshot::Sizer size;
  snapshot::archive(size, config);
  state_->for_each_section([&](const char*, auto& member) {
    size.bytes += sizeof(std::uint64_t);
    snapshot::archive(size, member);
  });
  std::vector<std::uint8_t> bytes(kHeaderBytes + size.bytes);
  Writer out(bytes.data(), kHeaderBytes);
  snapshot::archive(out, config);
  state_->for_each_section([&](const char*, auto& member) {
    const std::size_t at = out.offset();
    out.raw(&at, sizeof(std::uint64_t));  // the length, written below
    snapshot::archive(out, member);
    put<std::uint64_t>(bytes, at, out.offset() - at - sizeof(std::uint64_t));
  });
  std::memcpy(bytes.data(), kMagic, sizeof kMagic);
  put<std::uint32_t>(bytes, 8, kFormatVersion);
  put<std::uint32_t>(bytes, 12, layout_fingerprint());
  put<std::uint64_t>(bytes, 16, bytes.size() - kHeaderBytes);
  put<std::uint64_t>(bytes, 24, XXH3_64bits(bytes.data() + kHeaderBytes, size.bytes));
  return bytes;
}

World World::from_snapshot(std::span<const std::uint8_t> bytes, int threads) {
  WorldConfig check;
  check.threads = threads;
  validate_config(check);
  const std::span<const std::uint8_t> payload = checked_payload(bytes);
  Reader in(payload.data(), payload.size(), kHeaderBytes);
  auto impl = std::make_unique<WorldState>(checked_config(in, threads, nullptr));
  read_sections(*impl, in, payload, kHeaderBytes);
  return World(std::move(impl));
}

// Into the spare state (made once, for this world's threads), then swapped in: a lander's
// restore from bytes reuses the vectors of the state it replaced instead of allocating some 300
// (BM_SnapshotRestoreLander).
void World::restore(std::span<const std::uint8_t> bytes) {
  const std::span<const std::uint8_t> payload = checked_payload(bytes);
  Reader in(payload.data(), payload.size(), kHeaderBytes);
  const WorldConfig config =
      checked_config(in, state_->config.threads, state_->config.external_arena);
  if (!spare_) spare_ = std::make_unique<WorldState>(config);
  spare_->config = config;
  read_sections(*spare_, in, payload, kHeaderBytes);  // may throw: the spare is then just scratch
  spare_->profile.sum = StepProfile{}, spare_->profile.mean = StepProfile{};
  std::swap(state_, spare_);
  state_->callbacks.custom_filter =
      std::move(spare_->callbacks.custom_filter);  // the world's own callbacks stay
  state_->callbacks.pre_solve = std::move(spare_->callbacks.pre_solve);
}

}  // namespace strut
