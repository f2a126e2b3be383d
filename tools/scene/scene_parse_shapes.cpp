// Scene bodies and their shapes: `bodies[i]` with one shape (its keys on the body, versions 1
// and 2) or, in version 2, a compound body with `shapes: [...]`; in version 3 a
// `concave_polygon`, which loads as the convex pieces of decompose_polygon, all of one body.
// Every rule the world applies is checked here first, so a file that loads always builds; the
// messages name the JSON path.
//
// Version-2 shapes are checked by the reader itself rather than by World's validation: the
// reader must name the offending key of the offending item (bodies[2].shapes[5].radius), which
// a BodyDef-level message cannot. The body-level fields still go through validate_body_def, on
// a stand-in body that carries the body's own fields and a plain box (engine_check). Every body
// loads with its shapes in BodyDef::shapes; one shape given on the body is shapes[0].
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "solver/bodies/body_validate.hpp"
#include "solver/shapes/polygon_geometry.hpp"
#include "strut/limits.hpp"
#include "tools/scene/scene_parse_internal.hpp"

namespace strut::scene_read {
namespace {

// A shape kind and its own keys. `radius` is a second key of box and polygon from version 2 on
// (rounded corners); in version 1 it belongs to circles only.
struct Kind {
  std::string_view name;
  int since;  // the format version that introduced the kind
  std::string_view keys[2];
};
constexpr Kind kKinds[] = {
    {"box", 1, {"half_extents", "radius"}},
    {"polygon", 1, {"vertices", "radius"}},
    {"circle", 1, {"radius", {}}},
    {"capsule", 2, {"half_length", "radius"}},
    {"segment", 2, {"points", {}}},
    {"chain", 2, {"points", "loop"}},
    {"concave_polygon", 3, {"vertices", {}}},
};
constexpr std::string_view kConcave = "concave_polygon";  // not a Shape: polygons once loaded

static_assert(std::size(kKinds) == std::variant_size_v<Shape> + 1,
              "kKinds follows Shape's order, then concave_polygon");

const Kind* find_kind(std::string_view name, int version) {
  for (const Kind& k : kKinds)
    if (k.name == name && k.since <= version) return &k;
  return nullptr;
}
// "unknown shape ..." with the kinds of this version, and the version a later kind needs.
std::string unknown_shape(const std::string& shape, int version) {
  const std::string expected = version >= 3   ? "box, polygon, concave_polygon, circle, capsule, "
                                                "segment or chain"
                               : version == 2 ? "box, polygon, circle, capsule, segment or chain"
                                              : "box, polygon or circle";
  for (const Kind& k : kKinds)
    if (k.name == shape)
      return "unknown shape \"" + shape + "\" (expected " + expected + "; \"" + shape +
             "\" needs \"version\": " + std::to_string(k.since) + ")";
  return "unknown shape \"" + shape + "\" (expected " + expected + ")";
}
// (Capsules and chains only exist from version 2 on, so their second key is always theirs.)
bool is_key_of(const Kind& kind, std::string_view key, int version) {
  return key == kind.keys[0] || (version >= 2 && !kind.keys[1].empty() && key == kind.keys[1]);
}
// A key of some shape kind: on another kind it "does not apply" (a clearer message than
// "unknown key" for `radius` on a box in version 1, `points` on a capsule...).
bool is_shape_key(std::string_view key, int version) {
  for (const Kind& k : kKinds)
    if (k.since <= version && is_key_of(k, key, version)) return true;
  return false;
}

template <std::size_t N>
bool one_of(std::string_view key, const std::string_view (&list)[N]) {
  return std::find(std::begin(list), std::end(list), key) != std::end(list);
}
// Keys of the body itself, whatever its shapes.
constexpr std::string_view kBodyKeys[] = {
    "name",      "center",        "angle",  "velocity", "angular_velocity", "static",
    "kinematic", "gravity_scale", "bullet", "soft",     "linear_drag"};
constexpr std::string_view kBodyKeysV2[] = {"fixed_rotation", "angular_drag", "awake", "lock_x",
                                            "lock_y"};
// Keys of a shape besides its kind's own: on a single-shape body they sit on the body.
constexpr std::string_view kShapeKeys[] = {"shape", "material", "category", "mask"};
constexpr std::string_view kShapeKeysV2[] = {"group", "sensor"};
// Keys of an item of `shapes` only (extension): a single-shape body takes them as a compound of
// one.
constexpr std::string_view kShapeItemKeys[] = {"tangent_speed", "rolling_resistance"};
// The same, from version 3 on (the contact callbacks' flags).
constexpr std::string_view kShapeItemKeysV3[] = {"custom_filter", "pre_solve"};
constexpr std::string_view kShapeItemOnly =
    "only on an item of \"shapes\" (a compound of one shape)";

// The refusal of a version-3 key in an older file.
std::string needs_version_3(std::string_view key) {
  return "unknown key (" + std::string(key) + " needs \"version\": 3)";
}

// True when two edges that do not share a vertex cross (a bow tie). Only used to name the
// problem precisely: make_convex_ccw rejects such polygons anyway, as concave or zero-area.
std::optional<std::pair<int, int>> crossing_edges(const std::vector<Vec2>& v) {
  const int n = static_cast<int>(v.size());
  for (int i = 0; i < n; ++i) {
    for (int j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;  // adjacent through the wrap-around
      const Vec2 a = v[i], b = v[(i + 1) % n], c = v[j], d = v[(j + 1) % n];
      const float o1 = cross(b - a, c - a), o2 = cross(b - a, d - a);
      const float o3 = cross(d - c, a - c), o4 = cross(d - c, b - c);
      if (((o1 < 0 && o2 > 0) || (o1 > 0 && o2 < 0)) && ((o3 < 0 && o4 > 0) || (o3 > 0 && o4 < 0)))
        return std::pair{i, j};
    }
  }
  return std::nullopt;
}

// A body the world of version 1 knows (its one shape given on the body): one box, polygon or
// circle, not rounded, no group, not a sensor. Such bodies are checked by validate_body_def
// whole, exactly as version 1 always was.
bool is_version_1_body(const BodyDef& d) {
  if (d.shapes.size() != 1 || d.shapes[0].filter.group != 0 || d.shapes[0].sensor) return false;
  const Shape& shape = d.shapes[0].shape;
  if (const auto* box = std::get_if<BoxShape>(&shape)) return box->radius == 0;
  if (const auto* poly = std::get_if<PolygonShape>(&shape)) return poly->radius == 0;
  return std::holds_alternative<CircleShape>(shape);
}

bool is_dynamic(const BodyDef& d) { return !d.is_static && !d.is_kinematic; }

// Area in m^2, in double (the mass check is about underflow and overflow). A rounded shape is
// the Minkowski sum of its core and a disc: core area + perimeter x r + pi r^2.
double area_of(const Shape& shape) {
  const double pi = 3.14159265358979323846;
  if (const auto* box = std::get_if<BoxShape>(&shape)) {
    const double hx = box->half_extents.x, hy = box->half_extents.y, r = box->radius;
    return 4 * hx * hy + 4 * r * (hx + hy) + pi * r * r;
  }
  if (const auto* poly = std::get_if<PolygonShape>(&shape)) {
    const std::vector<Vec2> v = make_convex_ccw(poly->vertices, "vertices");
    double perimeter = 0;
    for (std::size_t i = 0; i < v.size(); ++i) perimeter += length(v[(i + 1) % v.size()] - v[i]);
    const double r = poly->radius;
    return double(polygon_mass(v).area) + perimeter * r + pi * r * r;
  }
  if (const auto* circle = std::get_if<CircleShape>(&shape))
    return pi * double(circle->radius) * circle->radius;
  if (const auto* capsule = std::get_if<CapsuleShape>(&shape)) {
    const double h = capsule->half_length, r = capsule->radius;
    return 4 * h * r + pi * r * r;
  }
  return 0;  // segments and chains have no area
}

std::string magnitude_problem(float v) {
  return shapes::number_text(v) + " m exceeds the limit of " +
         shapes::number_text(limits::kMaxSize) + " m (strut/limits.hpp)";
}

}  // namespace

Material BodyReader::material(const std::string& name, const Path& p) const {
  if (const auto it = materials_.find(name); it != materials_.end()) return it->second;
  if (is_builtin_material(name)) return material_named(name);
  fail(p, "unknown material \"" + name + "\"");
}

SceneBody BodyReader::body(const json& j, const Path& p) {
  if (!j.is_object()) fail(p, "expected an object, got " + describe(j));
  if (version_ >= 2 && j.contains("shapes")) return compound_body(j, p);
  return single_shape_body(j, p);
}

SceneBody BodyReader::single_shape_body(const json& j, const Path& p) {
  if (version_ >= 2 && !j.contains("shape"))
    fail(p, "missing key \"shape\" (or \"shapes\" for a compound body)");
  const std::string shape = string(require(j, p, "shape"), p / "shape");
  const Kind* kind = find_kind(shape, version_);
  if (!kind) fail(p / "shape", unknown_shape(shape, version_));
  for (const auto& [k, v] : j.items()) {
    if (one_of(k, kBodyKeys) || one_of(k, kShapeKeys) || is_key_of(*kind, k, version_)) continue;
    if (version_ >= 2 && (one_of(k, kBodyKeysV2) || one_of(k, kShapeKeysV2))) continue;
    if (version_ >= 2 && one_of(k, kShapeItemKeys)) fail(p / k, std::string(kShapeItemOnly));
    if (one_of(k, kShapeItemKeysV3))
      fail(p / k, version_ >= 3 ? std::string(kShapeItemOnly) : needs_version_3(k));
    if (is_shape_key(k, version_)) fail(p / k, "does not apply to a " + shape);
    fail(p / k, "unknown key");
  }
  SceneBody b = name_and_center(j, p);
  BodyDef& d = b.def;
  const bool concave = shape == kConcave;
  std::vector<PolygonShape> pieces;
  ShapeDef s;  // the body's shape, or how each piece of a concave_polygon is dressed
  if (concave)
    pieces = concave_pieces(require(j, p, "vertices"), p / "vertices");
  else
    s.shape = shape_of(shape, j, p);
  body_options(j, p, b);
  const std::string mat =
      j.contains("material") ? string(j["material"], p / "material") : "default";
  s.material = material(mat, p / "material");
  if (is_dynamic(d) && !(s.material.density > 0))
    fail(j.contains("material") ? p / "material" : p,
         "material \"" + mat + "\" has zero density; a dynamic body needs a positive density");
  s.filter = filter(j, p);
  if (j.contains("sensor")) s.sensor = boolean(j["sensor"], p / "sensor");
  if (concave) {
    // A compound of the pieces, each with the body's material, filter and sensor flag.
    for (PolygonShape& piece : pieces) {
      d.shapes.push_back(s);
      d.shapes.back().shape = std::move(piece);
    }
  } else {
    d.shapes.push_back(std::move(s));
  }
  if (j.contains("soft")) {
    d.soft = non_negative(j["soft"], p / "soft");
    if (d.soft > 0 && shape == "circle") fail(p / "soft", "a circle cannot be soft");
    if (d.soft > 0 && concave)
      fail(p / "soft", "a concave_polygon cannot be soft (it is a compound of convex pieces)");
    if (d.soft > 0 && !is_version_1_body(d)) {
      // Soft bodies are particles joined by struts along a plain polygon's edges.
      const bool rounded = shape == "box" || shape == "polygon";
      fail(p / "soft", (rounded ? "a rounded " : "a ") + shape + " cannot be soft");
    }
  }
  const bool whole = !concave && is_version_1_body(d);
  engine_check(d, j, p, whole);
  if (!whole) {
    // The pieces of a concave_polygon passed decompose_polygon's checks.
    if (!concave) check_shape(d.shapes[0].shape, j, p, d);
    check_mass(d, p, concave ? "vertices" : kKinds[d.shapes[0].shape.index()].keys[0]);
  }
  return b;
}

SceneBody BodyReader::compound_body(const json& j, const Path& p) {
  for (const auto& [k, v] : j.items()) {
    if (one_of(k, kBodyKeys) || one_of(k, kBodyKeysV2) || k == "shapes") continue;
    if (k == "shape" || is_shape_key(k, version_))
      fail(p / k, "does not go with \"shapes\" (each item of shapes has its own shape keys)");
    if (one_of(k, kShapeItemKeysV3) && version_ < 3) fail(p / k, needs_version_3(k));
    if (one_of(k, kShapeKeys) || one_of(k, kShapeKeysV2) || one_of(k, kShapeItemKeys) ||
        one_of(k, kShapeItemKeysV3))
      fail(p / k, "does not go with \"shapes\" (give each item of shapes its own " + k + ")");
    fail(p / k, "unknown key");
  }
  SceneBody b = name_and_center(j, p);
  BodyDef& d = b.def;
  body_options(j, p, b);
  if (j.contains("soft") && non_negative(j["soft"], p / "soft") > 0)
    fail(p / "soft", "a compound body cannot be soft");
  const Path sp = p / "shapes";
  const json& items = array(j["shapes"], sp);
  if (items.empty()) fail(sp, "a compound body needs at least 1 shape, got none");
  if (items.size() > std::size_t(kMaxShapesPerBody))
    fail(sp, "a body has at most " + std::to_string(kMaxShapesPerBody) + " shapes, got " +
                 std::to_string(items.size()));
  d.shapes.reserve(items.size());
  for (std::size_t k = 0; k < items.size(); ++k) shape_item(items[k], sp.at(int(k)), d);
  engine_check(d, j, p, false);
  check_mass(d, p, "shapes");
  return b;
}

// The body's `name` (unique, listed for the joints) and `center`.
SceneBody BodyReader::name_and_center(const json& j, const Path& p) {
  SceneBody b;
  if (j.contains("name")) {
    b.name = string(j["name"], p / "name");
    if (b.name.empty()) fail(p / "name", "must not be empty (leave it out for an unnamed body)");
    const auto [it, fresh] = body_index_.emplace(b.name, p.index);
    if (!fresh)
      fail(p / "name",
           "duplicate name \"" + b.name + "\" (also bodies[" + std::to_string(it->second) + "])");
  }
  b.def.center = vec2(require(j, p, "center"), p / "center");
  centers_.push_back(b.def.center);
  return b;
}

// The body's own options, the same with one shape or many.
void BodyReader::body_options(const json& j, const Path& p, SceneBody& b) {
  BodyDef& d = b.def;
  if (j.contains("angle")) d.angle = number(j["angle"], p / "angle");
  if (j.contains("velocity")) d.velocity = vec2(j["velocity"], p / "velocity");
  if (j.contains("angular_velocity"))
    d.angular_velocity = number(j["angular_velocity"], p / "angular_velocity");
  if (j.contains("static")) d.is_static = boolean(j["static"], p / "static");
  if (j.contains("kinematic")) {
    d.is_kinematic = boolean(j["kinematic"], p / "kinematic");
    if (d.is_kinematic && d.is_static)
      fail(p / "kinematic", "a body cannot be both static and kinematic");
  }
  if (j.contains("gravity_scale"))
    d.gravity_scale = number(j["gravity_scale"], p / "gravity_scale");
  if (j.contains("linear_drag")) d.linear_drag = non_negative(j["linear_drag"], p / "linear_drag");
  if (j.contains("bullet")) d.bullet = boolean(j["bullet"], p / "bullet");
  if (j.contains("fixed_rotation"))
    d.fixed_rotation = boolean(j["fixed_rotation"], p / "fixed_rotation");
  if (j.contains("lock_x")) d.lock_x = boolean(j["lock_x"], p / "lock_x");
  if (j.contains("lock_y")) d.lock_y = boolean(j["lock_y"], p / "lock_y");
  if (j.contains("angular_drag"))
    d.angular_drag = non_negative(j["angular_drag"], p / "angular_drag");
  if (j.contains("awake")) {
    d.awake = boolean(j["awake"], p / "awake");
    // The world's own check of `awake` (validate_body_def) on a plain box with this body's type
    // and motion, here because engine_check's stand-in for a dynamic body is kinematic. Other
    // problems of those fields are engine_check's to report.
    if (!d.awake) {
      BodyDef probe;
      probe.is_static = d.is_static, probe.is_kinematic = d.is_kinematic;
      probe.velocity = d.velocity, probe.angular_velocity = d.angular_velocity;
      probe.awake = false;
      try {
        validate_body_def(probe);
      } catch (const Error& e) {
        const std::string_view msg = e.what(), field = "awake: ";
        if (msg.substr(0, field.size()) == field)
          fail(p / "awake", std::string(msg.substr(field.size())));
      }
    }
  }
}

void BodyReader::shape_item(const json& j, const Path& p, BodyDef& body) {
  if (!j.is_object()) fail(p, "expected an object, got " + describe(j));
  const std::string shape = string(require(j, p, "shape"), p / "shape");
  const Kind* kind = find_kind(shape, version_);
  if (!kind) fail(p / "shape", unknown_shape(shape, version_));
  for (const auto& [k, v] : j.items()) {
    if (one_of(k, kShapeKeys) || one_of(k, kShapeKeysV2) || one_of(k, kShapeItemKeys) ||
        is_key_of(*kind, k, version_) || k == "offset" || k == "angle")
      continue;
    if (one_of(k, kShapeItemKeysV3)) {
      if (version_ < 3) fail(p / k, needs_version_3(k));
      continue;
    }
    if (is_shape_key(k, version_)) fail(p / k, "does not apply to a " + shape);
    fail(p / k, "unknown key");
  }
  const bool concave = shape == kConcave;
  std::vector<PolygonShape> pieces;
  ShapeDef s;
  if (concave)
    pieces = concave_pieces(require(j, p, "vertices"), p / "vertices");
  else
    s.shape = shape_of(shape, j, p);
  if (j.contains("offset")) {
    const Path op = p / "offset";
    s.offset = vec2(j["offset"], op);
    // A shape's placement is part of its size: as far from the body's origin as a polygon's
    // vertices may be.
    if (std::fabs(s.offset.x) > limits::kMaxSize) fail(op.at(0), magnitude_problem(s.offset.x));
    if (std::fabs(s.offset.y) > limits::kMaxSize) fail(op.at(1), magnitude_problem(s.offset.y));
  }
  if (j.contains("angle")) s.angle = number(j["angle"], p / "angle");
  if (j.contains("material"))
    s.material = material(string(j["material"], p / "material"), p / "material");
  s.filter = filter(j, p);
  if (j.contains("sensor")) s.sensor = boolean(j["sensor"], p / "sensor");
  if (j.contains("tangent_speed")) {
    const Path tp = p / "tangent_speed";
    s.tangent_speed = number(j["tangent_speed"], tp);
    if (std::fabs(s.tangent_speed) > limits::kMaxSpeed)
      fail(tp, shapes::number_text(s.tangent_speed) + " m/s exceeds the limit of " +
                   shapes::number_text(limits::kMaxSpeed) + " m/s (strut/limits.hpp)");
  }
  if (j.contains("rolling_resistance"))
    s.rolling_resistance = non_negative(j["rolling_resistance"], p / "rolling_resistance");
  if (j.contains("custom_filter"))
    s.custom_filter = boolean(j["custom_filter"], p / "custom_filter");
  if (j.contains("pre_solve")) s.pre_solve = boolean(j["pre_solve"], p / "pre_solve");
  if (!concave) {
    check_shape(s.shape, j, p, body);
    body.shapes.push_back(std::move(s));
    return;
  }
  for (PolygonShape& piece : pieces) {  // every piece placed, dressed and filtered as the item
    body.shapes.push_back(s);
    body.shapes.back().shape = std::move(piece);
  }
}

// The shape of kind `kind` from its keys in object `j` at path `p`: sizes positive, polygons
// convex, points distinct. Limits and the body's type are checked apart (check_shape).
Shape BodyReader::shape_of(const std::string& kind, const json& j, const Path& p) const {
  auto corner_radius = [&]() {
    return j.contains("radius") ? non_negative(j["radius"], p / "radius") : 0.0f;
  };
  if (kind == "box") {
    const Path sp = p / "half_extents";
    const json& size = require(j, p, "half_extents");
    const Vec2 h = vec2(size, sp);
    if (!(h.x > 0 && h.y > 0)) fail(sp, "half-extents must be positive, got " + size.dump());
    return BoxShape{h, corner_radius()};
  }
  if (kind == "circle") return CircleShape{positive(require(j, p, "radius"), p / "radius")};
  if (kind == "polygon") {
    PolygonShape poly = polygon(require(j, p, "vertices"), p / "vertices");
    poly.radius = corner_radius();
    return poly;
  }
  if (kind == "capsule") {
    CapsuleShape c;
    c.half_length = non_negative(require(j, p, "half_length"), p / "half_length");
    c.radius = positive(require(j, p, "radius"), p / "radius");
    return c;
  }
  if (kind == "segment") {
    const std::vector<Vec2> v = points(kind, require(j, p, "points"), p / "points", false);
    return SegmentShape{v[0], v[1]};
  }
  ChainShape chain;
  if (j.contains("loop")) chain.loop = boolean(j["loop"], p / "loop");
  chain.points = points(kind, require(j, p, "points"), p / "points", chain.loop);
  return chain;
}

PolygonShape BodyReader::polygon(const json& j, const Path& p) const {
  array(j, p);
  PolygonShape poly;
  for (std::size_t i = 0; i < j.size(); ++i) poly.vertices.push_back(vec2(j[i], p.at(int(i))));
  const std::string field = p.str();
  try {
    make_convex_ccw(poly.vertices, field.c_str());
  } catch (const Error& e) {
    const int n = static_cast<int>(poly.vertices.size());
    if (n >= 3 && n <= kMaxPolygonVertices) {
      if (const auto c = crossing_edges(poly.vertices))
        fail(p, "polygon is self-intersecting (edges " + std::to_string(c->first) + " and " +
                    std::to_string(c->second) + " cross)");
    }
    // The message is "<field>[<more>]: <problem>"; keep its path, prefix the file.
    const std::string msg = e.what();
    const std::size_t colon =
        msg.find(": ", msg.compare(0, field.size(), field) == 0 ? field.size() : 0);
    if (colon == std::string::npos) fail(p, msg);
    fail(msg.substr(0, colon), msg.substr(colon + 2));
  }
  return poly;
}

// A concave_polygon's outline as decompose_polygon's pieces. Its messages name the outline
// ("decompose_polygon: vertices: ...") or a point ("decompose_polygon: vertices[3]: ..."): the
// same place under `p`.
std::vector<PolygonShape> BodyReader::concave_pieces(const json& j, const Path& p) const {
  array(j, p);
  std::vector<Vec2> outline;
  for (std::size_t i = 0; i < j.size(); ++i) outline.push_back(vec2(j[i], p.at(int(i))));
  try {
    return decompose_polygon(outline);
  } catch (const Error& e) {
    std::string_view msg = e.what();
    msg.remove_prefix(msg.find(": ") + 2);  // the call
    const std::size_t colon = msg.find(": ");
    const std::string problem(msg.substr(colon + 2));
    if (msg.starts_with("vertices[")) fail(p.at(std::stoi(std::string(msg.substr(9)))), problem);
    fail(p, problem);
  }
}

// A segment's 2 points or a chain's 2..kMaxChainPoints (3.. with `loop`), neighbours at least
// kMinSize apart: a shorter edge has no reliable normal.
std::vector<Vec2> BodyReader::points(const std::string& kind, const json& j, const Path& p,
                                     bool loop) const {
  array(j, p);
  const std::size_t n = j.size();
  if (kind == "segment" && n != 2)
    fail(p, "a segment has exactly 2 points, got " + std::to_string(n));
  const std::size_t least = loop ? 3 : 2;
  if (kind == "chain" && n < least)
    fail(p, std::string(loop ? "a chain with loop" : "a chain") + " needs at least " +
                std::to_string(least) + " points, got " + std::to_string(n));
  if (kind == "chain" && n > std::size_t(kMaxChainPoints))
    fail(p, "a chain has at most " + std::to_string(kMaxChainPoints) + " points, got " +
                std::to_string(n));
  std::vector<Vec2> v;
  v.reserve(n);
  for (std::size_t i = 0; i < n; ++i) v.push_back(vec2(j[i], p.at(int(i))));
  auto check_apart = [&](std::size_t i, std::size_t prev, const char* why) {
    const float d = length(v[i] - v[prev]);
    const std::string other = "points[" + std::to_string(prev) + "]" + why;
    if (v[i] == v[prev]) fail(p.at(int(i)), "coincides with " + other);
    if (!(d >= limits::kMinSize))
      fail(p.at(int(i)), "is " + shapes::number_text(d) + " m from " + other + ", closer than " +
                             shapes::number_text(limits::kMinSize) + " m (strut/limits.hpp)");
  };
  for (std::size_t i = 1; i < n; ++i) check_apart(i, i - 1, "");
  if (loop) check_apart(n - 1, 0, " (the loop joins them)");
  return v;
}

ShapeFilter BodyReader::filter(const json& j, const Path& p) const {
  ShapeFilter f;
  if (j.contains("category")) f.category = layer_bits(j["category"], p / "category");
  if (j.contains("mask")) f.mask = layer_bits(j["mask"], p / "mask");
  if (j.contains("group")) {
    const long long g = integer(j["group"], p / "group");
    if (g < INT32_MIN || g > INT32_MAX)
      fail(p / "group", "expected a signed 32-bit integer, got " + j["group"].dump());
    f.group = static_cast<std::int32_t>(g);
  }
  return f;
}

// Limits and the body's type for one shape whose keys sit in `j` at `p` (the body itself, or an
// item of its shapes). Boxes, polygons and circles go through the world's own checks on a
// static stand-in body (sizes and polygon areas within strut/limits.hpp).
void BodyReader::check_shape(const Shape& shape, const json& j, const Path& p,
                             const BodyDef& body) const {
  if (std::holds_alternative<BoxShape>(shape) || std::holds_alternative<PolygonShape>(shape) ||
      std::holds_alternative<CircleShape>(shape)) {
    BodyDef probe;
    probe.is_static = true;
    probe.shapes = {ShapeDef{shape}};
    Shape& own = probe.shapes[0].shape;
    float radius = 0;
    if (auto* box = std::get_if<BoxShape>(&own)) radius = std::exchange(box->radius, 0.0f);
    if (auto* poly = std::get_if<PolygonShape>(&own)) radius = std::exchange(poly->radius, 0.0f);
    engine_check(probe, j, p, true);
    if (radius > limits::kMaxSize) fail(p / "radius", magnitude_problem(radius));
    return;
  }
  if (const auto* capsule = std::get_if<CapsuleShape>(&shape)) {
    const float r = capsule->radius;
    if (!(r >= limits::kMinSize && r <= limits::kMaxSize))
      fail(p / "radius", shapes::number_text(r) + " m is outside [" +
                             shapes::number_text(limits::kMinSize) + ", " +
                             shapes::number_text(limits::kMaxSize) + "] m (strut/limits.hpp)");
    if (capsule->half_length > limits::kMaxSize)
      fail(p / "half_length", magnitude_problem(capsule->half_length));
    return;
  }
  const bool chain = std::holds_alternative<ChainShape>(shape);
  if (chain && !body.is_static) fail(p / "shape", "a chain needs a static body");
  if (!chain && is_dynamic(body))
    fail(p / "shape", "a segment has no area, so no mass: it needs a static or kinematic body");
  const std::vector<Vec2> v =
      chain ? std::get<ChainShape>(shape).points
            : std::vector<Vec2>{std::get<SegmentShape>(shape).a, std::get<SegmentShape>(shape).b};
  for (std::size_t i = 0; i < v.size(); ++i) {
    const float m = std::fmax(std::fabs(v[i].x), std::fabs(v[i].y));
    if (m > limits::kMaxSize) fail((p / "points").at(int(i)), magnitude_problem(m));
  }
}

// A dynamic body's mass, density x area summed over its shapes, within strut/limits.hpp.
// Version-1 bodies are checked by validate_body_def instead (same message).
void BodyReader::check_mass(const BodyDef& d, const Path& p, std::string_view where) const {
  if (!is_dynamic(d)) return;
  double mass = 0;
  for (const ShapeDef& s : d.shapes) mass += double(s.material.density) * area_of(s.shape);
  // (A single shape's zero density was refused with its material's name.)
  if (mass == 0 && where == "shapes")
    fail(p / "shapes",
         "every shape's material has zero density; a dynamic body needs a positive mass");
  if (mass >= limits::kMinMass && mass <= limits::kMaxMass) return;
  fail(p / where, "mass " + shapes::number_text(float(mass)) + " kg (density x area) is outside [" +
                      shapes::number_text(limits::kMinMass) + ", " +
                      shapes::number_text(limits::kMaxMass) + "] kg (strut/limits.hpp)");
}

// The engine's own rules (magnitude limits, a static body that moves...), so a file can hold
// nothing World::create_body would reject. Its message starts with the BodyDef field, which
// names the key: "half_extents.x: ..." -> bodies[i].half_extents[0].
//
// A body the version-1 world does not know (compound, capsule, rounded, group, sensor) is
// checked on a stand-in: its own fields with a plain box, and kinematic if it is dynamic (the
// mass is check_mass's); its shapes are check_shape's.
void BodyReader::engine_check(const BodyDef& body, const json& j, const Path& p, bool whole) const {
  // Checked as a body with its one shape given on the body, so that the messages name that
  // shape's keys as the body's, as version 1 always did: the body's own shape when whole, else a
  // plain box on a stand-in (kinematic if dynamic: the mass is check_mass's).
  BodyDef d = body;
  d.shapes.clear();
  ShapeDef own;
  if (whole) {
    own = body.shapes[0];
  } else {
    own.shape = BoxShape{{1.0f, 1.0f}};
    if (body.shapes.size() == 1) own.material = body.shapes[0].material;  // as its own was
    d.soft = 0;
    d.is_kinematic = !body.is_static;
    d.awake = true;  // checked by body_options
  }
  try {
    validate_body_def(d, own);
  } catch (const Error& e) {
    const std::string msg = e.what();
    const std::size_t colon = msg.find(": ");
    std::string field = msg.substr(0, colon);
    const std::string problem = colon == std::string::npos ? msg : msg.substr(colon + 2);
    int component = -1;
    if (field.size() > 2 && field[field.size() - 2] == '.') {
      component = field.back() == 'y' ? 1 : 0;
      field.resize(field.size() - 2);
    }
    if (const std::size_t dot = field.find('.'); dot != std::string::npos) field.resize(dot);
    if (field == "is_kinematic") field = "kinematic";
    if (field == "is_static") field = "static";
    if (!j.contains(field)) fail(p, problem);  // a default value: the body as a whole
    const Path fp = p / field;
    if (component >= 0) fail(fp.at(component), problem);
    fail(fp, problem);
  }
}

}  // namespace strut::scene_read
