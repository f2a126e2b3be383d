// World::move_character: a capsule moved by casts, sliding along the surfaces it meets.
//
// Positions are offsets from the capsule as given. Every surface met becomes a half-plane of
// allowed offsets: its outward normal and the offset at which the capsule would be one skin
// clear of it. A slide repeats, up to max_iterations times: the allowed offset nearest the goal
// (plane_solver.hpp: exact, so moving diagonally into a wall keeps all of the motion along it),
// a cast towards it, and on a hit a stop one skin short of the surface (measured along its
// normal) and a new half-plane. Every motion is a cast, so no translation, however long, passes
// through a shape; one push out of any overlap left at the end (a body moved into the capsule,
// rounding) is the only motion not cast, and it is no longer than the overlap plus a skin.
//
// Ground and walls: a surface whose normal is within max_slope of up is ground, and so is the
// rounded edge of a ledge whose top is (ground_under). A character on the ground at the start
// that is not rising walks: the downward part of its translation is taken by the ground (so it
// does not creep down a slope it stands on) and applied after the walk by a cast straight down,
// which also snaps it onto ground within snap_distance. A slope too steep is a wall: once met,
// the slide may not take the character further into it, level, than where it met it, so walking
// into such a slope does not climb it while falling onto one slides down it. A walk stopped by a
// wall is tried again raised by step_height (as far as the space above allows), then cast down
// onto what it passed over; the raised walk is kept when it went further and landed on ground.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "solver/query/mover_queries.hpp"
#include "solver/query/plane_solver.hpp"
#include "solver/shapes/shape_checks.hpp"
#include "strut/limits.hpp"
#include "strut/world.hpp"

namespace strut {
namespace {

using shapes::number_text;

constexpr float kHalfPi = 1.5707964f;  // float(pi / 2), just above pi / 2

// v / |v| for a non-zero v, scaled first so that |v|^2 neither underflows nor overflows.
Vec2 direction_of(Vec2 v) {
  const float m = std::max(std::fabs(v.x), std::fabs(v.y));
  const Vec2 u{v.x / m, v.y / m};
  return (1.0f / length(u)) * u;
}

void check_range(float v, float lo, float hi, const std::string& field, const std::string& range) {
  shapes::check_finite(v, field);
  if (!(v >= lo && v <= hi)) throw Error(field + ": " + number_text(v) + " is outside " + range);
}

void check_input(const Capsule& c, Vec2 translation, const MoverSettings& s) {
  shapes::check_coordinate(c.a, "capsule.a");
  shapes::check_coordinate(c.b, "capsule.b");
  shapes::check_size(c.radius, "capsule.radius");
  if (!(length(c.b - c.a) <= limits::kMaxSize))
    throw Error("capsule.b: " + number_text(length(c.b - c.a)) +
                " m from capsule.a, beyond the size limit of " + number_text(limits::kMaxSize) +
                " m (strut/limits.hpp)");
  shapes::check_finite(translation, "translation");
  for (const Vec2 end : {c.a + translation, c.b + translation})
    if (!(std::fmax(std::fabs(end.x), std::fabs(end.y)) <= limits::kMaxCoordinate))
      throw Error("translation: takes the capsule to (" + number_text(end.x) + ", " +
                  number_text(end.y) + "), beyond the coordinate limit of " +
                  number_text(limits::kMaxCoordinate) + " m (strut/limits.hpp)");
  shapes::check_finite(s.up, "up");
  if (s.up.x == 0 && s.up.y == 0) throw Error("up: must not be zero");
  check_range(s.max_slope, 0, kHalfPi, "max_slope", "[0, pi/2] rad");
  const std::string sizes = "[0, " + number_text(limits::kMaxSize) + "] m";
  check_range(s.step_height, 0, limits::kMaxSize, "step_height", sizes);
  check_range(s.snap_distance, 0, limits::kMaxSize, "snap_distance", sizes);
  check_range(s.skin, limits::kMinSize, c.radius, "skin",
              "[" + number_text(limits::kMinSize) +
                  " m, capsule.radius = " + number_text(c.radius) + " m]");
  if (s.max_iterations < 1 || s.max_iterations > limits::kMaxIterations)
    throw Error("max_iterations: " + std::to_string(s.max_iterations) + " is outside [1, " +
                std::to_string(limits::kMaxIterations) + "]");
}

// The surfaces a slide keeps clear of, and what it met.
struct Slide {
  std::vector<HalfPlane> limits;
  std::vector<MoverPlane> met;
  bool met_wall = false;
};

class CharacterMove {
 public:
  CharacterMove(const WorldState& w, const Capsule& capsule, const MoverSettings& settings)
      : w_(w),
        capsule_(capsule),
        s_(settings),
        up_(direction_of(settings.up)),
        cos_max_slope_(std::cos(settings.max_slope)) {}

  MoveResult run(Vec2 translation) {
    const float skin = s_.skin;
    const std::vector<MoverContact> around = collide_mover(w_, view_at({}), 2 * skin, s_.filter);
    const bool grounded = std::any_of(around.begin(), around.end(),
                                      [&](const MoverContact& c) { return bool(ground_under(c)); });
    const float rise = dot(translation, up_);
    const bool walking = grounded && rise <= 0;
    const Vec2 walk = walking ? translation - rise * up_ : translation;
    const float fall = walking ? -rise : 0.0f;

    Slide slide;
    for (const MoverContact& c : around) add_plane(slide, c, skin - c.gap, {});
    Vec2 p = slide_to(slide, {}, walk);
    bool stepped = false;
    std::vector<MoverPlane> met = std::move(slide.met);
    if (walking && s_.step_height > 0 && slide.met_wall) {
      Slide raised;
      const auto landed = step_up(raised, walk, fall);
      // Kept only when it got further along the walk, by more than rounding.
      if (landed && dot(*landed - p, walk) > 0.01f * skin * length(walk)) {
        p = *landed;
        stepped = true;
        met.resize(around.size());  // the surfaces at the start, then the raised walk's
        met.insert(met.end(), raised.met.begin(), raised.met.end());
      }
    }
    if (walking && !stepped) p = settle(p, fall);
    p = push_out(p);

    MoveResult result;
    result.translation = p;
    result.capsule = {capsule_.a + p, capsule_.b + p, capsule_.radius};
    result.stepped = stepped;
    result.planes = std::move(met);
    // The most upward-facing ground, the first of equals.
    for (const MoverContact& c : collide_mover(w_, view_at(p), 2 * skin, s_.filter)) {
      const std::optional<Vec2> ground = ground_under(c);
      if (!ground || (result.on_ground && !(dot(*ground, up_) > dot(result.ground_normal, up_))))
        continue;
      result.on_ground = true;
      result.ground_normal = *ground;
      result.ground_point = c.point;
      result.ground_body = c.body;
      result.ground_shape = c.shape;
    }
    return result;
  }

 private:
  bool walkable(Vec2 normal) const { return dot(normal, up_) >= cos_max_slope_; }

  // The normal of the ground the capsule stands on at contact c, if c is ground: c's own when
  // walkable; else, when c is the rounded edge of something below (a ledge's corner, whose
  // normal tilts as the capsule's round bottom leans over it), the surface one skin beyond the
  // edge, looked at from above, if that is walkable. A steep slope's face is steep there too.
  std::optional<Vec2> ground_under(const MoverContact& c) const {
    if (walkable(c.normal)) return c.normal;
    const Vec2 side = c.normal - dot(c.normal, up_) * up_;
    if (!(dot(c.normal, up_) > 0) || (side.x == 0 && side.y == 0)) return std::nullopt;
    const Vec2 beyond = c.point - s_.skin * direction_of(side);
    const auto surface =
        probe_surface(w_, beyond + 2 * s_.skin * up_, beyond - 2 * s_.skin * up_, s_.filter);
    if (surface && walkable(*surface)) return surface;
    return std::nullopt;
  }

  // The capsule moved by offset p, as the queries take it (valid until the next call).
  collide::ShapeView view_at(Vec2 p) {
    const Vec2 a = capsule_.a + p, b = capsule_.b + p;
    x_[0] = a.x, y_[0] = a.y, x_[1] = b.x, y_[1] = b.y;
    collide::ShapeView v;
    v.kind = collide::ColliderKind::Capsule;
    v.x = x_, v.y = y_, v.count = 2, v.radius = capsule_.radius;
    return v;
  }

  // How far the capsule may go along `dir` (unit) towards a hit made by a cast of `cast_length`
  // and stay one skin clear of it along its normal (0 when it may not approach at all).
  float clearance(const MoverContact& hit, Vec2 dir, float cast_length) const {
    const float approach = -dot(dir, hit.normal);
    if (!(approach > 0)) return 0.0f;
    return std::max(hit.fraction * cast_length - s_.skin / approach, 0.0f);
  }

  // Keeps the slide one skin clear of the surface (offset: where that is along its normal); p is
  // where the slide is.
  void add_plane(Slide& slide, const MoverContact& c, float offset, Vec2 p) {
    slide.limits.push_back({c.normal, offset});
    slide.met.push_back({c.normal, c.point, c.body, c.shape});
    const float facing_up = dot(c.normal, up_);
    if (facing_up >= cos_max_slope_) return;
    slide.met_wall = true;
    const Vec2 side = c.normal - facing_up * up_;  // level, out of the surface
    if (!(facing_up > 0) || (side.x == 0 && side.y == 0))
      return;  // walls and ceilings lift nothing
    // A slope too steep to walk: no further into it, level, than where it was met, so that
    // sliding along it cannot lift the character up it.
    const Vec2 out = direction_of(side);
    slide.limits.push_back({out, dot(out, p)});
  }

  // Slides from `from` towards `goal`; returns where it stops.
  Vec2 slide_to(Slide& slide, Vec2 from, Vec2 goal) {
    Vec2 p = from;
    for (int i = 0; i < s_.max_iterations; ++i) {
      const std::optional<Vec2> target = nearest_inside(goal, slide.limits);
      if (!target) break;  // squeezed: no room anywhere
      const Vec2 delta = *target - p;
      const float distance = length(delta);
      if (!(distance > 1e-6f)) break;  // there, to well below a float's resolution at 4 km
      const auto hit = cast_mover(w_, view_at(p), delta, s_.filter);
      if (!hit) {
        p = *target;
        break;
      }
      const Vec2 dir = (1.0f / distance) * delta;
      const Vec2 touch = p + hit->fraction * delta;
      p = p + std::min(clearance(*hit, dir, distance), distance) * dir;
      add_plane(slide, *hit, dot(hit->normal, touch) - hit->gap + s_.skin, p);
    }
    return p;
  }

  // The walk's downward part, after it: a cast straight down by `fall`, or further onto ground
  // within snap_distance.
  Vec2 settle(Vec2 p, float fall) {
    const float reach = fall + s_.snap_distance;
    if (!(reach > 0)) return p;
    const float cast = reach + s_.skin;
    const auto hit = cast_mover(w_, view_at(p), cast * -up_, s_.filter);
    float drop = fall;
    if (hit) drop = std::min(clearance(*hit, -up_, cast), ground_under(*hit) ? reach : fall);
    return p - drop * up_;
  }

  // The walk tried again from step_height higher and landed; where it ended, if on ground.
  std::optional<Vec2> step_up(Slide& raised, Vec2 walk, float fall) {
    const float skin = s_.skin;
    const float height = s_.step_height;
    const auto above = cast_mover(w_, view_at({}), (height + skin) * up_, s_.filter);
    const float lift = above ? std::min(clearance(*above, up_, height + skin), height) : height;
    if (!(lift > 0)) return std::nullopt;
    const Vec2 start = lift * up_, goal = start + walk;
    // Level: the capsule's round bottom would slide up over an edge higher than the lift.
    raised.limits.push_back({-up_, -lift});
    for (const MoverContact& c : collide_mover(w_, view_at(start), 2 * skin, s_.filter))
      add_plane(raised, c, dot(c.normal, start) + skin - c.gap, start);
    const Vec2 p = slide_to(raised, start, goal);
    const float reach = lift + fall + s_.snap_distance, cast = reach + skin;
    const auto land = cast_mover(w_, view_at(p), cast * -up_, s_.filter);
    if (!land || !ground_under(*land)) return std::nullopt;
    // What it lands on is at most step_height above the feet: the raised walk may have passed
    // over a little more (a round bottom lifted by h clears an edge up to h + r (1 - cos a) high,
    // a the angle of its normal there) and come down leaning on that edge.
    const float feet = std::min(dot(capsule_.a, up_), dot(capsule_.b, up_)) - capsule_.radius;
    if (dot(land->point, up_) > feet + height) return std::nullopt;
    return p - std::min(clearance(*land, -up_, cast), reach) * up_;
  }

  // Out of any overlap left (a body moved into the capsule since the last move, or rounding):
  // the nearest offset one skin clear of every surface within a skin.
  Vec2 push_out(Vec2 p) {
    const std::vector<MoverContact> near = collide_mover(w_, view_at(p), s_.skin, s_.filter);
    if (std::none_of(near.begin(), near.end(), [](const MoverContact& c) { return c.gap < 0; }))
      return p;
    std::vector<HalfPlane> limits;
    for (const MoverContact& c : near)
      limits.push_back({c.normal, dot(c.normal, p) - c.gap + s_.skin});
    return nearest_inside(p, limits).value_or(p);
  }

  const WorldState& w_;
  Capsule capsule_;
  MoverSettings s_;
  Vec2 up_;
  float cos_max_slope_;
  float x_[2], y_[2];  // view_at's vertices
};

}  // namespace

MoveResult World::move_character(const Capsule& capsule, Vec2 translation,
                                 const MoverSettings& settings) const {
  try {
    check_input(capsule, translation, settings);
  } catch (const Error& e) {
    throw Error(std::string("move_character: ") + e.what());
  }
  return CharacterMove(*state_, capsule, settings).run(translation);
}

}  // namespace strut
