// Box2D's 'rain' benchmark: ragdolls keep appearing above five floors and the oldest are
// destroyed, so it measures body creation and destruction as much as stepping.
#include <memory>

#include "tools/scene/builtin_parts.hpp"

namespace strut::builtin {
namespace {

constexpr int kColumns = 40;           // column slots per floor, 5 m apart
constexpr int kRagdollsPerColumn = 5;  // side by side, 0.5 m apart
constexpr int kSpawnInterval = 8;      // steps between two spawns
constexpr float kFloorSpacing = 45.0f;

// An 1.8 m ragdoll of 11 boxes (Box2D uses capsules): centre height, half-extents, the bone it
// hangs from and the height of that pin. Left and right limbs coincide; a ragdoll's bones
// never collide with each other.
struct Bone {
  float y, hx, hy;
  int parent;
  float pivot;
};
constexpr Bone kBones[] = {
    {1.00f, 0.12f, 0.10f, -1, 0.0f},     // hip
    {1.30f, 0.11f, 0.20f, 0, 1.10f},     // torso
    {1.65f, 0.10f, 0.15f, 1, 1.50f},     // head
    {0.725f, 0.07f, 0.225f, 0, 0.95f},   // upper left leg
    {0.25f, 0.06f, 0.25f, 3, 0.50f},     // lower left leg
    {0.725f, 0.07f, 0.225f, 0, 0.95f},   // upper right leg
    {0.25f, 0.06f, 0.25f, 5, 0.50f},     // lower right leg
    {1.325f, 0.045f, 0.175f, 1, 1.45f},  // upper left arm
    {1.00f, 0.04f, 0.15f, 7, 1.15f},     // lower left arm
    {1.325f, 0.045f, 0.175f, 1, 1.45f},  // upper right arm
    {1.00f, 0.04f, 0.15f, 9, 1.15f},     // lower right arm
};

struct Group {
  std::vector<BodyId> bodies;
  std::vector<JointId> joints;
};

class RainHook {
 public:
  explicit RainHook(int floors) : groups_(std::size_t(floors) * kColumns) {}

  void operator()(SceneInstance& io, int step) {
    if (step % kSpawnInterval != 0) return;
    const int floors = static_cast<int>(groups_.size() / kColumns);
    bool destroyed = false;
    for (int floor = 0; floor < floors; ++floor) {
      Group& g = groups_[std::size_t(floor) * kColumns + column_];
      destroyed = destroyed || !g.bodies.empty();
      for (const JointId j : g.joints)
        if (io.world.is_valid(j)) io.world.destroy_joint(j);
      for (const BodyId b : g.bodies)
        if (io.world.is_valid(b)) io.world.destroy_body(b);
      g = {};
      for (int r = 0; r < kRagdollsPerColumn; ++r) {
        const Vec2 feet{-100.0f + 5.0f * column_ + 0.5f * r, floor * kFloorSpacing + 40.0f};
        add_ragdoll(io, g, feet);
      }
    }
    if (destroyed) io.forget_destroyed();
    column_ = (column_ + 1) % kColumns;
  }

 private:
  void add_ragdoll(SceneInstance& io, Group& g, Vec2 feet) {
    // Box2D keeps a ragdoll's bones apart with a group index; strut has only layers, so each
    // ragdoll takes one of 31 layers in turn (ragdolls sharing a layer pass through each other).
    const std::uint32_t layer = 1u << (1 + ragdolls_++ % 31);
    const std::size_t first = g.bodies.size();
    for (const Bone& bone : kBones) {
      BodyDef def;
      def.shape = BoxShape{{bone.hx, bone.hy}};
      def.center = feet + Vec2{0.0f, bone.y};
      def.category = layer;
      def.mask = ~layer;
      const BodyId id = io.create_body(def);
      g.bodies.push_back(id);
      if (bone.parent >= 0) {
        RevoluteJointDef j;
        j.a = g.bodies[first + bone.parent];
        j.b = id;
        j.anchor = feet + Vec2{0.0f, bone.pivot};
        g.joints.push_back(io.create_joint(j));
      }
    }
  }

  std::vector<Group> groups_;  // floor-major, kColumns per floor
  int column_ = 0;
  std::uint32_t ragdolls_ = 0;
};

}  // namespace

Scene rain(float size) {
  const int floors = scaled(5, size);
  Scene s = benchmark_scene(
      "rain",
      "Box2D benchmark 'rain': " + std::to_string(floors) +
          " floors 45 m apart, each 501 static 0.5 m boxes; every 8 steps a column of 5 ragdolls "
          "(11 bones, 1.8 m) appears 40 m above each floor, and once 40 columns exist the oldest "
          "is destroyed and made again. The spawning happens only in the built-in scene: the "
          "scene file holds the floors. Substitutions: capsules are boxes; revolute joints with "
          "limits and springs are pins; a ragdoll's bones do not collide with each other (Box2D's "
          "group index) by giving each ragdoll one of 31 layers in turn.",
      1000);
  s.bodies.reserve(std::size_t(floors) * 501);
  for (int floor = 0; floor < floors; ++floor)
    for (int j = 0; j <= 500; ++j)
      s.bodies.push_back(box({-125.0f + 0.5f * j, floor * kFloorSpacing}, {0.25f, 0.25f}, true));
  s.make_step_hook = [floors] { return StepHook(RainHook(floors)); };
  return s;
}

}  // namespace strut::builtin
