// Building blocks shared by the built-in scenes (tools/scene/builtin_*.cpp); not public API.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "solver/core/field_archive.hpp"
#include "strut/scene.hpp"

namespace strut::builtin {

// A built-in scene's step hook that scene snapshots can save: Hook has a default constructor, a
// kName, its members in for_each_field (solver/core/field_archive.hpp) and `bool valid(const
// SceneInstance&) const`, which a resumed hook must pass before it runs (a snapshot's state could
// otherwise send it outside its lists).
template <class Hook>
class ResumableHook final : public StepHook::Resumable {
 public:
  explicit ResumableHook(Hook hook) : hook_(std::move(hook)) {}
  void operator()(SceneInstance& io, int step) override { hook_(io, step); }
  std::unique_ptr<Resumable> clone() const override {
    return std::make_unique<ResumableHook>(*this);
  }
  std::string name() const override { return Hook::kName; }
  std::vector<std::uint8_t> state() const override {
    Hook copy = hook_;
    return snapshot::to_bytes(copy);
  }
  // The hook as `state` left it; throws snapshot::SnapshotError naming the bytes (from `base`,
  // where the state sits in its file) when they are not a state of this hook.
  static StepHook resume(std::span<const std::uint8_t> state, std::size_t base,
                         const SceneInstance& io) {
    Hook hook;
    snapshot::Reader in(state.data(), state.size(), base);
    in.enter(Hook::kName);
    snapshot::archive(in, hook);
    if (!in.done() || !hook.valid(io))
      in.fail(0, state.size(), std::string("not a state of the ") + Hook::kName + " step hook");
    return StepHook(std::make_unique<ResumableHook>(std::move(hook)));
  }

 private:
  Hook hook_;
};

// The built-in hook named `name` resumed from its state (ResumableHook::resume); throws
// snapshot::SnapshotError for an unknown name (builtin_scenes.cpp).
StepHook resume_builtin_hook(const std::string& name, std::span<const std::uint8_t> state,
                             std::size_t base, const SceneInstance& io);
StepHook resume_junkyard_hook(std::span<const std::uint8_t> state, std::size_t base,
                              const SceneInstance& io);
StepHook resume_pour_hook(std::span<const std::uint8_t> state, std::size_t base,
                          const SceneInstance& io);
StepHook resume_rain_hook(std::span<const std::uint8_t> state, std::size_t base,
                          const SceneInstance& io);

// Box2D's benchmark settings: dt 1/60 s, 4 substeps, 1 iteration, gravity (0, -10).
inline Scene benchmark_scene(std::string name, std::string description, int steps) {
  Scene s;
  s.source = std::move(name);
  s.description = std::move(description);
  s.steps = steps;
  return s;
}

inline SceneBody box(Vec2 center, Vec2 half_extents, bool is_static = false) {
  SceneBody b;
  b.def.shapes = {ShapeDef{BoxShape{half_extents}}};
  b.def.center = center;
  // Static bodies keep the `default` material: the built-in `static` one has restitution 0.4,
  // and Box2D's benchmarks bounce nowhere.
  b.def.is_static = is_static;
  return b;
}

inline SceneBody circle(Vec2 center, float radius, bool is_static = false) {
  SceneBody b = box(center, {}, is_static);
  b.def.shapes[0].shape = CircleShape{radius};
  return b;
}

// Static shapes as static bodies of at most kMaxShapesPerBody shapes each, the first named
// `name`. Box2D puts a benchmark's ground (hundreds of boxes) on one static body; a scene file
// allows 64 shapes a body, and static bodies never move, so several give the same world (the
// broad phase and the contacts work on shapes either way).
inline void add_static_shapes(Scene& s, const std::string& name,
                              const std::vector<ShapeDef>& shapes) {
  for (std::size_t first = 0; first < shapes.size(); first += kMaxShapesPerBody) {
    SceneBody b;
    if (first == 0) b.name = name;
    b.def.is_static = true;
    const std::size_t last = std::min(shapes.size(), first + std::size_t(kMaxShapesPerBody));
    b.def.shapes.assign(shapes.begin() + std::ptrdiff_t(first),
                        shapes.begin() + std::ptrdiff_t(last));
    s.bodies.push_back(std::move(b));
  }
}

inline SceneJoint scene_joint(std::string a, std::string b, JointDef def) {
  SceneJoint j;
  j.a = std::move(a);
  j.b = std::move(b);
  j.def = std::move(def);
  return j;
}

// A count scaled so the number of bodies grows by `size`: counts that are one side of a square
// layout grow with sqrt(size).
inline int scaled(int count, float size) { return std::max(1, int(std::lround(count * size))); }
inline int scaled_side(int count, float size) {
  return std::max(1, int(std::lround(count * std::sqrt(size))));
}

// Adds a pyramid of boxes of half-extent `extent` with `base` boxes in the bottom row, centred
// on x = center_x, standing on y = base_y: row i (from the bottom) has base - i boxes,
// neighbours touching, each row shifted by half a box.
inline void add_pyramid(Scene& s, int base, float extent, float center_x, float base_y) {
  for (int i = 0; i < base; ++i) {
    const float y = base_y + (2.0f * i + 1.0f) * extent;
    for (int j = i; j < base; ++j) {
      const float x = center_x + (i + 1.0f) * extent + 2.0f * (j - i) * extent - extent * base;
      s.bodies.push_back(box({x, y}, {extent, extent}));
    }
  }
}

// A deterministic pseudo-random number in [0, 1) from an integer (splitmix64): the same on
// every machine, unlike std::rand or libm-dependent tricks.
inline float hash01(std::uint64_t k) {
  k += 0x9E3779B97F4A7C15ull;
  k = (k ^ (k >> 30)) * 0xBF58476D1CE4E5B9ull;
  k = (k ^ (k >> 27)) * 0x94D049BB133111EBull;
  k ^= k >> 31;
  return float(k >> 40) / float(1 << 24);
}

Scene large_pyramid(float size);
Scene many_pyramids(float size);
Scene rain(float size);
Scene smash(float size);
Scene spinner(float size);
Scene compounds(float size);
Scene washer(float size);
Scene junkyard(float size);
Scene tumbler(float size);
Scene joint_grid(float size);
Scene particles(float size);
Scene cloth(float size);

}  // namespace strut::builtin
