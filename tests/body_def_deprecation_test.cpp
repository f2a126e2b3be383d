// BodyDef's deprecated body-level single shape (shape, material, category, mask, group, sensor;
// strut/body.hpp) keeps working for one release: a body made that way is the same body as the
// one-item `shapes` it describes, and bad input gets the messages it always got. This file
// sets the deprecated fields on purpose, so it silences their warning (locally, below).
#include <gtest/gtest.h>

#include <string>

#include "strut/world.hpp"

namespace strut {
namespace {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

// The old way: the shape and its dressing on the body.
BodyDef old_way(const Shape& shape, const Material& m, ShapeFilter f, bool sensor, Vec2 center) {
  BodyDef d;
  d.shape = shape;
  d.material = m;
  d.category = f.category, d.mask = f.mask, d.group = f.group;
  d.sensor = sensor;
  d.center = center;
  return d;
}

// A body given `shapes` leaves the deprecated fields at their defaults; any of them set is
// refused, naming `shapes`.
TEST(BodyDefDeprecation, BodyLevelFieldsStayDefaultWithShapes) {
  BodyDef body;
  body.shapes = {ShapeDef{.shape = BoxShape{{0.5f, 0.5f}}}};
  EXPECT_NO_THROW(validate_body_def(body));
  for (int field = 0; field < 6; ++field) {
    BodyDef b = body;
    if (field == 0) b.shape = CircleShape{};
    if (field == 1) b.material.density = 2;
    if (field == 2) b.category = 2;
    if (field == 3) b.mask = 1;
    if (field == 4) b.group = 1;
    if (field == 5) b.sensor = true;
    try {
      validate_body_def(b);
      ADD_FAILURE() << field << ": accepted";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("shapes: ", 0), 0u) << field << ": " << e.what();
    }
  }
}

#pragma GCC diagnostic pop

// The new way: the same shape as shapes[0].
BodyDef new_way(const Shape& shape, const Material& m, ShapeFilter f, bool sensor, Vec2 center) {
  BodyDef d;
  d.shapes = {ShapeDef{.shape = shape, .material = m, .filter = f, .sensor = sensor}};
  d.center = center;
  return d;
}

using Maker = BodyDef (*)(const Shape&, const Material&, ShapeFilter, bool, Vec2);

// A ground, a pile of boxes, circles and a polygon with their own materials and filters, a
// sensor, stepped: its state hash covers every body's pose and velocity bit for bit.
std::uint64_t pile_hash(Maker make) {
  World world(WorldConfig{.gravity = {0, -10}, .substeps = 4});
  BodyDef ground = make(BoxShape{{20, 1}}, Material{.friction = 0.7f}, {}, false, {0, -1});
  ground.is_static = true;
  world.create_body(ground);
  const Material bouncy{.density = 2, .friction = 0.3f, .restitution = 0.4f};
  for (int i = 0; i < 12; ++i) {
    const Vec2 at{-3.0f + 1.1f * float(i % 6), 0.6f + 1.2f * float(i / 6)};
    const Shape shape = i % 3 == 0 ? Shape{CircleShape{0.5f}}
                        : i % 3 == 1
                            ? Shape{BoxShape{{0.5f, 0.4f}}}
                            : Shape{PolygonShape{{{-0.5f, -0.4f}, {0.5f, -0.4f}, {0, 0.5f}}}};
    const ShapeFilter filter{.category = 1u << (i % 2), .mask = 0xFFFFFFFFu, .group = 0};
    world.create_body(make(shape, i % 2 ? bouncy : Material{}, filter, false, at));
  }
  world.create_body(make(CircleShape{1.0f}, Material{}, {}, true, {0, 1}));  // a sensor
  for (int s = 0; s < 120; ++s) world.step(1.0f / 60.0f);
  return world.state_hash();
}

TEST(BodyDefDeprecation, OldAndNewWaysGiveBitIdenticalWorlds) {
  EXPECT_EQ(pile_hash(old_way), pile_hash(new_way));
}

TEST(BodyDefDeprecation, OldWayBodyReadsBackWithShapes) {
  World world;
  const Material m{.density = 3, .friction = 0.2f};
  const BodyId id = world.create_body(old_way(CircleShape{0.5f}, m, {2, 5, -1}, false, {1, 2}));
  const BodyDef d = world.definition(id);
  ASSERT_EQ(d.shapes.size(), 1u);
  EXPECT_EQ(d.shapes[0].material, m);
  EXPECT_EQ(d.shapes[0].filter.category, 2u);
  EXPECT_EQ(d.shapes[0].filter.mask, 5u);
  EXPECT_EQ(d.shapes[0].filter.group, -1);
  // Recreated from its definition the new way, it is the same body.
  World twin;
  twin.create_body(d);
  EXPECT_EQ(world.state_hash(), twin.state_hash());
}

std::string error_of(const BodyDef& d) {
  World world;
  try {
    world.create_body(d);
  } catch (const Error& e) {
    EXPECT_EQ(world.body_count(), 0u);  // a refused call leaves the world unchanged
    return e.what();
  }
  return "(accepted)";
}

// Bad input made the old way gets exactly the message it got before the deprecation (the
// messages below are what main gave for the same old-way input); the same input made the new way
// gets the message main gives for `shapes` input: a shape's own finding named by its place in
// `shapes`, a mass finding on the shapes together.
TEST(BodyDefDeprecation, BadInputGetsTheSameMessagesEitherWay) {
  struct Case {
    Shape shape;
    Material material;
    std::string old_message, new_message;
  };
  const std::string mass_limits = "is outside [1e-09, 1e+15] kg (strut/limits.hpp)";
  const Case cases[] = {
      {BoxShape{{0.5f, 0.5f}}, Material{.density = 0},
       "create_body: material.density: must be positive on a dynamic body, got 0",
       "create_body: shapes: mass 0 kg (the shapes' density x area, summed) " + mass_limits},
      {PolygonShape{{{0, 0}, {1, 0}, {0.2f, 0.2f}, {0, 1}}}, Material{},
       "create_body: vertices: polygon is not convex at vertex 2",
       "create_body: shapes[0].shape.vertices: polygon is not convex at vertex 2"},
      {SegmentShape{{0, 0}, {1, 0}}, Material{},
       "create_body: shape: a segment has no area, so no mass: it needs a static or kinematic "
       "body",
       "create_body: shapes[0].shape: a segment has no area, so no mass: it needs a static or "
       "kinematic body"},
      {CircleShape{-1.0f}, Material{},
       "create_body: radius: -1 m is outside [0.001, 100000] m (strut/limits.hpp)",
       "create_body: shapes[0].shape.radius: -1 m is outside [0.001, 100000] m "
       "(strut/limits.hpp)"},
      {BoxShape{{0.5f, 0.5f}}, Material{.friction = -1},
       "create_body: material.friction: -1 is out of range [0, 1000]",
       "create_body: shapes[0].material.friction: -1 is out of range [0, 1000]"},
      {BoxShape{{0.5f, 0.5f}}, Material{.density = 1e-40f},
       "create_body: half_extents: mass 9.99995e-41 kg (density x area) " + mass_limits,
       "create_body: shapes: mass 9.99995e-41 kg (the shapes' density x area, summed) " +
           mass_limits},
      {CapsuleShape{.half_length = 1e4f, .radius = 1e4f}, Material{.density = 1e9f},
       "create_body: half_length: mass 7.1415926e+17 kg (density x area) " + mass_limits,
       "create_body: shapes: mass 7.1415926e+17 kg (the shapes' density x area, summed) " +
           mass_limits},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(error_of(old_way(c.shape, c.material, {}, false, {})), c.old_message);
    EXPECT_EQ(error_of(new_way(c.shape, c.material, {}, false, {})), c.new_message);
  }
}

}  // namespace
}  // namespace strut
