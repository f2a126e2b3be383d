// The registry of built-in scenes: names in a fixed order, each with its maker.
#include "solver/shapes/shape_checks.hpp"
#include "strut/scenes.hpp"
#include "tools/scene/builtin_parts.hpp"

namespace strut {
namespace {

struct Entry {
  const char* name;
  Scene (*make)(float size);
};

// Box2D's benchmark scenes first, in the order of its benchmark program, then strut's own.
constexpr Entry kScenes[] = {
    {"large_pyramid", builtin::large_pyramid},
    {"many_pyramids", builtin::many_pyramids},
    {"rain", builtin::rain},
    {"smash", builtin::smash},
    {"spinner", builtin::spinner},
    {"tumbler", builtin::tumbler},
    {"joint_grid", builtin::joint_grid},
    {"compounds", builtin::compounds},
    {"junkyard", builtin::junkyard},
    {"washer", builtin::washer},
    {"particles", builtin::particles},
    {"cloth", builtin::cloth},
};

}  // namespace

std::vector<std::string> builtin_scene_names() {
  std::vector<std::string> names;
  for (const Entry& e : kScenes) names.emplace_back(e.name);
  return names;
}

bool is_builtin_scene(std::string_view name) {
  for (const Entry& e : kScenes)
    if (name == e.name) return true;
  return false;
}

Scene builtin_scene(std::string_view name, float size) {
  if (!(size > 0 && size <= 1000))
    throw Error("builtin_scene: size must be in (0, 1000], got " + shapes::number_text(size));
  for (const Entry& e : kScenes)
    if (name == e.name) return e.make(size);
  throw Error("unknown built-in scene '" + std::string(name) + "'");
}

}  // namespace strut

namespace strut::builtin {

StepHook resume_builtin_hook(const std::string& name, std::span<const std::uint8_t> state,
                             std::size_t base, const SceneInstance& io) {
  using Resume = StepHook (*)(std::span<const std::uint8_t>, std::size_t, const SceneInstance&);
  static constexpr std::pair<const char*, Resume> kHooks[] = {
      {"junkyard", resume_junkyard_hook},
      {"particles", resume_pour_hook},
      {"rain", resume_rain_hook},
  };
  for (const auto& [hook_name, resume] : kHooks)
    if (name == hook_name) return resume(state, base, io);
  throw snapshot::SnapshotError("bytes " + std::to_string(base) + "-" +
                                std::to_string(base + state.size()) +
                                ": step hook: unknown hook \"" + name + "\"");
}

}  // namespace strut::builtin
