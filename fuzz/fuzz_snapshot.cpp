// Fuzz target: snapshot bytes. The input builds a small world (boxes on a ground, a pendulum on
// a revolute joint, a circle; the input's first byte chooses how many steps it runs) and takes
// its snapshot. Then, as the second byte says, either it changes bytes of it as the rest of the
// input says (offset, xor pairs): every changed snapshot must be rejected with strut::Error (the
// checksum), an unchanged one must load; or it cuts the payload where the input says and reseals
// it (length and checksum made to fit, as a file made to pass them would be): the sections'
// lengths and counts must find the cut and reject it, never read past the end. The input as raw
// bytes is also loaded as a snapshot and must be rejected. A violation traps.
//
// Not fuzzed: values changed inside a resealed payload. The reader checks lengths, counts, flags
// and the stores' ids and index ranges (solver/world_snapshot.cpp), not every number of every
// cache, so a file made to pass the checksum with other values inside is not guaranteed to step
// sensibly.
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz/api_decoder.hpp"
#include "fuzz/fuzz_check.hpp"
#include "strut/world.hpp"
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace {

using namespace strut;

World small_world(int steps) {
  World world(WorldConfig{.threads = 1});
  BodyDef ground;
  ground.shapes = {ShapeDef{BoxShape{{10, 0.5f}}}};
  ground.is_static = true;
  const BodyId floor = world.create_body(ground);
  for (int k = 0; k < 3; ++k) {
    BodyDef box;
    box.shapes = {ShapeDef{BoxShape{{0.5f, 0.5f}}}};
    box.center = {0.1f * float(k), 1.0f + 1.01f * float(k)};
    world.create_body(box);
  }
  BodyDef arm;
  arm.shapes = {ShapeDef{CapsuleShape{0.5f, 0.1f}}};
  arm.center = {4, 3};
  const BodyId swing = world.create_body(arm);
  world.create_joint(RevoluteJointDef{.a = floor, .b = swing, .anchor = {3.5f, 3}});
  BodyDef ball;
  ball.shapes = {ShapeDef{CircleShape{0.3f}}};
  ball.center = {-3, 2};
  ball.velocity = {2, 0};
  world.create_body(ball);
  for (int s = 0; s < steps; ++s) world.step(1.0f / 60);
  return world;
}

bool loads(const std::vector<std::uint8_t>& bytes) {
  try {
    const World w = World::from_snapshot(bytes, 1);
    fuzz::require_finite_state(w);
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (loads(std::vector<std::uint8_t>(data, data + size))) __builtin_trap();
  fuzz::Bytes in(data, size);
  const int steps = in.u8() % 40;
  const bool cut = in.u8() & 1;
  const World world = small_world(steps);
  const std::vector<std::uint8_t> original = world.snapshot();
  std::vector<std::uint8_t> bytes = original;
  if (cut) {
    std::uint32_t keep = 0;
    for (int k = 0; k < 3; ++k) keep = keep << 8 | in.u8();
    bytes.resize(32 + keep % (original.size() - 32));
    const std::uint64_t length = bytes.size() - 32;
    std::memcpy(bytes.data() + 16, &length, sizeof length);
    const std::uint64_t sum = XXH3_64bits(bytes.data() + 32, bytes.size() - 32);
    std::memcpy(bytes.data() + 24, &sum, sizeof sum);
    if (loads(bytes)) __builtin_trap();
    return 0;
  }
  while (!in.empty()) {
    std::uint32_t at = 0;
    for (int k = 0; k < 3; ++k) at = at << 8 | in.u8();
    const std::uint8_t flip = in.u8();
    if (flip == 0) continue;
    bytes[at % bytes.size()] ^= flip;
  }
  const bool changed = bytes != original;
  if (loads(bytes) == changed) __builtin_trap();  // the checksum catches every change
  return 0;
}
