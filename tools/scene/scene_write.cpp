// Scene -> JSON text in the scene file format: one body or joint per line, keys left out where
// they hold their default, floats in their shortest round-tripping form. The pieces a
// concave_polygon loaded as are written as that concave_polygon again (scene_concave.hpp).
#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "strut/scene.hpp"
#include "tools/scene/json_text.hpp"
#include "tools/scene/scene_concave.hpp"

namespace strut {
namespace {

using json_text::append_number;
using json_text::append_string;
using json_text::append_vec2;
using scene_write::ConcaveRun;

// Names every material the bodies use: the scene's own names first, then the built-in table;
// a material found in neither (a captured world) gets a made-up name and joins the extras.
class MaterialNames {
 public:
  explicit MaterialNames(const Scene& s) : extras_(s.materials) {
    for (const std::string& name : builtin_material_names())
      builtins_.emplace_back(name, material_named(name));
  }
  std::string name_of(const Material& m) {
    for (const auto& [name, value] : extras_)
      if (value == m) return name;
    for (const auto& [name, value] : builtins_)
      if (value == m) return name;
    std::string name;
    for (int k = static_cast<int>(extras_.size()) + 1;; ++k) {
      name = "material_" + std::to_string(k);
      bool taken = false;
      for (const auto& e : extras_) taken = taken || e.first == name;
      if (!taken) break;
    }
    extras_.emplace_back(name, m);
    return name;
  }
  const std::vector<std::pair<std::string, Material>>& extras() const { return extras_; }

 private:
  std::vector<std::pair<std::string, Material>> extras_, builtins_;
};

void append_key(std::string& out, const char* key) {
  out += ", \"";
  out += key;
  out += "\": ";
}

void append_points(std::string& out, const char* key, const std::vector<Vec2>& v) {
  append_key(out, key);
  out += '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += ", ";
    append_vec2(out, v[i]);
  }
  out += ']';
}

// The shape kind's own keys, each as ", \"key\": value" (rounding radius only when non-zero).
void append_shape_keys(std::string& out, const Shape& shape) {
  auto points = [&](const char* key, const std::vector<Vec2>& v) { append_points(out, key, v); };
  auto corner_radius = [&](float r) {
    if (r != 0) append_key(out, "radius"), append_number(out, r);
  };
  if (const auto* box = std::get_if<BoxShape>(&shape)) {
    append_key(out, "half_extents"), append_vec2(out, box->half_extents);
    corner_radius(box->radius);
  } else if (const auto* circle = std::get_if<CircleShape>(&shape)) {
    append_key(out, "radius"), append_number(out, circle->radius);
  } else if (const auto* poly = std::get_if<PolygonShape>(&shape)) {
    points("vertices", poly->vertices);
    corner_radius(poly->radius);
  } else if (const auto* capsule = std::get_if<CapsuleShape>(&shape)) {
    append_key(out, "half_length"), append_number(out, capsule->half_length);
    append_key(out, "radius"), append_number(out, capsule->radius);
  } else if (const auto* segment = std::get_if<SegmentShape>(&shape)) {
    points("points", {segment->a, segment->b});
  } else {
    const auto& chain = std::get<ChainShape>(shape);
    points("points", chain.points);
    if (chain.loop) out += ", \"loop\": true";
  }
}

const char* kind_name(const Shape& shape) {
  static constexpr const char* kNames[] = {"box",     "polygon", "circle",
                                           "capsule", "segment", "chain"};
  static_assert(std::variant_size_v<Shape> == std::size(kNames));
  return kNames[shape.index()];
}

void append_filter(std::string& out, const ShapeFilter& f) {
  const ShapeFilter def;
  if (f.category != def.category) append_key(out, "category"), out += std::to_string(f.category);
  if (f.mask != def.mask) append_key(out, "mask"), out += std::to_string(f.mask);
  if (f.group != def.group) append_key(out, "group"), out += std::to_string(f.group);
}

// One item of a compound body's `shapes`: the shape `s`, or the concave_polygon `outline` whose
// pieces are dressed as `s`.
void append_shape_item(std::string& out, const ShapeDef& s, const std::string& material,
                       const std::vector<Vec2>* outline) {
  out += "{\"shape\": \"";
  out += outline ? "concave_polygon" : kind_name(s.shape);
  out += '"';
  if (outline)
    append_points(out, "vertices", *outline);
  else
    append_shape_keys(out, s.shape);
  if (!(s.offset == Vec2{})) append_key(out, "offset"), append_vec2(out, s.offset);
  if (s.angle != 0) append_key(out, "angle"), append_number(out, s.angle);
  if (material != "default") append_key(out, "material"), append_string(out, material);
  append_filter(out, s.filter);
  if (s.sensor) out += ", \"sensor\": true";
  if (s.tangent_speed != 0) append_key(out, "tangent_speed"), append_number(out, s.tangent_speed);
  if (s.rolling_resistance != 0)
    append_key(out, "rolling_resistance"), append_number(out, s.rolling_resistance);
  if (s.custom_filter) out += ", \"custom_filter\": true";
  if (s.pre_solve) out += ", \"pre_solve\": true";
  out += '}';
}

// Whether a shape may sit on the body itself: unplaced, without the keys only an item of
// `shapes` has.
bool fits_on_body(const ShapeDef& s) {
  return s.offset == Vec2{} && s.angle == 0 && s.tangent_speed == 0 && s.rolling_resistance == 0 &&
         !s.custom_filter && !s.pre_solve;
}

// Whether a body is written with its one shape's keys on the body (the version-1 layout).
bool shape_on_body(const BodyDef& d) { return d.shapes.size() == 1 && fits_on_body(d.shapes[0]); }

// Whether a body is one concave_polygon that may sit on the body itself: all of its shapes one
// run that fits there.
bool single_concave(const BodyDef& d, const std::vector<ConcaveRun>& runs) {
  return runs.size() == 1 && runs[0].count == d.shapes.size() && fits_on_body(d.shapes[0]);
}

// A body: one shape with its keys on the body (the version-1 layout; a concave_polygon too), or
// a compound body with `shapes` last. `materials` names each shape's material; `runs` are the
// body's concave_polygon items.
void append_body(std::string& out, const SceneBody& b, const std::vector<std::string>& materials,
                 const std::vector<ConcaveRun>& runs) {
  const BodyDef& d = b.def;
  const bool concave = single_concave(d, runs);
  const bool compound = !shape_on_body(d) && !concave;
  out += "{";
  if (!b.name.empty()) {
    out += "\"name\": ";
    append_string(out, b.name);
    out += ", ";
  }
  if (compound) {
    out += "\"center\": ";
    append_vec2(out, d.center);
  } else {
    out += "\"shape\": \"";
    out += concave ? "concave_polygon" : kind_name(d.shapes[0].shape);
    out += '"';
    append_key(out, "center");
    append_vec2(out, d.center);
    if (concave)
      append_points(out, "vertices", runs[0].outline);
    else
      append_shape_keys(out, d.shapes[0].shape);
  }
  const BodyDef def;  // the defaults, left out
  if (d.angle != def.angle) append_key(out, "angle"), append_number(out, d.angle);
  if (!(d.velocity == def.velocity)) append_key(out, "velocity"), append_vec2(out, d.velocity);
  if (d.angular_velocity != def.angular_velocity)
    append_key(out, "angular_velocity"), append_number(out, d.angular_velocity);
  // A single shape's (or concave_polygon's) material and filter sit on the body.
  if (!compound && materials[0] != "default")
    append_key(out, "material"), append_string(out, materials[0]);
  if (d.is_static) out += ", \"static\": true";
  if (d.is_kinematic) out += ", \"kinematic\": true";
  if (d.gravity_scale != def.gravity_scale)
    append_key(out, "gravity_scale"), append_number(out, d.gravity_scale);
  if (d.linear_drag != def.linear_drag)
    append_key(out, "linear_drag"), append_number(out, d.linear_drag);
  if (!compound) {
    append_filter(out, d.shapes[0].filter);
    if (d.shapes[0].sensor) out += ", \"sensor\": true";
  }
  if (d.bullet) out += ", \"bullet\": true";
  if (d.fixed_rotation) out += ", \"fixed_rotation\": true";
  if (d.lock_x) out += ", \"lock_x\": true";
  if (d.lock_y) out += ", \"lock_y\": true";
  if (!d.awake) out += ", \"awake\": false";
  if (d.angular_drag != def.angular_drag)
    append_key(out, "angular_drag"), append_number(out, d.angular_drag);
  if (d.soft != def.soft) append_key(out, "soft"), append_number(out, d.soft);
  if (compound) {
    out += ", \"shapes\": [";
    std::size_t run = 0;
    for (std::size_t i = 0; i < d.shapes.size(); ++i) {
      if (i) out += ", ";
      const bool starts_run = run < runs.size() && runs[run].first == i;
      append_shape_item(out, d.shapes[i], materials[i], starts_run ? &runs[run].outline : nullptr);
      if (starts_run) i += runs[run++].count - 1;
    }
    out += ']';
  }
  out += "}";
}

// Whether a body needs version 2 of the format: several shapes, a kind or key version 1 lacks.
bool needs_version_2(const BodyDef& d) {
  if (d.fixed_rotation || d.lock_x || d.lock_y || d.angular_drag != 0 || !d.awake ||
      !shape_on_body(d) || d.shapes[0].filter.group != 0 || d.shapes[0].sensor)
    return true;
  const Shape& shape = d.shapes[0].shape;
  if (const auto* box = std::get_if<BoxShape>(&shape)) return box->radius != 0;
  if (const auto* poly = std::get_if<PolygonShape>(&shape)) return poly->radius != 0;
  return !std::holds_alternative<CircleShape>(shape);
}

// Whether a scene needs version 3 of the format: a material with a mixing rule (those the file
// lists: the scene's own and the made-up names), a shape with a contact callback's flag.
bool needs_version_3(const Scene& s, const std::vector<std::pair<std::string, Material>>& extras) {
  for (const auto& [name, m] : extras)
    if (m.friction_mix != MixRule::Default || m.restitution_mix != MixRule::Default) return true;
  for (const SceneBody& b : s.bodies)
    for (const ShapeDef& shape : b.def.shapes)
      if (shape.custom_filter || shape.pre_solve) return true;
  return false;
}

// Whether a joint has a finite force or torque threshold (the thresholds are version 2 keys).
bool has_event_threshold(const JointDef& def) {
  return std::visit(
      [](const auto& d) {
        return std::isfinite(d.force_threshold) || std::isfinite(d.torque_threshold);
      },
      def);
}

// Whether a joint needs version 2 of the format (a name, a type or setting version 1 lacks).
bool needs_version_2(const SceneJoint& j) {
  if (!j.name.empty() || has_event_threshold(j.def)) return true;
  return std::visit(
      [](const auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, DistanceJointDef>)
          return d.spring.enabled;
        else if constexpr (std::is_same_v<D, RevoluteJointDef>)
          return d.limit.enabled || d.motor.enabled || d.spring.enabled;
        else if constexpr (std::is_same_v<D, WeldJointDef>)
          return d.linear_hertz != 0 || d.angular_hertz != 0;
        else
          return true;
      },
      j.def);
}

void append_spring(std::string& out, const JointSpring& s, bool always) {
  if (!s.enabled && !always) return;
  append_key(out, "spring_hertz"), append_number(out, s.enabled ? s.hertz : 0.0f);
  append_key(out, "spring_damping"), append_number(out, s.damping_ratio);
}
void append_motor(std::string& out, const JointMotor& m, const char* max_key) {
  if (!m.enabled) return;
  append_key(out, "motor_speed"), append_number(out, m.speed);
  append_key(out, max_key), append_number(out, m.max_effort);
}
void append_limit(std::string& out, const JointLimit& l, const char* lower, const char* upper) {
  if (!l.enabled) return;
  append_key(out, lower), append_number(out, l.lower);
  append_key(out, upper), append_number(out, l.upper);
}

void append_joint(std::string& out, const SceneJoint& j, bool version_2) {
  const JointType type = type_of(j.def);
  out += "{\"type\": \"";
  out += !version_2 && type == JointType::Revolute ? "pin" : joint_type_name(type);
  out += "\"";
  if (!j.name.empty()) append_key(out, "name"), append_string(out, j.name);
  if (type != JointType::Mouse) append_key(out, "a"), append_string(out, j.a);
  append_key(out, "b");
  append_string(out, j.b);
  bool collide = false;
  std::visit(
      [&](const auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (requires { d.collide; }) collide = d.collide;
        if constexpr (requires { d.anchor_a; }) {
          append_key(out, "anchor_a"), append_vec2(out, d.anchor_a);
          append_key(out, "anchor_b"), append_vec2(out, d.anchor_b);
        } else if constexpr (std::is_same_v<D, MouseJointDef>) {
          append_key(out, "target"), append_vec2(out, d.target);
          if (d.anchor) append_key(out, "anchor"), append_vec2(out, *d.anchor);
        } else if constexpr (requires { d.anchor; }) {
          append_key(out, "anchor"), append_vec2(out, d.anchor);
        }
        if constexpr (requires { d.axis; }) append_key(out, "axis"), append_vec2(out, d.axis);
        if constexpr (std::is_same_v<D, DistanceJointDef>) {
          if (d.length >= 0) append_key(out, "length"), append_number(out, d.length);
          if (d.max_length >= 0) {
            append_key(out, "min_length");
            append_number(out, d.min_length < 0 ? 0.0f : d.min_length);
            append_key(out, "max_length");
            append_number(out, d.max_length);
          }
          if (d.compliance != 0) append_key(out, "compliance"), append_number(out, d.compliance);
          append_spring(out, d.spring, false);
        } else if constexpr (std::is_same_v<D, RevoluteJointDef>) {
          append_limit(out, d.limit, "lower_angle", "upper_angle");
          append_motor(out, d.motor, "max_motor_torque");
          append_spring(out, d.spring, false);
        } else if constexpr (std::is_same_v<D, PrismaticJointDef>) {
          append_limit(out, d.limit, "lower", "upper");
          append_motor(out, d.motor, "max_motor_force");
          append_spring(out, d.spring, false);
        } else if constexpr (std::is_same_v<D, WheelJointDef>) {
          append_limit(out, d.limit, "lower", "upper");
          append_motor(out, d.motor, "max_motor_torque");
          append_spring(out, d.spring, true);
        } else if constexpr (std::is_same_v<D, MouseJointDef>) {
          append_key(out, "max_force"), append_number(out, d.max_force);
          append_key(out, "hertz"), append_number(out, d.hertz);
          append_key(out, "damping"), append_number(out, d.damping_ratio);
        } else if constexpr (std::is_same_v<D, MotorJointDef>) {
          append_key(out, "max_force"), append_number(out, d.max_force);
          append_key(out, "max_torque"), append_number(out, d.max_torque);
          if (!(d.linear_offset == Vec2{}))
            append_key(out, "linear_offset"), append_vec2(out, d.linear_offset);
          if (d.angular_offset != 0)
            append_key(out, "angular_offset"), append_number(out, d.angular_offset);
        } else if constexpr (std::is_same_v<D, WeldJointDef>) {
          if (d.linear_hertz != 0)
            append_key(out, "linear_hertz"), append_number(out, d.linear_hertz);
          if (d.angular_hertz != 0)
            append_key(out, "angular_hertz"), append_number(out, d.angular_hertz);
          if (d.damping_ratio != 0) append_key(out, "damping"), append_number(out, d.damping_ratio);
        }
      },
      j.def);
  std::visit(
      [&](const auto& d) {
        // Infinity (no events) is left out: JSON has no number for it.
        if (std::isfinite(d.force_threshold))
          append_key(out, "force_threshold"), append_number(out, d.force_threshold);
        if (std::isfinite(d.torque_threshold))
          append_key(out, "torque_threshold"), append_number(out, d.torque_threshold);
      },
      j.def);
  if (collide) out += ", \"collide\": true";
  out += "}";
}

// A tile map: its keys on one line, then `rows`, one row of tile indices per line.
void append_tile_map(std::string& out, const TileMapDef& t,
                     const std::vector<std::string>& materials) {
  out += "{\"origin\": ";
  append_vec2(out, t.origin);
  append_key(out, "tile_size"), append_number(out, t.tile_size);
  const TileMapDef def;  // the defaults, left out
  if (t.floor_gravity != def.floor_gravity)
    append_key(out, "floor_gravity"), append_number(out, t.floor_gravity);
  if (t.floor_stop_speed != def.floor_stop_speed)
    append_key(out, "floor_stop_speed"), append_number(out, t.floor_stop_speed);
  append_key(out, "materials");
  out += '[';
  for (std::size_t i = 0; i < t.materials.size(); ++i) {
    if (i) out += ", ";
    if (t.materials[i].floor) out += "{\"material\": ";
    append_string(out, materials[i]);
    if (t.materials[i].floor) out += ", \"floor\": true}";
  }
  out += ']';
  append_key(out, "rows");
  out += '[';
  for (int r = 0; r < t.rows; ++r) {
    out += r ? ",\n      [" : "\n      [";
    for (int c = 0; c < t.cols; ++c) {
      if (c) out += ", ";
      out += std::to_string(t.tiles[std::size_t(r) * std::size_t(t.cols) + std::size_t(c)]);
    }
    out += ']';
  }
  out += "]}";
}

template <typename T, typename F>
void append_list(std::string& out, const char* key, const std::vector<T>& items, F&& item) {
  out += ",\n  \"";
  out += key;
  out += "\": [";
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += i ? ",\n    " : "\n    ";
    item(items[i], i);
  }
  out += items.empty() ? "]" : "\n  ]";
}

}  // namespace

std::string scene_to_json(const Scene& s) {
  MaterialNames names(s);
  std::vector<std::vector<std::string>> body_materials;  // each of its shapes'
  std::vector<std::vector<ConcaveRun>> body_runs;        // each compound's concave_polygons
  body_materials.reserve(s.bodies.size());
  body_runs.reserve(s.bodies.size());
  bool concave = false;  // a concave_polygon is written: version 3
  for (const SceneBody& b : s.bodies) {
    std::vector<std::string>& m = body_materials.emplace_back();
    for (const ShapeDef& shape : b.def.shapes) m.push_back(names.name_of(shape.material));
    body_runs.push_back(scene_write::concave_runs(b.def.shapes));
    concave = concave || !body_runs.back().empty();
  }
  std::vector<std::vector<std::string>> tile_materials;  // per tile map, per material
  for (const TileMapDef& t : s.tile_maps) {
    std::vector<std::string>& m = tile_materials.emplace_back();
    for (const TileMaterial& tm : t.materials) m.push_back(names.name_of(tm.material));
  }

  std::string out;
  out.reserve(1024 + s.bodies.size() * 80 + s.joints.size() * 120);
  const bool version_3 = concave || needs_version_3(s, names.extras());
  bool version_2 = version_3 || !s.tile_maps.empty();
  for (const SceneJoint& j : s.joints) version_2 = version_2 || needs_version_2(j);
  for (const SceneBody& b : s.bodies) version_2 = version_2 || needs_version_2(b.def);
  version_2 = version_2 || version_3;
  out += "{\n  \"format\": \"strut-scene\",\n  \"version\": ";
  out += version_3 ? "3" : version_2 ? "2" : "1";
  out += ",\n  \"description\": ";
  append_string(out, s.description);
  const WorldConfig& c = s.config;
  out += ",\n  \"world\": {\"gravity\": ";
  append_vec2(out, c.gravity);
  append_key(out, "dt");
  append_number(out, s.dt);
  append_key(out, "substeps");
  out += std::to_string(c.substeps);
  append_key(out, "iterations");
  out += std::to_string(c.iterations);
  append_key(out, "steps");
  out += std::to_string(s.steps);
  append_key(out, "sleep");
  out += c.enable_sleep ? "true" : "false";
  append_key(out, "sleep_time");
  append_number(out, c.sleep_time);
  append_key(out, "sleep_speed");
  append_number(out, c.sleep_speed);
  append_key(out, "restitution_threshold");
  append_number(out, c.restitution_threshold);
  append_key(out, "contact_slop");
  append_number(out, c.contact_slop);
  append_key(out, "contact_cache");
  out += c.contact_cache ? "true" : "false";
  out += "},\n  \"materials\": {";
  const auto& extras = names.extras();
  for (std::size_t i = 0; i < extras.size(); ++i) {
    const Material& m = extras[i].second;
    out += i ? ",\n    " : "\n    ";
    append_string(out, extras[i].first);
    out += ": {\"density\": ";
    append_number(out, m.density);
    append_key(out, "friction");
    append_number(out, m.friction);
    if (m.static_friction) {
      append_key(out, "static_friction");
      append_number(out, *m.static_friction);
    }
    append_key(out, "restitution");
    append_number(out, m.restitution);
    if (m.friction_mix != MixRule::Default)
      append_key(out, "friction_mix"), append_string(out, mix_rule_name(m.friction_mix));
    if (m.restitution_mix != MixRule::Default)
      append_key(out, "restitution_mix"), append_string(out, mix_rule_name(m.restitution_mix));
    out += "}";
  }
  out += extras.empty() ? "}" : "\n  }";
  if (!s.tile_maps.empty())
    append_list(out, "tile_maps", s.tile_maps, [&](const TileMapDef& t, std::size_t i) {
      append_tile_map(out, t, tile_materials[i]);
    });
  append_list(out, "bodies", s.bodies, [&](const SceneBody& b, std::size_t i) {
    append_body(out, b, body_materials[i], body_runs[i]);
  });
  append_list(out, "joints", s.joints,
              [&](const SceneJoint& j, std::size_t) { append_joint(out, j, version_2); });
  out += "\n}\n";
  return out;
}

void save_scene_file(const Scene& scene, const std::string& path) {
  const std::string text = scene_to_json(scene);
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw SceneError(path, "", "cannot write the file");
}

}  // namespace strut
