// A ragdoll: a body of capsules (torso, upper and lower arms and legs) and a round head, joined
// by revolute joints. Each joint has angle limits (an elbow bends one way only) and a weak motor
// at speed 0, which acts as friction in the joint so the limbs do not flop. All the parts share
// a negative collision group, so they never collide with each other (a thigh overlapping the
// torso at the hip is fine) while each still collides with the ground. The ragdoll falls from
// 3 m and settles; the program checks every joint stayed within its limits.
#include <cmath>
#include <cstdio>
#include <strut/world.hpp>
#include <vector>

namespace {

struct Limb {
  const char* name;
  strut::BodyId id;
};

}  // namespace

int main() {
  strut::World world({.gravity = {0, -10}});

  strut::BodyDef ground;
  ground.shapes = {strut::ShapeDef{strut::BoxShape{{20, 1}}}};
  ground.center = {0, -1};
  ground.is_static = true;
  world.create_body(ground);

  const float height = 3.0f;  // of the hips
  std::vector<Limb> limbs;
  // A vertical capsule from `top` down `length` metres (capsules lie along their x axis, so
  // each is turned a quarter turn). Same group -1 for every part: no self-collision.
  auto bone = [&](const char* name, strut::Vec2 top, float length, float radius) {
    strut::BodyDef d;
    d.shapes = {strut::ShapeDef{
        .shape = strut::CapsuleShape{.half_length = 0.5f * length, .radius = radius},
        .material = {.density = 1.0f},
        .filter = {.group = -1}}};
    d.center = {top.x, top.y - 0.5f * length};
    d.angle = 1.5707963f;
    limbs.push_back({name, world.create_body(d)});
    return limbs.back().id;
  };
  const strut::BodyId torso = bone("torso", {0, height + 0.6f}, 0.6f, 0.15f);
  strut::BodyDef head_def;
  head_def.shapes = {strut::ShapeDef{.shape = strut::CircleShape{0.15f}, .filter = {.group = -1}}};
  head_def.center = {0, height + 0.8f};
  const strut::BodyId head = world.create_body(head_def);
  limbs.push_back({"head", head});
  const float shoulder = height + 0.55f;
  const strut::BodyId upper_arm_l = bone("left upper arm", {-0.2f, shoulder}, 0.3f, 0.06f);
  const strut::BodyId lower_arm_l = bone("left forearm", {-0.2f, shoulder - 0.3f}, 0.3f, 0.05f);
  const strut::BodyId upper_arm_r = bone("right upper arm", {0.2f, shoulder}, 0.3f, 0.06f);
  const strut::BodyId lower_arm_r = bone("right forearm", {0.2f, shoulder - 0.3f}, 0.3f, 0.05f);
  const strut::BodyId thigh_l = bone("left thigh", {-0.1f, height}, 0.45f, 0.08f);
  const strut::BodyId shin_l = bone("left shin", {-0.1f, height - 0.45f}, 0.45f, 0.07f);
  const strut::BodyId thigh_r = bone("right thigh", {0.1f, height}, 0.45f, 0.08f);
  const strut::BodyId shin_r = bone("right shin", {0.1f, height - 0.45f}, 0.45f, 0.07f);

  // A revolute joint at `anchor` (world point) whose angle (b relative to a, 0 as built) stays
  // in [lower, upper]; the motor at speed 0 with a small torque is the joint's friction.
  struct Hinge {
    strut::JointId id;
    float lower, upper;
  };
  std::vector<Hinge> hinges;
  auto hinge = [&](strut::BodyId a, strut::BodyId b, strut::Vec2 anchor, float lower, float upper) {
    strut::RevoluteJointDef j;
    j.a = a;
    j.b = b;
    j.anchor = anchor;
    j.limit = {.enabled = true, .lower = lower, .upper = upper};
    j.motor = {.enabled = true, .speed = 0.0f, .max_effort = 2.0f};  // N m of friction
    hinges.push_back({world.create_joint(j), lower, upper});
  };
  hinge(torso, head, {0, height + 0.65f}, -0.5f, 0.5f);  // neck
  hinge(torso, upper_arm_l, {-0.2f, shoulder}, -3.0f, 1.0f);
  hinge(upper_arm_l, lower_arm_l, {-0.2f, shoulder - 0.3f}, -2.5f, 0.0f);  // elbow: one way
  hinge(torso, upper_arm_r, {0.2f, shoulder}, -1.0f, 3.0f);
  hinge(upper_arm_r, lower_arm_r, {0.2f, shoulder - 0.3f}, 0.0f, 2.5f);
  hinge(torso, thigh_l, {-0.1f, height}, -1.5f, 0.5f);          // hip
  hinge(thigh_l, shin_l, {-0.1f, height - 0.45f}, 0.0f, 2.5f);  // knee: one way
  hinge(torso, thigh_r, {0.1f, height}, -1.5f, 0.5f);
  hinge(thigh_r, shin_r, {0.1f, height - 0.45f}, 0.0f, 2.5f);

  // A push to the right at the chest so it falls over rather than landing on its feet.
  world.apply_impulse(torso, {3, 0}, {0, height + 0.5f});

  float worst_excess = 0;                    // how far any joint went past a limit, radians
  for (int step = 1; step <= 300; ++step) {  // 5 s at 60 Hz
    world.step(1.0f / 60);
    for (const Hinge& h : hinges) {
      const float angle = world.joint_reading(h.id).angle;
      worst_excess = std::fmax(worst_excess, std::fmax(h.lower - angle, angle - h.upper));
    }
    if (step % 60 == 0)
      std::printf("t = %.0f s  torso at (%.2f, %.2f)  head at (%.2f, %.2f)\n", step / 60.0,
                  world.transform(torso).position.x, world.transform(torso).position.y,
                  world.transform(head).position.x, world.transform(head).position.y);
  }
  // Settled on the ground: every part still (below 0.1 m/s) and above the ground's surface
  // (its centre at least its thinnest radius, 5 cm, minus 2 cm of contact softness: the left
  // upper arm, under the torso, sinks 1.1 cm into the ground's 60 Hz contact).
  bool settled = true;
  for (const Limb& limb : limbs) {
    const float speed =
        std::hypot(world.linear_velocity(limb.id).x, world.linear_velocity(limb.id).y);
    settled = settled && speed < 0.1f && world.transform(limb.id).position.y > 0.03f;
    if (!settled) std::printf("%s is not at rest on the ground\n", limb.name);
  }
  // Limits are soft by a few hundredths of a radian while a fall loads them.
  std::printf("worst limit overshoot %.3f rad\n", worst_excess);
  const bool ok = settled && worst_excess < 0.1f;
  std::printf(ok ? "the ragdoll lies on the ground within its joint limits\n"
                 : "the ragdoll did not behave\n");
  return ok ? 0 : 1;
}
