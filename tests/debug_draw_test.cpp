// World::draw reports each shape where the body is, joints at their anchors, contacts where
// bodies touch, boxes around the current shapes, body states, and honours flags and the view.
#include "strut/debug_draw.hpp"

#include <cmath>
#include <vector>

#include "test_util.hpp"

namespace strut {
namespace {

using test::box_def;
using test::ground_def;

struct Polygon {
  DrawBody body;
  std::vector<Vec2> vertices;
};
struct Circle {
  DrawBody body;
  Vec2 center;
  float radius;
};

// Keeps everything it is told.
struct Collect : DebugDraw {
  std::vector<Polygon> polygons;
  std::vector<Circle> circles;
  std::vector<DrawJoint> joints;
  std::vector<DrawContact> contacts;
  std::vector<std::pair<DrawBody, Aabb>> boxes;
  void draw_polygon(const DrawBody& b, std::span<const Vec2> v, float) override {
    polygons.push_back({b, {v.begin(), v.end()}});
  }
  void draw_circle(const DrawBody& b, Vec2 c, float r) override { circles.push_back({b, c, r}); }
  void draw_joint(const DrawJoint& j) override { joints.push_back(j); }
  void draw_contact(const DrawContact& c) override { contacts.push_back(c); }
  void draw_aabb(const DrawBody& b, Aabb box) override { boxes.push_back({b, box}); }
};

const Polygon* polygon_of(const Collect& c, BodyId id) {
  for (const Polygon& p : c.polygons)
    if (p.body.id == id) return &p;
  return nullptr;
}

TEST(DebugDraw, ShapesAreWhereTheBodiesAreWithTheirStates) {
  World world;
  const BodyId ground = world.create_body(ground_def());
  BodyDef crate = box_def({2, 5}, {1.0f, 0.5f});
  crate.angle = 0.3f;
  const BodyId box = world.create_body(crate);
  BodyDef ball;
  ball.shapes = {ShapeDef{CircleShape{0.25f}}};
  ball.center = {-3, 40};
  const BodyId circle = world.create_body(ball);
  BodyDef spinner = box_def({8, 3});
  spinner.is_kinematic = true;
  spinner.angular_velocity = 1;
  const BodyId kinematic = world.create_body(spinner);

  Collect c;
  world.draw(c);
  ASSERT_EQ(c.polygons.size(), 3u);
  ASSERT_EQ(c.circles.size(), 1u);
  EXPECT_EQ(polygon_of(c, ground)->body.state, BodyDrawState::Static);
  EXPECT_EQ(polygon_of(c, kinematic)->body.state, BodyDrawState::Kinematic);
  // Static and kinematic bodies join no island.
  EXPECT_TRUE(is_null(polygon_of(c, ground)->body.island));
  EXPECT_TRUE(is_null(polygon_of(c, kinematic)->body.island));
  const Polygon& p = *polygon_of(c, box);
  EXPECT_EQ(p.body.state, BodyDrawState::Awake);
  // The corners are the body's pose applied to the half extents, counter-clockwise. Tolerance:
  // a few float roundings of coordinates of size 5.
  const Rot q = make_rot(0.3f);
  const Vec2 corners[4] = {{-1, -0.5f}, {1, -0.5f}, {1, 0.5f}, {-1, 0.5f}};
  ASSERT_EQ(p.vertices.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    const Vec2 want = Vec2{2, 5} + rotate(q, corners[i]);
    EXPECT_NEAR(p.vertices[i].x, want.x, 2e-6f) << i;
    EXPECT_NEAR(p.vertices[i].y, want.y, 2e-6f) << i;
  }
  EXPECT_NEAR(p.body.transform.angle, 0.3f, 1e-6f);
  EXPECT_EQ(c.circles[0].body.id, circle);
  EXPECT_EQ(c.circles[0].center, (Vec2{-3, 40}));
  EXPECT_EQ(c.circles[0].radius, 0.25f);

  // A falling body reports the velocity of free fall: g t after one second, to the float
  // rounding of 60 steps (1e-4 m/s).
  for (int i = 0; i < 60; ++i) world.step(1.0f / 60);
  Collect later;
  world.draw(later);
  EXPECT_NEAR(later.circles[0].body.velocity.y, -10.0f, 1e-3f);
  EXPECT_NEAR(polygon_of(later, kinematic)->body.transform.angle, 1.0f, 1e-4f);  // 1 rad/s, 1 s
}

TEST(DebugDraw, RestingBodyFallsAsleepAndContactsPushUpFromTheGround) {
  World world;
  const BodyId ground = world.create_body(ground_def());
  const BodyId box = world.create_body(box_def({0, 0.5f}));
  world.step(1.0f / 60);
  Collect c;
  c.flags = kDrawShapes | kDrawContacts;
  world.draw(c);
  ASSERT_EQ(c.contacts.size(), world.contact_count());
  ASSERT_EQ(c.contacts.size(), 2u);  // the two bottom corners
  for (const DrawContact& k : c.contacts) {
    EXPECT_EQ(k.a, ground);
    EXPECT_EQ(k.b, box);
    // The ground's normal is straight up and the points lie on its top face: within the
    // contact slop (5 mm) of y = 0 after one step of settling.
    EXPECT_NEAR(k.normal.x, 0.0f, 1e-6f);
    EXPECT_NEAR(k.normal.y, 1.0f, 1e-6f);
    EXPECT_NEAR(k.point.y, 0.0f, 5e-3f);
    EXPECT_NEAR(std::fabs(k.point.x), 0.5f, 1e-3f);
    EXPECT_NEAR(k.separation, 0.0f, 5e-3f);
  }
  // Still for longer than the sleep time (0.5 s): asleep.
  for (int i = 0; i < 120; ++i) world.step(1.0f / 60);
  ASSERT_TRUE(world.is_sleeping(box));
  Collect asleep;
  world.draw(asleep);
  EXPECT_EQ(polygon_of(asleep, box)->body.state, BodyDrawState::Asleep);
}

TEST(DebugDraw, JointsAreDrawnBetweenTheirAnchors) {
  World world(WorldConfig{.gravity = {0, 0}});
  BodyDef pivot;
  pivot.shapes = {ShapeDef{CircleShape{0.1f}}};
  pivot.is_static = true;
  const BodyId a = world.create_body(pivot);
  BodyDef bob;
  bob.shapes = {ShapeDef{CircleShape{0.2f}}};
  bob.center = {3, 0};
  bob.velocity = {0, 2};
  const BodyId b = world.create_body(bob);
  DistanceJointDef j;
  j.a = a, j.b = b, j.anchor_a = {0, 0}, j.anchor_b = {3, 0};
  const JointId joint = world.create_joint(j);
  for (int i = 0; i < 30; ++i) world.step(1.0f / 60);
  Collect c;
  world.draw(c);
  ASSERT_EQ(c.joints.size(), 1u);
  const DrawJoint& d = c.joints[0];
  EXPECT_EQ(d.id, joint);
  EXPECT_EQ(d.type, JointType::Distance);
  EXPECT_EQ(d.a, a);
  EXPECT_EQ(d.b, b);
  // The bob circles the pivot: its anchor is its centre, the pivot's is the origin, and they
  // are the joint's length apart (the solver holds it to 1e-4 of 3 m here).
  EXPECT_EQ(d.anchor_a, (Vec2{0, 0}));
  EXPECT_NEAR(d.anchor_b.x, d.center_b.x, 1e-6f);
  EXPECT_NEAR(d.anchor_b.y, d.center_b.y, 1e-6f);
  EXPECT_GT(d.anchor_b.y, 0.5f);  // it has swung up
  EXPECT_NEAR(length(d.anchor_b - d.anchor_a), world.joint_length(joint), 1e-6f);
  EXPECT_NEAR(length(d.anchor_b - d.anchor_a), 3.0f, 3e-4f);
}

TEST(DebugDraw, BoxesIslandsFlagsAndView) {
  World world(WorldConfig{.gravity = {0, 0}});
  BodyDef tilted = box_def({0, 0});
  tilted.angle = float(M_PI / 4);
  const BodyId diamond = world.create_body(tilted);
  const BodyId touching = world.create_body(box_def({0, 1.2f}));
  const BodyId far = world.create_body(box_def({40, 0}));
  world.step(1.0f / 60);

  Collect c;
  c.flags = kDrawAabbs;
  world.draw(c);
  EXPECT_TRUE(c.polygons.empty());  // shapes were not asked for
  ASSERT_EQ(c.boxes.size(), 3u);
  // A unit box turned 45 degrees spans sqrt(2)/2 either side (float rounding, 1e-6).
  for (const auto& [body, box] : c.boxes) {
    if (body.id != diamond) continue;
    EXPECT_NEAR(box.upper.x - box.lower.x, std::sqrt(2.0f), 1e-5f);
    EXPECT_NEAR(box.upper.y - box.lower.y, std::sqrt(2.0f), 1e-5f);
  }
  // The diamond's tip (y = 0.707) overlaps the box above it (bottom at 0.7): one island; the
  // far box is alone.
  Collect all;
  world.draw(all);
  const BodyId island_of_diamond = polygon_of(all, diamond)->body.island;
  EXPECT_FALSE(is_null(island_of_diamond));
  EXPECT_EQ(polygon_of(all, touching)->body.island, island_of_diamond);
  EXPECT_NE(polygon_of(all, far)->body.island, island_of_diamond);

  Collect culled;
  culled.cull_to_view = true;
  culled.view = {{30, -5}, {50, 5}};
  world.draw(culled);
  ASSERT_EQ(culled.polygons.size(), 1u);
  EXPECT_EQ(culled.polygons[0].body.id, far);
}

}  // namespace
}  // namespace strut
