// Scene format version 3, concave polygons: a `concave_polygon` (a body's one shape or an item of
// `shapes`) loads as decompose_polygon's pieces on one body, dressed as the shape; it is written
// back as a concave_polygon, from a loaded scene and from a captured world alike, and reads back
// bit for bit. The rejections are in scene_error_cases.hpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "strut/scene.hpp"
#include "strut/scenes.hpp"
#include "test_util.hpp"

namespace strut::scene_concave_test {
namespace {

using test::bits;

const std::vector<Vec2> kL = {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};

// An L as a dynamic body's one shape (its keys on the body, with a material and a filter), a
// compound with a box, a convex kite item turned and a notched item placed, filtered and a
// sensor, and a static ground whose outline is given clockwise, repeats a point and has one on a
// straight edge.
const char* kScene = R"({"format": "strut-scene", "version": 3,
  "materials": {"heavy": {"density": 3, "friction": 0.4}},
  "bodies": [
    {"name": "ground", "shape": "concave_polygon", "center": [0, 0], "static": true,
     "vertices": [[-6, 0], [-6, 1], [-1, 1], [0, 0.2], [1, 1], [6, 1], [6, 0], [6, 0], [0, 0]]},
    {"name": "l", "shape": "concave_polygon", "center": [-3, 3], "material": "heavy",
     "category": 2, "mask": 5, "vertices": [[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]]},
    {"name": "cart", "center": [3, 3], "shapes": [
      {"shape": "box", "half_extents": [0.5, 0.25]},
      {"shape": "concave_polygon", "offset": [0, 0.5], "angle": 0.25, "material": "wood",
       "tangent_speed": 1.5, "vertices": [[-1, 0], [0, -0.5], [1, 0], [0, 1]]},
      {"shape": "concave_polygon", "offset": [0.1, 1], "group": -3, "sensor": true,
       "vertices": [[-1, 0], [1, 0], [1, 1], [0, 0.3], [-1, 1]]}]}
  ]})";

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = 0; (at = text.find(what, at)) != std::string::npos; ++at) ++count;
  return count;
}

bool same_vertices(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (bits(a[i].x) != bits(b[i].x) || bits(a[i].y) != bits(b[i].y)) return false;
  return true;
}

// Every shape of every body, bit for bit: geometry, placement, material, filter, sensor, surface.
void expect_same_shapes(const Scene& a, const Scene& b) {
  ASSERT_EQ(a.bodies.size(), b.bodies.size());
  for (std::size_t i = 0; i < a.bodies.size(); ++i) {
    SCOPED_TRACE("body " + std::to_string(i));
    const BodyDef &x = a.bodies[i].def, &y = b.bodies[i].def;
    EXPECT_EQ(a.bodies[i].name, b.bodies[i].name);
    EXPECT_EQ(bits(x.center.x), bits(y.center.x));
    EXPECT_EQ(bits(x.center.y), bits(y.center.y));
    EXPECT_EQ(x.is_static, y.is_static);
    ASSERT_EQ(x.shapes.size(), y.shapes.size());
    for (std::size_t k = 0; k < x.shapes.size(); ++k) {
      const ShapeDef &s = x.shapes[k], &t = y.shapes[k];
      ASSERT_EQ(s.shape.index(), t.shape.index());
      if (const auto* p = std::get_if<PolygonShape>(&s.shape))
        EXPECT_TRUE(same_vertices(p->vertices, std::get<PolygonShape>(t.shape).vertices));
      EXPECT_EQ(bits(s.offset.x), bits(t.offset.x));
      EXPECT_EQ(bits(s.offset.y), bits(t.offset.y));
      EXPECT_EQ(bits(s.angle), bits(t.angle));
      EXPECT_EQ(bits(s.material.density), bits(t.material.density));
      EXPECT_EQ(bits(s.material.friction), bits(t.material.friction));
      EXPECT_EQ(s.filter.category, t.filter.category);
      EXPECT_EQ(s.filter.mask, t.filter.mask);
      EXPECT_EQ(s.filter.group, t.filter.group);
      EXPECT_EQ(s.sensor, t.sensor);
      EXPECT_EQ(bits(s.tangent_speed), bits(t.tangent_speed));
    }
  }
}

TEST(SceneConcave, LoadsAsThePiecesOfOneBody) {
  const Scene s = parse_scene(kScene, "concave.json");
  ASSERT_EQ(s.bodies.size(), 3u);
  // The L: decompose_polygon's pieces, each with the body's material and filter; the body's own
  // shape fields stay at their defaults, as for any compound body.
  const BodyDef& l = s.bodies[1].def;
  const std::vector<PolygonShape> pieces = decompose_polygon(kL);
  ASSERT_EQ(l.shapes.size(), pieces.size());
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const ShapeDef& piece = l.shapes[k];
    EXPECT_TRUE(same_vertices(std::get<PolygonShape>(piece.shape).vertices, pieces[k].vertices));
    EXPECT_EQ(piece.material.density, 3.0f);
    EXPECT_EQ(piece.material.friction, 0.4f);
    EXPECT_EQ(piece.filter.category, 2u);
    EXPECT_EQ(piece.filter.mask, 5u);
  }
  // The cart: its box, then each concave item's pieces dressed and placed as the item.
  const BodyDef& cart = s.bodies[2].def;
  const std::vector<Vec2> kite = {{-1, 0}, {0, -0.5f}, {1, 0}, {0, 1}};  // convex: one piece
  const std::vector<Vec2> notch = {{-1, 0}, {1, 0}, {1, 1}, {0, 0.3f}, {-1, 1}};
  const std::size_t notch_pieces = decompose_polygon(notch).size();
  ASSERT_GE(notch_pieces, 2u);  // one notch
  ASSERT_EQ(cart.shapes.size(), 2 + notch_pieces);
  EXPECT_TRUE(std::holds_alternative<BoxShape>(cart.shapes[0].shape));
  EXPECT_TRUE(same_vertices(std::get<PolygonShape>(cart.shapes[1].shape).vertices,
                            decompose_polygon(kite)[0].vertices));
  EXPECT_EQ(cart.shapes[1].angle, 0.25f);
  EXPECT_EQ(cart.shapes[1].tangent_speed, 1.5f);
  EXPECT_EQ(cart.shapes[1].material.density, material_named("wood").density);
  for (std::size_t k = 2; k < cart.shapes.size(); ++k) {
    EXPECT_EQ(cart.shapes[k].offset.x, 0.1f);
    EXPECT_EQ(cart.shapes[k].offset.y, 1.0f);
    EXPECT_EQ(cart.shapes[k].filter.group, -3);
    EXPECT_TRUE(cart.shapes[k].sensor);
  }
  // The ground's messy clockwise outline loads as the clean one: the same pieces.
  const std::vector<Vec2> ground = {{-6, 0}, {6, 0}, {6, 1}, {1, 1}, {0, 0.2f}, {-1, 1}, {-6, 1}};
  const std::vector<PolygonShape> clean = decompose_polygon(ground);
  ASSERT_EQ(s.bodies[0].def.shapes.size(), clean.size());
  for (std::size_t k = 0; k < clean.size(); ++k)
    EXPECT_TRUE(same_vertices(std::get<PolygonShape>(s.bodies[0].def.shapes[k].shape).vertices,
                              clean[k].vertices));
  // Built, the L weighs density x the outline's area (3 m^2), to float rounding.
  SceneInstance inst = build_scene(s, 1);
  EXPECT_NEAR(inst.world.mass(inst.bodies[1]), 9.0f, 1e-5f);
}

TEST(SceneConcave, WritesConcavePolygonsBackAndReadsThemBitForBit) {
  const Scene s = parse_scene(kScene, "concave.json");
  const std::string text = scene_to_json(s);
  EXPECT_NE(text.find("\"version\": 3"), std::string::npos) << text;
  // The L on the body itself, the cart's notched item and the ground: three concave polygons.
  // The kite is convex, one piece, which is written as the polygon it loaded as (and loads as
  // the same piece).
  EXPECT_EQ(count_of(text, "\"concave_polygon\""), 3u) << text;
  EXPECT_NE(
      text.find("{\"shape\": \"polygon\", \"vertices\": [[0, -0.5], [1, 0], [0, 1], [-1, 0]], "
                "\"offset\": [0, 0.5], \"angle\": 0.25"),
      std::string::npos)
      << text;
  // The ground is written as its clean outline, counter-clockwise from its lowest point.
  EXPECT_NE(
      text.find("\"vertices\": [[-6, 0], [6, 0], [6, 1], [1, 1], [0, 0.2], [-1, 1], [-6, 1]]"),
      std::string::npos)
      << text;
  const Scene back = parse_scene(text, "saved.json");
  expect_same_shapes(s, back);
  EXPECT_EQ(scene_to_json(back), text);
}

TEST(SceneConcave, CapturedWorldWritesItsConcaveBodiesAsConcavePolygons) {
  const Scene s = parse_scene(kScene, "concave.json");
  SceneInstance inst = build_scene(s, 1);
  for (int i = 0; i < 30; ++i) inst.step();
  const Scene captured = capture_scene(inst);
  const std::string text = scene_to_json(captured);
  EXPECT_NE(text.find("\"version\": 3"), std::string::npos);
  EXPECT_EQ(count_of(text, "\"concave_polygon\""), 3u) << text;
  const Scene back = parse_scene(text, "saved.json");
  expect_same_shapes(captured, back);
  // The reloaded world continues as the captured one does from its state: same shapes, so the
  // same mass properties.
  SceneInstance again = build_scene(back, 1);
  for (std::size_t i = 0; i < inst.bodies.size(); ++i)
    EXPECT_EQ(bits(again.world.mass(again.bodies[i])), bits(inst.world.mass(inst.bodies[i])));
}

// Polygons that merely sit side by side are written as they are: only decompose_polygon's own
// pieces make a concave polygon, and the built-in scenes stay in the versions they were.
// Pieces are one concave_polygon only when the item would give each of them all it has: a piece
// with a mixing rule of its own stays a polygon, and the contact callbacks' flags (keys of an
// item of `shapes` only) keep the outline an item.
TEST(SceneConcave, PiecesDressedApartOrFlaggedAreWrittenAsTheyAre) {
  const Scene flagged = parse_scene(R"({"version": 3, "bodies": [{"center": [0, 2], "shapes": [
    {"shape": "concave_polygon", "pre_solve": true, "custom_filter": true,
     "vertices": [[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]]}]}]})",
                                    "flagged.json");
  ASSERT_EQ(flagged.bodies[0].def.shapes.size(), 2u);
  const Scene back = parse_scene(scene_to_json(flagged), "back.json");
  ASSERT_EQ(back.bodies[0].def.shapes.size(), 2u);
  for (const ShapeDef& piece : back.bodies[0].def.shapes) {
    EXPECT_TRUE(piece.pre_solve);
    EXPECT_TRUE(piece.custom_filter);
  }

  Scene ruled = flagged;
  for (ShapeDef& piece : ruled.bodies[0].def.shapes) piece.pre_solve = piece.custom_filter = false;
  ruled.bodies[0].def.shapes[1].material.friction_mix = MixRule::Min;
  const std::string text = scene_to_json(ruled);
  EXPECT_EQ(text.find("concave_polygon"), std::string::npos);
  const Scene ruled_back = parse_scene(text, "ruled.json");
  ASSERT_EQ(ruled_back.bodies[0].def.shapes.size(), 2u);
  EXPECT_EQ(ruled_back.bodies[0].def.shapes[0].material.friction_mix, MixRule::Default);
  EXPECT_EQ(ruled_back.bodies[0].def.shapes[1].material.friction_mix, MixRule::Min);
}

TEST(SceneConcave, OtherPolygonsAreNotTakenForConcavePolygons) {
  const std::string two_squares = R"({"version": 2, "bodies": [{"center": [0, 2], "shapes": [
    {"shape": "polygon", "vertices": [[0, 0], [1, 0], [1, 1], [0, 1]]},
    {"shape": "polygon", "vertices": [[1, 0], [2, 0], [2, 1], [1, 1]]}]}]})";
  const std::string text = scene_to_json(parse_scene(two_squares, "squares.json"));
  EXPECT_NE(text.find("\"version\": 2"), std::string::npos);
  EXPECT_EQ(text.find("concave_polygon"), std::string::npos);
  for (const std::string& name : builtin_scene_names()) {
    const std::string saved = scene_to_json(builtin_scene(name));
    EXPECT_EQ(saved.find("concave_polygon"), std::string::npos) << name;
    EXPECT_EQ(saved.find("\"version\": 3"), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace strut::scene_concave_test
