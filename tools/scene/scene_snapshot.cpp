// Scene snapshots (strut/scene.hpp): a World::snapshot followed by the instance's part.
//
// The instance's part (all integers in this machine's byte order):
//   8 bytes "STRUTSCN", 4 bytes format version (kSceneFormatVersion), 4 bytes zero,
//   8 bytes payload length, 8 bytes XXH3-64 checksum of the payload, then the payload: the
//   instance's lists and settings (InstanceFields, through solver/core/field_archive.hpp), the
//   step hook's name and its state.
// The world's part comes first, so that its error messages' byte offsets are the file's.
#include <cstring>
#include <string>

#include "solver/core/field_archive.hpp"
#include "solver/core/public_fields.hpp"
#include "solver/shapes/shape_checks.hpp"
#include "strut/scene.hpp"
#include "tools/scene/builtin_parts.hpp"
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace strut {
namespace {

constexpr char kWorldMagic[8] = {'S', 'T', 'R', 'U', 'T', 'S', 'N', 'P'};
constexpr char kSceneMagic[8] = {'S', 'T', 'R', 'U', 'T', 'S', 'C', 'N'};
constexpr std::uint32_t kSceneFormatVersion = 1;
constexpr std::size_t kHeaderBytes = 32;  // of either part

// Everything of a SceneInstance but its world and its hook, in the payload's order.
// f is called once with all of them.
template <class F>
void instance_fields(SceneInstance& s, F&& f) {
  f(s.source, s.description, s.dt, s.steps, s.steps_done, s.bodies, s.names, s.joints,
    s.joint_names, s.joint_frames, s.materials, s.tile_maps, s.tile_map_parts);
}

template <class T>
T read_at(std::span<const std::uint8_t> in, std::size_t at) {
  T value;
  std::memcpy(&value, in.data() + at, sizeof value);
  return value;
}

[[noreturn]] void reject(std::string_view label, std::size_t from, std::size_t to,
                         const std::string& field, const std::string& problem) {
  throw SceneError(
      std::string(label), "",
      "bytes " + std::to_string(from) + "-" + std::to_string(to) + ": " + field + ": " + problem);
}

// The instance's lists must name what the world holds: every listed body and joint live, the
// parallel lists of one length, the steps and dt in range.
void check_instance(const SceneInstance& s, std::string_view label, std::size_t from,
                    std::size_t to) {
  const auto fail = [&](const std::string& problem) { reject(label, from, to, "scene", problem); };
  if (s.names.size() != s.bodies.size()) fail("body names and bodies differ in number");
  if (s.joint_names.size() != s.joints.size() || s.joint_frames.size() != s.joints.size())
    fail("joint names, frames and joints differ in number");
  for (std::size_t i = 0; i < s.bodies.size(); ++i)
    if (!s.world.is_valid(s.bodies[i]))
      fail("bodies[" + std::to_string(i) + "] is not a body of the world");
  for (std::size_t i = 0; i < s.joints.size(); ++i)
    if (!s.world.is_valid(s.joints[i]))
      fail("joints[" + std::to_string(i) + "] is not a joint of the world");
  if (!(s.dt > 0.0f && s.dt <= 1.0f))
    fail("dt " + shapes::number_text(s.dt) + " is not in (0, 1] s");
  if (s.steps < 0 || s.steps_done < 0) fail("negative step count");
}

}  // namespace

bool is_snapshot(std::span<const std::uint8_t> bytes) {
  return bytes.size() >= sizeof kWorldMagic &&
         std::memcmp(bytes.data(), kWorldMagic, sizeof kWorldMagic) == 0;
}

std::vector<std::uint8_t> save_scene_snapshot(const SceneInstance& scene) {
  std::string hook_name;
  std::vector<std::uint8_t> hook_state;
  if (scene.hook) {
    const StepHook::Resumable* hook = scene.hook.resumable();
    if (!hook)
      throw SceneError(scene.source, "", "its step hook is a function, which cannot be saved");
    hook_name = hook->name(), hook_state = hook->state();
  }
  std::vector<std::uint8_t> out = scene.world.snapshot();
  const std::size_t part = out.size();
  // The lists are only read; archive takes its fields by reference for reading and writing alike.
  auto& s = const_cast<SceneInstance&>(scene);
  std::vector<std::uint8_t> payload;
  instance_fields(
      s, [&](auto&... fields) { payload = snapshot::to_bytes(fields..., hook_name, hook_state); });
  out.resize(part + kHeaderBytes);
  std::memcpy(out.data() + part, kSceneMagic, sizeof kSceneMagic);
  const std::uint32_t version = kSceneFormatVersion, zero = 0;
  const std::uint64_t length = payload.size();
  const std::uint64_t sum = XXH3_64bits(payload.data(), payload.size());
  std::memcpy(out.data() + part + 8, &version, 4);
  std::memcpy(out.data() + part + 12, &zero, 4);
  std::memcpy(out.data() + part + 16, &length, 8);
  std::memcpy(out.data() + part + 24, &sum, 8);
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

SceneInstance load_scene_snapshot(std::span<const std::uint8_t> bytes, std::string_view label,
                                  int threads) {
  if (!is_snapshot(bytes))
    reject(label, 0, std::min<std::size_t>(bytes.size(), 8), "header",
           "not a strut snapshot (it does not start with STRUTSNP)");
  // The world's part: its header says how long it is.
  std::size_t world_size = bytes.size();
  if (bytes.size() >= kHeaderBytes) {
    const auto payload = read_at<std::uint64_t>(bytes, 16);
    if (payload <= bytes.size() - kHeaderBytes) world_size = kHeaderBytes + std::size_t(payload);
  }
  World world = [&] {
    try {
      return World::from_snapshot(bytes.first(world_size), threads);
    } catch (const Error& e) {
      throw SceneError(std::string(label), "", e.what());
    }
  }();
  SceneInstance inst(std::move(world));
  inst.source = std::string(label);
  const std::span<const std::uint8_t> rest = bytes.subspan(world_size);
  if (rest.empty()) {  // a bare World::snapshot: its bodies in creation order, unnamed
    inst.bodies = inst.world.bodies();
    inst.names.assign(inst.bodies.size(), "");
    return inst;
  }
  const std::size_t at = world_size;
  if (rest.size() < kHeaderBytes || std::memcmp(rest.data(), kSceneMagic, 8) != 0)
    reject(label, at, bytes.size(), "scene",
           "bytes after the world's snapshot that are not a scene's part (STRUTSCN)");
  const auto version = read_at<std::uint32_t>(rest, 8);
  if (version != kSceneFormatVersion)
    reject(label, at + 8, at + 12, "scene",
           "format version " + std::to_string(version) + ", this build reads version " +
               std::to_string(kSceneFormatVersion));
  const auto length = read_at<std::uint64_t>(rest, 16);
  if (length != rest.size() - kHeaderBytes)
    reject(label, at + 16, at + 24, "scene",
           "payload length " + std::to_string(length) + ", but the file holds " +
               std::to_string(rest.size() - kHeaderBytes) + " bytes after its header");
  const std::span<const std::uint8_t> payload = rest.subspan(kHeaderBytes);
  if (XXH3_64bits(payload.data(), payload.size()) != read_at<std::uint64_t>(rest, 24))
    reject(label, at + kHeaderBytes, bytes.size(), "scene",
           "checksum mismatch: the snapshot is damaged");
  const std::size_t base = at + kHeaderBytes;
  std::string hook_name;
  std::vector<std::uint8_t> hook_state;
  try {
    snapshot::Reader in(payload.data(), payload.size(), base);
    in.enter("scene");
    instance_fields(inst, [&](auto&... fields) { snapshot::archive_all(in, fields...); });
    in.enter("step hook");
    snapshot::archive_all(in, hook_name, hook_state);
    if (!in.done()) in.fail(in.offset(), payload.size() - in.offset(), "bytes after its end");
    check_instance(inst, label, base, bytes.size());
    if (!hook_name.empty())
      inst.hook = builtin::resume_builtin_hook(hook_name, hook_state,
                                               bytes.size() - hook_state.size(), inst);
  } catch (const SceneError&) {
    throw;
  } catch (const Error& e) {
    throw SceneError(std::string(label), "", e.what());
  }
  return inst;
}

}  // namespace strut
