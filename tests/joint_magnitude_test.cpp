// Joint limits, motors and compliances obey the magnitude rule (strut/limits.hpp), in World
// calls and in scene files. Found by fuzz_api (fuzz/corpus/api/found_revolute_limit_9e21.bin and
// found_revolute_motor_speed_1e22.bin): a revolute joint with limits [9.5e21, 1.7e22] rad, and
// one whose motor ran at 1.1e22 rad/s, were accepted, and the joint's first correction turned
// both bodies' rotations into NaN (a rotation by 1e22 rad overflows its normalisation).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "strut/limits.hpp"
#include "strut/scene.hpp"
#include "strut/world.hpp"
#include "test_util.hpp"

namespace strut {
namespace {

using test::error_of;
using test::finite_state;

struct Pair {
  World world;
  BodyId a, b;
  Pair() {
    a = world.create_body(test::box_def({0, 2}));
    b = world.create_body(test::box_def({1, 2}));
  }
};

TEST(JointMagnitude, RevoluteLimitsBeyondPiAreRejected) {
  Pair p;
  RevoluteJointDef hinge{.a = p.a, .b = p.b, .anchor = {0.5f, 2}};
  hinge.limit = {true, 9.5e21f, 1.7e22f};
  EXPECT_EQ(error_of([&] { p.world.create_joint(hinge); }),
            "create_joint: limit.lower 9.5e+21 rad is outside [-pi, pi] (the joint angle is "
            "measured in (-pi, pi]; strut/limits.hpp)");
  hinge.limit = {true, -0.5f, 4.0f};
  EXPECT_NE(error_of([&] { p.world.create_joint(hinge); }).find("limit.upper 4 rad is outside"),
            std::string::npos);
  EXPECT_EQ(p.world.joint_count(), 0u);
  // +-pi itself is accepted; set_joint_limit checks the same.
  hinge.limit = {true, -limits::kMaxJointAngle, limits::kMaxJointAngle};
  const JointId j = p.world.create_joint(hinge);
  EXPECT_NE(error_of([&] {
              p.world.set_joint_limit(j, {true, 9.5e21f, 1.7e22f});
            }).find("set_joint_limit: limit.lower 9.5e+21 rad is outside [-pi, pi]"),
            std::string::npos);
  EXPECT_EQ(std::get<RevoluteJointDef>(p.world.definition(j)).limit.upper, limits::kMaxJointAngle);
}

TEST(JointMagnitude, TranslationLimitsObeyTheCoordinateLimit) {
  Pair p;
  PrismaticJointDef slider{.a = p.a, .b = p.b, .anchor = {0.5f, 2}, .axis = {1, 0}};
  slider.limit = {true, -2e7f, 1};
  EXPECT_EQ(error_of([&] { p.world.create_joint(slider); }),
            "create_joint: limit.lower -2e+07 exceeds the limit of 4000 m (strut/limits.hpp)");
  WheelJointDef wheel{.a = p.a, .b = p.b, .anchor = {0.5f, 2}, .axis = {0, 1}};
  wheel.limit = {true, -1, 3e7f};
  EXPECT_NE(error_of([&] { p.world.create_joint(wheel); }).find("limit.upper 3e+07 exceeds"),
            std::string::npos);
  // A translation limit may be longer than pi: it is not an angle.
  slider.limit = {true, -100, 100};
  EXPECT_NO_THROW(p.world.create_joint(slider));
}

TEST(JointMagnitude, MotorSpeedsAndEffortsBeyondTheLimitsAreRejected) {
  Pair p;
  RevoluteJointDef hinge{.a = p.a, .b = p.b, .anchor = {0.5f, 2}};
  hinge.motor = {true, 1.1e22f, 1.7e22f};
  EXPECT_EQ(error_of([&] { p.world.create_joint(hinge); }),
            "create_joint: motor.speed 1.1e+22 rad/s exceeds the limit of 10000 "
            "(strut/limits.hpp)");
  hinge.motor = {true, 1, 1e31f};
  EXPECT_EQ(error_of([&] { p.world.create_joint(hinge); }),
            "create_joint: motor.max_effort 1e+31 exceeds the limit of 1e+30 (strut/limits.hpp)");
  PrismaticJointDef slider{.a = p.a, .b = p.b, .anchor = {0.5f, 2}, .axis = {1, 0}};
  slider.motor = {true, -2e4f, 10};
  EXPECT_NE(error_of([&] { p.world.create_joint(slider); }).find("motor.speed -20000 m/s exceeds"),
            std::string::npos);
  WheelJointDef wheel{.a = p.a, .b = p.b, .anchor = {0.5f, 2}, .axis = {0, 1}};
  wheel.motor = {true, 2e4f, 10};
  EXPECT_NE(error_of([&] { p.world.create_joint(wheel); }).find("motor.speed 20000 rad/s exceeds"),
            std::string::npos);
  EXPECT_EQ(p.world.joint_count(), 0u);
  hinge.motor = {true, 1, 1};
  const JointId j = p.world.create_joint(hinge);
  EXPECT_NE(error_of([&] {
              p.world.set_joint_motor(j, {true, 1.1e22f, 1.7e22f});
            }).find("set_joint_motor: motor.speed 1.1e+22 rad/s exceeds"),
            std::string::npos);
}

// At the edges of the ranges the fuzzer's joints run and every body stays finite: a motor at
// the speed limit with the largest effort, and limits at +-pi, on a free body and a fixed one.
TEST(JointMagnitude, JointsAtTheEdgesOfTheRangesStayFinite) {
  World world;
  world.create_body(test::ground_def());
  const BodyId anchor = test::fixed_point(world, {0, 5});
  const BodyId bar = world.create_body(test::box_def({1, 5}, {1, 0.1f}));
  const BodyId free_a = world.create_body(test::box_def({5, 5}));
  const BodyId free_b = world.create_body(test::box_def({6, 5}, {0.05f, 0.05f}));
  RevoluteJointDef motor{.a = anchor, .b = bar, .anchor = {0, 5}};
  motor.motor = {true, limits::kMaxAngularSpeed, limits::kMaxMotorEffort};
  world.create_joint(motor);
  RevoluteJointDef limited{.a = free_a, .b = free_b, .anchor = {5.5f, 5}};
  limited.limit = {true, limits::kMaxJointAngle, limits::kMaxJointAngle};
  limited.motor = {true, -limits::kMaxAngularSpeed, limits::kMaxMotorEffort};
  world.create_joint(limited);
  PrismaticJointDef slider{.a = anchor, .b = free_a, .anchor = {5, 5}, .axis = {1, 0}};
  slider.limit = {true, -limits::kMaxCoordinate, limits::kMaxCoordinate};
  slider.motor = {true, limits::kMaxSpeed, limits::kMaxMotorEffort};
  world.create_joint(slider);
  for (int i = 0; i < 120; ++i) {
    world.step(1.0f / 60);
    ASSERT_TRUE(finite_state(world)) << "step " << i;
  }
  // The motor turns the bar at the angular speed limit, which the integrator enforces too.
  EXPECT_LE(std::fabs(world.angular_velocity(bar)), limits::kMaxAngularSpeed);
}

// Found by fuzz_api (fuzz/corpus/api/found_rigid_weld_far_anchor.bin): a rigid weld between a
// circle and a capsule, its anchor 131 km away, turned both bodies into NaN in the first step.
// Its rows' arms were 131 km long on bodies a metre wide, and the 3x3 block of a point and an
// angle lost every digit of its determinant. A rigid weld's anchor does not change what it holds,
// so its rows are anchored between the bodies' centres. Likewise a prismatic joint (it holds the
// angle, so its slide line may be taken through any point of b; fuzz_api,
// found_prismatic_far_anchor.bin: a box on the ground sliding along a diagonal through
// (205089, 205089) turned NaN, type 4 below). A hinge whose
// anchor is far away is held about that far point, which its rows can take. Those anchors are
// beyond today's coordinate limit (4,000 m, strut/limits.hpp) and rejected; the anchors kept
// here are as far as the limit allows, a thousand times the bodies' size.
TEST(JointMagnitude, JointsAnchoredFarAwayStayFinite) {
  for (const float far : {1000.0f, 2048.125f, limits::kMaxCoordinate}) {
    for (int type = 0; type < 5; ++type) {
      World world;
      const BodyId ground = world.create_body(test::ground_def());
      BodyDef circle = test::box_def({-1, 1.5f});
      circle.shapes[0].shape = CircleShape{0.375f};
      const BodyId a = world.create_body(circle);
      BodyDef capsule = test::box_def({0, 3});
      capsule.shapes[0].shape = CapsuleShape{0.5f, 0.125f};
      const BodyId b = world.create_body(capsule);
      const Vec2 anchor{0, far};
      switch (type) {
        case 0:
          world.create_joint(WeldJointDef{.a = a, .b = b, .anchor = anchor});
          break;
        case 1:
          world.create_joint(RevoluteJointDef{.a = a, .b = b, .anchor = anchor});
          break;
        case 2:
          world.create_joint(PrismaticJointDef{.a = a, .b = b, .anchor = anchor, .axis = {1, 0}});
          break;
        case 3:
          world.create_joint(WeldJointDef{
              .a = a, .b = b, .anchor = anchor, .linear_hertz = 5, .angular_hertz = 5});
          break;
        case 4:
          world.create_joint(
              PrismaticJointDef{.a = b, .b = ground, .anchor = {far, far}, .axis = {far, far}});
          break;
      }
      for (int i = 0; i < 120; ++i) {
        world.step(1.0f / 60);
        if (!finite_state(world)) {
          ADD_FAILURE() << "anchor " << far << " joint " << type << " step " << i;
          break;
        }
      }
    }
  }
}

// Found by fuzz_api (fuzz/corpus/api/found_soft_compliance_3e34.bin, three bodies and a step):
// a soft box of compliance 2.7e34 m/N was accepted; at 8 substeps of a 60 Hz step its struts'
// compliance / h^2 overflowed to infinity and each strut's correction was inf x 0 = NaN. A
// distance joint's compliance went through the same arithmetic. Both are now bounded.
TEST(JointMagnitude, CompliancesBeyondTheLimitAreRejected) {
  World world({.substeps = 8});
  BodyDef soft = test::box_def({0, 12}, {12, 12});
  soft.soft = 2.73949e34f;
  EXPECT_EQ(error_of([&] { world.create_body(soft); }),
            "create_body: soft: 2.73949e+34 exceeds the limit of 1000 m/N (strut/limits.hpp)");
  const BodyId a = world.create_body(test::box_def({0, 2}));
  const BodyId b = world.create_body(test::box_def({2, 2}));
  DistanceJointDef rod{.a = a, .b = b, .anchor_a = {0, 2}, .anchor_b = {2, 2}};
  rod.compliance = 1e35f;
  EXPECT_EQ(error_of([&] { world.create_joint(rod); }),
            "create_joint: compliance 1e+35 m/N exceeds the limit of 1000 m/N "
            "(strut/limits.hpp)");
  // At the limit, at the shortest step and the most substeps, everything stays finite.
  soft.soft = limits::kMaxCompliance;
  world.create_body(soft);
  rod.compliance = limits::kMaxCompliance;
  world.create_joint(rod);
  world.set_substeps(limits::kMaxSubsteps);
  for (int i = 0; i < 5; ++i) {
    world.step(limits::kMinDt);
    ASSERT_TRUE(finite_state(world)) << "step " << i;
  }
  world.set_substeps(8);
  for (int i = 0; i < 30; ++i) {
    world.step(1.0f / 60);
    ASSERT_TRUE(finite_state(world)) << "step " << i;
  }
}

// The scene reader applies the same limits while reading, naming the key.
TEST(JointMagnitude, SceneFilesNameTheKeyOutOfRange) {
  const auto joint = [](const std::string& members) {
    return R"({"version": 2, "bodies": [
      {"name": "a", "shape": "circle", "center": [0, 0], "radius": 0.5},
      {"name": "b", "shape": "circle", "center": [2, 0], "radius": 0.5}],
      "joints": [{"a": "a", "b": "b", "anchor": [1, 0], )" +
           members + "}]}";
  };
  EXPECT_EQ(
      error_of([&] {
        parse_scene(joint(R"("type": "revolute", "lower_angle": -4, "upper_angle": 1)"), "j.json");
      }),
      "j.json: joints[0].lower_angle: -4 is outside [-3.1415927, 3.1415927] (strut/limits.hpp)");
  EXPECT_EQ(error_of([&] {
              parse_scene(joint(R"("type": "revolute", "motor_speed": 1.1e22,
                                  "max_motor_torque": 5)"),
                          "j.json");
            }),
            "j.json: joints[0].motor_speed: 1.1e+22 is outside [-10000, 10000] (strut/limits.hpp)");
  EXPECT_EQ(error_of([&] {
              parse_scene(joint(R"("type": "prismatic", "axis": [1, 0], "motor_speed": 1,
                                  "max_motor_force": 1e31)"),
                          "j.json");
            }),
            "j.json: joints[0].max_motor_force: 1e+31 is outside [0, 1e+30] (strut/limits.hpp)");
  EXPECT_EQ(error_of([&] {
              parse_scene(joint(R"("type": "prismatic", "axis": [1, 0], "lower": -2e7,
                                  "upper": 1)"),
                          "j.json");
            }),
            "j.json: joints[0].lower: -20000000.0 is outside [-4000, 4000] (strut/limits.hpp)");
}

}  // namespace
}  // namespace strut
