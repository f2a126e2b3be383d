// Box2D's benchmark scenes of bodies with several shapes: 'compounds' (a pile of two-triangle
// bodies in a box), 'washer' (a kinematic drum of 40 polygons tumbling 8100 small squares) and
// 'junkyard' (8000 pentagons pushed around by a kinematic pusher following a target path).
#include <algorithm>
#include <cmath>
#include <numbers>

#include "tools/scene/builtin_parts.hpp"

namespace strut::builtin {
namespace {

ShapeDef box_shape(Vec2 half, Vec2 offset) {
  ShapeDef s;
  s.shape = BoxShape{half};
  s.offset = offset;
  return s;
}

ShapeDef polygon_shape(std::vector<Vec2> vertices) {
  ShapeDef s;
  s.shape = PolygonShape{std::move(vertices)};
  return s;
}

// Static boxes: a floor of `floor` boxes (half-extents 0.55 x 0.5) along y = 0 from
// x = -half_width, and two walls of `wall` boxes (0.5 x 0.55) at x = -+half_width from y = 1.
std::vector<ShapeDef> box_pit(float half_width, int floor, int wall) {
  std::vector<ShapeDef> shapes;
  for (int i = 0; i < floor; ++i)
    shapes.push_back(box_shape({0.55f, 0.5f}, {-half_width + float(i), 0.0f}));
  for (const float x : {-half_width, half_width})
    for (int i = 0; i < wall; ++i) shapes.push_back(box_shape({0.5f, 0.55f}, {x, 1.0f + float(i)}));
  return shapes;
}

// Moves the junkyard's pusher: before every step, toward (60 sin(0.2 t), 0) for its origin.
class JunkyardHook {
 public:
  static constexpr const char* kName = "junkyard";
  // The pusher's index is found again after a resume.
  template <class F>
  void for_each_field(F&&) {}
  bool valid(const SceneInstance&) const { return true; }
  void operator()(SceneInstance& io, int step) {
    const float dt = io.dt, t = dt * float(step);
    const BodyId pusher = io.bodies[pusher_index(io)];
    // The target is the body's origin; set_target_transform takes the centre of mass, which the
    // pusher's one box puts 4 m above it.
    io.world.set_target_transform(pusher, Transform{{60.0f * std::sin(0.2f * t), 4.0f}, 0.0f}, dt);
  }

 private:
  std::size_t pusher_index(const SceneInstance& io) {
    if (index_ == 0)
      index_ =
          std::size_t(std::find(io.names.begin(), io.names.end(), "pusher") - io.names.begin());
    return index_;
  }
  std::size_t index_ = 0;
};

}  // namespace

StepHook resume_junkyard_hook(std::span<const std::uint8_t> state, std::size_t base,
                              const SceneInstance& io) {
  return ResumableHook<JunkyardHook>::resume(state, base, io);
}

Scene compounds(float size) {
  const int columns = 20, rows = scaled(150, size);
  Scene s = benchmark_scene(
      "compounds",
      "Box2D benchmark 'compounds': " + std::to_string(columns * rows) +
          " dynamic bodies of two triangles each (friction 0.5) falling into a pit of 81 floor "
          "boxes, two walls of 100 boxes and a 1600 m segment 80 m below (Box2D: one static body; "
          "here static bodies of 64 shapes, the most a scene file gives a body).",
      500);
  std::vector<ShapeDef> ground = box_pit(40.0f, 81, 100);
  ShapeDef segment;
  segment.shape = SegmentShape{{-800.0f, -80.0f}, {800.0f, -80.0f}};
  ground.push_back(segment);
  add_static_shapes(s, "ground", ground);
  s.materials.emplace_back("compound", Material{1.0f, 0.5f, 0.5f, 0.0f});
  ShapeDef left = polygon_shape({{-1.0f, 0.0f}, {0.5f, 1.0f}, {0.0f, 2.0f}});
  ShapeDef right = polygon_shape({{1.0f, 0.0f}, {-0.5f, 1.0f}, {0.0f, 2.0f}});
  left.material = right.material = s.materials[0].second;
  float side = 0.25f;
  for (int i = 0; i < columns; ++i) {
    for (int j = 0; j < rows; ++j) {
      SceneBody b;
      b.def.center = {2.0f * float(i) - 19.0f + side, 2.25f * float(j) + 0.575f + 5.0f};
      b.def.shapes = {left, right};
      s.bodies.push_back(b);
      side = -side;
    }
  }
  return s;
}

Scene washer(float size) {
  const int grid = scaled_side(90, size);
  Scene s = benchmark_scene(
      "washer",
      "Box2D benchmark 'washer': a kinematic drum at (0, 10) turning at 25 degrees/s (linear "
      "velocity (0.001, -0.002)) made of 36 overlapping ring sectors between radius 16 and 18 "
      "and four paddles between 14 and 16 (40 polygon shapes), tumbling " +
          std::to_string(grid * grid) + " squares of half-extent 0.1.",
      500);
  SceneBody drum;
  drum.name = "drum";
  drum.def.center = {0.0f, 10.0f};
  drum.def.is_kinematic = true;
  drum.def.angular_velocity = float(25.0 * std::numbers::pi / 180.0);
  drum.def.velocity = {0.001f, -0.002f};
  const double step = std::numbers::pi / 18.0, widen = 0.1 * step;
  auto at = [](double radius, double angle) {
    return Vec2{float(radius * std::cos(angle)), float(radius * std::sin(angle))};
  };
  for (int i = 0; i < 36; ++i) {
    const double a1 = step * i, a2 = step * (i + 1);
    // A sector widened at both ends so neighbours overlap (counter-clockwise order).
    drum.def.shapes.push_back(polygon_shape(
        {at(16, a1 - widen), at(18, a1 - widen), at(18, a2 + widen), at(16, a2 + widen)}));
    if (i % 9 == 0)
      drum.def.shapes.push_back(polygon_shape({at(14, a1), at(16, a1), at(16, a2), at(14, a2)}));
  }
  s.bodies.push_back(drum);
  const float a = 0.1f;
  float y = -1.1f * a * float(grid) + 10.0f;
  for (int i = 0; i < grid; ++i) {
    float x = -1.1f * a * float(grid);
    for (int j = 0; j < grid; ++j) {
      s.bodies.push_back(box({x, y}, {a, a}));
      x += 2.1f * a;
    }
    y += 2.1f * a;
  }
  return s;
}

Scene junkyard(float size) {
  const int columns = 200, rows = scaled(40, size);
  Scene s = benchmark_scene(
      "junkyard",
      "Box2D benchmark 'junkyard': " + std::to_string(columns * rows) +
          " pentagons (radius 0.25) in a pit (161 floor boxes and two walls of 50, on static "
          "bodies of 64 shapes), swept by a kinematic pusher (a 4 x 8 box) that follows the target "
          "position "
          "(60 sin(0.2 t), 0) step by step. The pusher moves only in the built-in scene: the scene "
          "file holds it at rest.",
      800);
  add_static_shapes(s, "ground", box_pit(80.0f, 161, 50));
  // Five points of a circle of radius 0.25 at the angles i pi (sqrt 5 - 1), in angle order.
  std::vector<Vec2> pentagon;
  const double phi = std::numbers::pi * (std::sqrt(5.0) - 1.0);
  for (int i = 0; i < 5; ++i)
    pentagon.push_back({float(0.25 * std::cos(phi * i)), float(0.25 * std::sin(phi * i))});
  std::sort(pentagon.begin(), pentagon.end(),
            [](Vec2 p, Vec2 q) { return std::atan2(p.y, p.x) < std::atan2(q.y, q.x); });
  float side = -0.1f;
  for (int i = 0; i < columns; ++i) {
    for (int j = 0; j < rows; ++j) {
      SceneBody b;
      b.def.center = {0.75f * float(i) - 75.0f + side, float(j) + 15.0f};
      b.def.shapes = {ShapeDef{PolygonShape{pentagon}}};
      s.bodies.push_back(b);
      side = -side;
    }
  }
  SceneBody pusher;
  pusher.name = "pusher";
  pusher.def.is_kinematic = true;
  pusher.def.shapes = {box_shape({2.0f, 4.0f}, {0.0f, 4.0f})};
  s.bodies.push_back(pusher);
  s.make_step_hook = [] {
    return StepHook(std::make_unique<ResumableHook<JunkyardHook>>(JunkyardHook()));
  };
  return s;
}

}  // namespace strut::builtin
