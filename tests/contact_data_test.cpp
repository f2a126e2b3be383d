// World::body_contacts and shape_contacts (the touching pairs with their impulses) held to the
// physics: what a resting body presses on the ground, friction bounded by the normal impulse
// and equal to the push it resists, and World::sensor_overlaps (the shapes inside a sensor).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "recolour.hpp"
#include "solver/world_state.hpp"
#include "test_util.hpp"

namespace strut {
namespace {

using test::kDt;
using test::kG;

// The normal and tangent impulses of every point of `contacts`, summed (N s).
struct Totals {
  float normal = 0, tangent = 0;
  int points = 0;
};
Totals totals(const std::vector<ContactData>& contacts) {
  Totals t;
  for (const ContactData& c : contacts)
    for (int i = 0; i < c.point_count; ++i) {
      t.normal += c.points[i].normal_impulse;
      t.tangent += c.points[i].tangent_impulse;
      ++t.points;
    }
  return t;
}

// A box of 1 kg (1 x 1 m, density 1) created resting on a static ground, kept awake.
struct RestingBox {
  World world;
  BodyId ground, box;
  explicit RestingBox(Material material = {}) {
    BodyDef g = test::ground_def();
    g.shapes[0].material = material;
    ground = world.create_body(g);
    BodyDef b = test::box_def({0.0f, 0.5f});
    b.shapes[0].material = material;
    b.enable_sleep = false;
    box = world.create_body(b);
  }
};

// A box at rest on the ground presses m g dt a step: the normal impulses of its pair, summed over
// its points, are the step's impulse. Within 1 % from the second step (the first starts from no
// warm start and settles the box onto the slop), on every step up to 300.
TEST(ContactData, RestingBoxPressesItsWeightTimesTheStep) {
  RestingBox s;
  const float m = s.world.mass(s.box);
  ASSERT_NEAR(m, 1.0f, 1e-5f);
  for (int step = 1; step <= 300; ++step) {
    s.world.step(kDt);
    if (step < 2) continue;
    const std::vector<ContactData> contacts = s.world.body_contacts(s.box);
    ASSERT_EQ(contacts.size(), 1u) << "step " << step;
    const ContactData& c = contacts[0];
    // The ground was created first: it is a, and the normal points up from it to the box.
    EXPECT_EQ(c.a, s.ground);
    EXPECT_EQ(c.b, s.box);
    EXPECT_EQ(c.shape_a, s.world.shapes(s.ground)[0]);
    EXPECT_EQ(c.shape_b, s.world.shapes(s.box)[0]);
    EXPECT_NEAR(c.normal.x, 0.0f, 1e-5f);
    EXPECT_NEAR(c.normal.y, 1.0f, 1e-5f);
    ASSERT_EQ(c.point_count, 2);
    for (int i = 0; i < 2; ++i) {
      EXPECT_NEAR(c.points[i].point.y, 0.0f, 0.01f);  // on the box's bottom, within the slop
      EXPECT_NEAR(std::fabs(c.points[i].point.x), 0.5f, 1e-3f);
      EXPECT_LT(std::fabs(c.points[i].separation), 0.01f);
      EXPECT_GT(c.points[i].normal_impulse, 0.0f);
    }
    const Totals t = totals(contacts);
    EXPECT_NEAR(t.normal, m * kG * kDt, 0.01f * m * kG * kDt) << "step " << step;
    EXPECT_NEAR(t.tangent, 0.0f, 1e-3f * m * kG * kDt);
  }
  // The ground sees the same pair; so does each of the two shapes.
  const std::vector<ContactData> from_ground = s.world.body_contacts(s.ground);
  ASSERT_EQ(from_ground.size(), 1u);
  EXPECT_EQ(from_ground[0].b, s.box);
  EXPECT_EQ(totals(from_ground).normal, totals(s.world.body_contacts(s.box)).normal);
  EXPECT_EQ(s.world.shape_contacts(s.world.shapes(s.box)[0]).size(), 1u);
  EXPECT_EQ(s.world.shape_contacts(s.world.shapes(s.ground)[0]).size(), 1u);
}

// A column of boxes: the ground carries all of them (sum of m g dt), each box the ones above it
// plus itself, within 1 % after 120 steps of settling.
TEST(ContactData, ColumnLoadsAddUpDownTheStack) {
  World world;
  const BodyId ground = world.create_body(test::ground_def());
  std::vector<BodyId> boxes;
  for (int i = 0; i < 5; ++i) {
    BodyDef b = test::box_def({0.0f, 0.5f + float(i)});
    b.enable_sleep = false;
    boxes.push_back(world.create_body(b));
  }
  for (int i = 0; i < 120; ++i) world.step(kDt);
  const float per_box = world.mass(boxes[0]) * kG * kDt;
  EXPECT_NEAR(totals(world.body_contacts(ground)).normal, 5 * per_box, 0.01f * 5 * per_box);
  // Box i's pair with the one below it (or the ground) carries 5 - i boxes.
  for (int i = 0; i < 5; ++i) {
    const BodyId below = i == 0 ? ground : boxes[std::size_t(i) - 1];
    float carried = 0;
    for (const ContactData& c : world.body_contacts(boxes[std::size_t(i)]))
      if (c.a == below || c.b == below) carried += totals({c}).normal;
    EXPECT_NEAR(carried, float(5 - i) * per_box, 0.01f * float(5 - i) * per_box) << "box " << i;
  }
}

// A box pushed sideways by less than friction can hold stays put: its friction impulse equals
// the push over the step, against it (within 1 %), and is within friction x normal at each
// point. Pushed harder, it slides, and friction is at most the (dynamic) bound, and near it.
TEST(ContactData, FrictionImpulseIsBoundedByFrictionTimesNormal) {
  const float mu = 0.5f;
  RestingBox s(Material{.density = 1.0f, .friction = mu});
  const float m = s.world.mass(s.box);
  for (int i = 0; i < 10; ++i) s.world.step(kDt);
  const float held = 0.3f * m * kG;  // below mu m g = 5 N
  for (int i = 0; i < 60; ++i) {
    s.world.apply_force(s.box, {held, 0.0f});
    s.world.step(kDt);
  }
  EXPECT_LT(std::fabs(s.world.linear_velocity(s.box).x), 1e-3f);
  const std::vector<ContactData> contacts = s.world.body_contacts(s.box);
  ASSERT_EQ(contacts.size(), 1u);
  // Tangent (n.y, -n.x) = (1, 0) for the upward normal: friction on the box points -x.
  EXPECT_NEAR(totals(contacts).tangent, -held * kDt, 0.01f * held * kDt);
  for (int i = 0; i < contacts[0].point_count; ++i) {
    const ContactPointData& p = contacts[0].points[i];
    EXPECT_LE(std::fabs(p.tangent_impulse), mu * p.normal_impulse * (1 + 1e-5f));
  }
  const float pushed = 2.0f * m * kG;  // four times what friction holds
  for (int step = 0; step < 60; ++step) {
    s.world.apply_force(s.box, {pushed, 0.0f});
    s.world.step(kDt);
    const std::vector<ContactData> now = s.world.body_contacts(s.box);
    ASSERT_EQ(now.size(), 1u);
    for (int i = 0; i < now[0].point_count; ++i) {
      const ContactPointData& p = now[0].points[i];
      EXPECT_LE(std::fabs(p.tangent_impulse), mu * p.normal_impulse * (1 + 1e-5f) + 1e-7f);
    }
    if (step >= 10) {
      const Totals t = totals(now);
      EXPECT_LT(t.tangent, 0.0f);
      EXPECT_NEAR(-t.tangent, mu * t.normal, 0.02f * mu * t.normal) << "step " << step;
    }
  }
  EXPECT_GT(s.world.linear_velocity(s.box).x, 1.0f);
}

// A body touching nothing, a static body with nothing on it, a world never stepped: no contacts.
TEST(ContactData, BodiesTouchingNothingHaveNone) {
  World world;
  const BodyId ground = world.create_body(test::ground_def());
  const BodyId flying = world.create_body(test::box_def({0.0f, 20.0f}));
  EXPECT_TRUE(world.body_contacts(flying).empty());
  for (int i = 0; i < 10; ++i) world.step(kDt);
  EXPECT_TRUE(world.body_contacts(flying).empty());
  EXPECT_TRUE(world.body_contacts(ground).empty());
  EXPECT_TRUE(world.shape_contacts(world.shapes(flying)[0]).empty());
}

// Stale and null ids throw strut::Error naming the call; a destroyed partner's pair is dropped.
TEST(ContactData, StaleIdsThrowAndDestroyedPartnersAreDropped) {
  RestingBox s;
  BodyDef other = test::box_def({3.0f, 0.5f});
  other.enable_sleep = false;
  const BodyId second = s.world.create_body(other);
  for (int i = 0; i < 10; ++i) s.world.step(kDt);
  ASSERT_EQ(s.world.body_contacts(s.ground).size(), 2u);
  const ShapeId shape = s.world.shapes(second)[0];
  s.world.destroy_body(second);
  const std::vector<ContactData> left = s.world.body_contacts(s.ground);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].b, s.box);
  EXPECT_NE(test::error_of([&] { (void)s.world.body_contacts(second); }).find("body_contacts"),
            std::string::npos);
  EXPECT_NE(test::error_of([&] { (void)s.world.shape_contacts(shape); }).find("shape_contacts"),
            std::string::npos);
  EXPECT_NE(test::error_of([&] { (void)s.world.body_contacts(BodyId{}); }).find("null"),
            std::string::npos);
  // A shape removed from a body that keeps another: its pairs go at once, the body's stay.
  const ShapeId extra =
      s.world.add_shape(s.box, ShapeDef{.shape = BoxShape{{0.5f, 0.5f}}, .offset = {0.0f, 1.0f}});
  for (int i = 0; i < 10; ++i) s.world.step(kDt);
  ASSERT_EQ(s.world.body_contacts(s.box).size(), 1u);
  s.world.remove_shape(extra);
  EXPECT_TRUE(s.world.body_contacts(s.box).empty());  // laid out again: its pairs start afresh
  EXPECT_NE(test::error_of([&] { (void)s.world.shape_contacts(extra); }).find("shape_contacts"),
            std::string::npos);
  s.world.step(kDt);
  EXPECT_EQ(s.world.body_contacts(s.box).size(), 1u);
}

// Sleeping islands keep no contacts in strut: a box asleep on the ground reports none (nor does
// the ground for it) until it wakes and a step finds its pair again.
TEST(ContactData, SleepingBodiesReportNoContacts) {
  World world;
  const BodyId ground = world.create_body(test::ground_def());
  const BodyId box = world.create_body(test::box_def({0.0f, 0.5f}));
  int steps = 0;
  while (!world.is_sleeping(box) && steps < 600) world.step(kDt), ++steps;
  ASSERT_TRUE(world.is_sleeping(box));
  EXPECT_TRUE(world.body_contacts(box).empty());
  EXPECT_TRUE(world.body_contacts(ground).empty());
  world.wake(box);
  world.step(kDt);
  ASSERT_EQ(world.body_contacts(box).size(), 1u);
  EXPECT_GT(totals(world.body_contacts(box)).normal, 0.0f);
}

// A soft box (its contacts solved point by point, their impulses kept in the points) presses its
// weight too: within 2 % after 120 steps (its struts still quiver a little).
TEST(ContactData, SoftBoxPressesItsWeightToo) {
  World world;
  world.create_body(test::ground_def());
  BodyDef b = test::box_def({0.0f, 0.5f});
  b.soft = 1e-4f;
  b.enable_sleep = false;
  const BodyId box = world.create_body(b);
  for (int i = 0; i < 120; ++i) world.step(kDt);
  const float weight = world.mass(box) * kG * kDt;
  float sum = 0;
  for (int i = 0; i < 60; ++i) {
    world.step(kDt);
    sum += totals(world.body_contacts(box)).normal;
  }
  EXPECT_NEAR(sum / 60, weight, 0.02f * weight);
}

// The same world at 1 and 2 threads reports the same contacts, bit for bit.
TEST(ContactData, SameBitsAtAnyThreadCount) {
  auto run = [](int threads) {
    World world({.threads = threads});
    world.create_body(test::ground_def());
    std::vector<BodyId> boxes;
    for (int i = 0; i < 30; ++i) {
      BodyDef d = test::box_def({float(i % 6) * 1.1f - 3.0f, 0.5f + float(i / 6) * 1.05f});
      d.angle = 0.01f * float(i);
      boxes.push_back(world.create_body(d));
    }
    for (int i = 0; i < 40; ++i) world.step(kDt);
    std::vector<std::uint32_t> out;
    for (const BodyId b : boxes)
      for (const ContactData& c : world.body_contacts(b))
        for (int k = 0; k < c.point_count; ++k)
          out.insert(out.end(), {test::bits(c.points[k].normal_impulse),
                                 test::bits(c.points[k].tangent_impulse),
                                 test::bits(c.points[k].separation), test::bits(c.normal.x)});
    return out;
  };
  const std::vector<std::uint32_t> one = run(1);
  EXPECT_FALSE(one.empty());
  EXPECT_EQ(one, run(2));
}

// Contacts read through the wide lanes (a settled pair keeps its structure, so its impulses stay
// there) and through the points (every step colours and lays out afresh) agree.
TEST(ContactData, LanesAndPointsGiveTheSameImpulses) {
  int kept = 0;  // steps that kept the structure
  auto run = [&kept](bool keep) {
    World world;
    world.create_body(test::ground_def());
    BodyDef b = test::box_def({0.0f, 0.5f});
    b.enable_sleep = false;
    const BodyId box = world.create_body(b);
    kept = 0;
    for (int i = 0; i < 30; ++i) {
      if (!keep) test::recolour_next_step(world);
      world.step(kDt);
      kept += state_of(world).contacts.structure_kept;
    }
    return totals(world.body_contacts(box));
  };
  const Totals rebuilt = run(false);
  EXPECT_EQ(kept, 0);
  const Totals kept_totals = run(true);
  EXPECT_GT(kept, 20) << "a resting box keeps its structure";
  EXPECT_EQ(test::bits(kept_totals.normal), test::bits(rebuilt.normal));
  EXPECT_EQ(test::bits(kept_totals.tangent), test::bits(rebuilt.tangent));
}

// Circles held in place (no gravity) inside and outside a static sensor box: the sensor's
// overlaps are exactly the shapes inside, in the order of their ids; a destroyed visitor is gone
// at once; a shape that is not a sensor, or a stale id, throws.
TEST(SensorOverlaps, ListExactlyTheShapesInside) {
  World world({.gravity = {0.0f, 0.0f}});
  BodyDef zone = test::box_def({0.0f, 0.0f}, {2.0f, 2.0f});
  zone.is_static = true;
  zone.shapes[0].sensor = true;
  const BodyId zone_body = world.create_body(zone);
  const ShapeId sensor = world.shapes(zone_body)[0];
  auto ball = [&](Vec2 at) {
    BodyDef d;
    d.shapes = {ShapeDef{CircleShape{0.25f}}};
    d.center = at;
    return world.create_body(d);
  };
  const BodyId in1 = ball({-1.0f, 0.5f}), out = ball({5.0f, 0.0f}), in2 = ball({1.0f, -1.0f});
  const BodyId edge = ball({2.3f, 0.0f});              // 5 cm outside the edge
  EXPECT_TRUE(world.sensor_overlaps(sensor).empty());  // nothing before the first step
  world.step(kDt);
  const std::vector<ShapeId> inside = world.sensor_overlaps(sensor);
  EXPECT_EQ(inside, (std::vector<ShapeId>{world.shapes(in1)[0], world.shapes(in2)[0]}));
  (void)out, (void)edge;
  world.destroy_body(in1);
  EXPECT_EQ(world.sensor_overlaps(sensor), (std::vector<ShapeId>{world.shapes(in2)[0]}));
  EXPECT_NE(test::error_of([&] {
              (void)world.sensor_overlaps(world.shapes(in2)[0]);
            }).find("is not a sensor"),
            std::string::npos);
  const ShapeId gone = world.shapes(out)[0];
  world.destroy_body(out);
  EXPECT_NE(test::error_of([&] { (void)world.sensor_overlaps(gone); }).find("sensor_overlaps"),
            std::string::npos);
}

}  // namespace
}  // namespace strut
