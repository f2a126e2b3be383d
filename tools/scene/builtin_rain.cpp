// Box2D's 'rain' benchmark: ragdolls keep appearing above five floors and the oldest are
// destroyed, so it measures body creation and destruction as much as stepping.
#include <memory>

#include "tools/scene/builtin_parts.hpp"

namespace strut::builtin {
namespace {

constexpr int kColumns = 40;           // column slots per floor, 6.25 m apart
constexpr int kRagdollsPerColumn = 5;  // side by side, 0.5 m apart
constexpr int kSpawnInterval = 8;      // steps between two spawns
constexpr float kFloorSpacing = 45.0f;
constexpr float kPi = 3.14159265f;

// Box2D's 1.8 m "human": 11 capsule bones (a vertical segment from y0 to y1 about the bone's
// centre height y, thickened by r), each but the hip on a revolute joint to its parent at height
// `pivot` with angle limits (in units of pi), a friction motor (speed 0, max torque 0.05 N m x
// friction_scale) and a 5 Hz spring of damping ratio 0.5. Heights from the feet.
struct Bone {
  float y, y0, y1, r;
  int parent;
  float pivot, lower, upper, friction_scale, drag;
  bool foot;
};
constexpr Bone kBones[] = {
    {0.95f, -0.02f, 0.02f, 0.095f, -1, 0, 0, 0, 0, 0, false},                     // hip
    {1.2f, -0.135f, 0.135f, 0.09f, 0, 1.0f, -0.25f, 0.0f, 0.5f, 0, false},        // torso
    {1.475f, -0.038f, 0.039f, 0.075f, 1, 1.4f, -0.3f, 0.1f, 0.25f, 0.1f, false},  // head
    {0.775f, -0.125f, 0.125f, 0.06f, 0, 0.9f, -0.05f, 0.4f, 1.0f, 0, false},      // upper left leg
    {0.475f, -0.155f, 0.125f, 0.045f, 3, 0.625f, -0.5f, -0.02f, 0.5f, 0, true},   // lower left leg
    {0.775f, -0.125f, 0.125f, 0.06f, 0, 0.9f, -0.05f, 0.4f, 1.0f, 0, false},      // upper right leg
    {0.475f, -0.155f, 0.125f, 0.045f, 5, 0.625f, -0.5f, -0.02f, 0.5f, 0, true},   // lower right leg
    {1.225f, -0.125f, 0.125f, 0.035f, 1, 1.35f, -0.1f, 0.8f, 0.5f, 0, false},     // upper left arm
    {0.975f, -0.125f, 0.125f, 0.03f, 7, 1.1f, -0.2f, 0.3f, 0.1f, 0.1f, false},    // lower left arm
    {1.225f, -0.125f, 0.125f, 0.035f, 1, 1.35f, -0.1f, 0.8f, 0.5f, 0, false},     // upper right arm
    {0.975f, -0.125f, 0.125f, 0.03f, 9, 1.1f, -0.2f, 0.3f, 0.1f, 0.1f, false},    // lower right arm
};

struct Group {
  std::vector<BodyId> bodies;
  std::vector<JointId> joints;
  template <class F>
  void for_each_field(F&& f) {
    f(bodies), f(joints);
  }
};

class RainHook {
 public:
  static constexpr const char* kName = "rain";
  RainHook() = default;
  explicit RainHook(int floors) : groups_(std::size_t(floors) * kColumns) {}
  template <class F>
  void for_each_field(F&& f) {
    f(groups_), f(column_);
  }
  // The ids it holds may be stale (it checks them before use); only its shape must fit.
  bool valid(const SceneInstance&) const {
    return !groups_.empty() && groups_.size() % kColumns == 0 && column_ >= 0 && column_ < kColumns;
  }

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
        const Vec2 feet{-125.0f + 6.25f * (float(column_) + 0.5f) + 0.5f * float(r),
                        float(floor) * kFloorSpacing + 40.0f};
        // As Box2D: the i-th ragdoll of every column has group -(i + 1), so a ragdoll's bones
        // never collide with each other (nor with its namesakes in other columns).
        add_ragdoll(io, g, feet, -(r + 1));
      }
    }
    if (destroyed) io.forget_destroyed();
    column_ = (column_ + 1) % kColumns;
  }

 private:
  static void add_ragdoll(SceneInstance& io, Group& g, Vec2 feet, std::int32_t group) {
    const std::size_t first = g.bodies.size();
    for (const Bone& bone : kBones) {
      BodyDef def;
      def.center = feet + Vec2{0.0f, bone.y};
      def.linear_drag = bone.drag;
      ShapeDef capsule;
      capsule.shape = CapsuleShape{0.5f * (bone.y1 - bone.y0), bone.r};
      capsule.offset = {0.0f, 0.5f * (bone.y0 + bone.y1)};
      capsule.angle = 0.5f * kPi;
      capsule.material = Material{1.0f, 0.2f, 0.2f, 0.0f};
      capsule.filter = ShapeFilter{2, 1 | 2, group};
      def.shapes.push_back(capsule);
      if (bone.foot) {
        // Feet: a rounded quad that touches the floors only.
        ShapeDef foot;
        foot.shape = PolygonShape{
            {{-0.03f, -0.185f}, {0.11f, -0.185f}, {0.11f, -0.16f}, {-0.03f, -0.14f}}, 0.015f};
        foot.material = Material{1.0f, 0.05f, 0.05f, 0.0f};
        foot.filter = ShapeFilter{2, 1, group};
        def.shapes.push_back(foot);
      }
      const BodyId id = io.create_body(def);
      g.bodies.push_back(id);
      if (bone.parent >= 0) {
        RevoluteJointDef j;
        j.a = g.bodies[first + std::size_t(bone.parent)];
        j.b = id;
        j.anchor = feet + Vec2{0.0f, bone.pivot};
        j.limit = JointLimit{true, bone.lower * kPi, bone.upper * kPi};
        j.motor = JointMotor{true, 0.0f, 0.05f * bone.friction_scale};
        j.spring = JointSpring{true, 5.0f, 0.5f};
        g.joints.push_back(io.create_joint(j));
      }
    }
  }

  std::vector<Group> groups_;  // floor-major, kColumns per floor
  int column_ = 0;
};

}  // namespace

StepHook resume_rain_hook(std::span<const std::uint8_t> state, std::size_t base,
                          const SceneInstance& io) {
  return ResumableHook<RainHook>::resume(state, base, io);
}

Scene rain(float size) {
  const int floors = scaled(5, size);
  Scene s = benchmark_scene(
      "rain",
      "Box2D benchmark 'rain': " + std::to_string(floors) +
          " floors 45 m apart, each 501 boxes of 0.5 m (Box2D: one static body; here static "
          "bodies of 64 boxes, the most a scene file gives a body); every 8 steps a "
          "column of 5 ragdolls (Box2D's 11-bone human of capsules, with angle limits, friction "
          "motors and 5 Hz springs) appears 40 m above each floor, and once 40 columns exist the "
          "oldest is destroyed and made again. The spawning happens only in the built-in scene: "
          "the scene file holds the floors.",
      1000);
  std::vector<ShapeDef> tiles;
  for (int floor = 0; floor < floors; ++floor)
    for (int j = 0; j <= 500; ++j) {
      ShapeDef tile;
      tile.shape = BoxShape{{0.25f, 0.25f}};
      tile.offset = {-125.0f + 0.5f * float(j), float(floor) * kFloorSpacing};
      tiles.push_back(tile);
    }
  add_static_shapes(s, "floors", tiles);
  s.make_step_hook = [floors] {
    return StepHook(std::make_unique<ResumableHook<RainHook>>(RainHook(floors)));
  };
  return s;
}

}  // namespace strut::builtin
