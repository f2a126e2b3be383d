#include "python/src/definitions.hpp"

#include <algorithm>

#include "solver/shapes/shape_checks.hpp"
#include "strut/material.hpp"

namespace strut::python {

using Pair = std::pair<float, float>;
using Points = std::vector<Point>;

Fields Fields::of(const py::handle& object, std::string what) {
  if (!py::isinstance<py::dict>(object))
    throw Error(what + ": expected a dict of fields, got " + std::string(py::repr(object)));
  return Fields(py::reinterpret_borrow<py::dict>(object), std::move(what));
}

void Fields::finish() const {
  for (const auto& [key, value] : items_) {
    const std::string name = py::str(key);
    if (std::find(known_.begin(), known_.end(), name) != known_.end()) continue;
    std::string list;
    for (const std::string& k : known_)
      if (list.find(" " + k + ",") == std::string::npos) list += " " + k + ",";
    list.pop_back();
    throw Error(what_ + ": unknown field \"" + name + "\" (known:" + list + ")");
  }
}

WorldSettings world_settings_of(Fields& f) {
  WorldSettings s;
  WorldConfig& c = s.config;
  c.gravity = vec2_of(f.get<Point>("gravity", {c.gravity.x, c.gravity.y}));
  c.substeps = f.get("substeps", c.substeps);
  c.iterations = f.get("iterations", c.iterations);
  c.joint_passes = f.get("joint_passes", c.joint_passes);
  c.threads = f.get("threads", c.threads);
  c.enable_sleep = f.get("enable_sleep", c.enable_sleep);
  c.sleep_time = f.get("sleep_time", c.sleep_time);
  c.sleep_speed = f.get("sleep_speed", c.sleep_speed);
  c.restitution_threshold = f.get("restitution_threshold", c.restitution_threshold);
  c.contact_slop = f.get("contact_slop", c.contact_slop);
  c.contact_hertz = f.get("contact_hertz", c.contact_hertz);
  c.contact_damping_ratio = f.get("contact_damping_ratio", c.contact_damping_ratio);
  c.contact_push_max = f.get("contact_push_max", c.contact_push_max);
  c.contact_cache = f.get("contact_cache", c.contact_cache);
  c.hit_event_threshold = f.get("hit_event_threshold", c.hit_event_threshold);
  c.contact_events = f.get("contact_events", c.contact_events);
  s.dt = f.get("dt", s.dt);
  shapes::check_step_dt(s.dt, f.what());
  return s;
}

namespace {

std::vector<Vec2> vec2s_of(const Points& points) {
  std::vector<Vec2> out;
  for (const Point& p : points) out.push_back(vec2_of(p));
  return out;
}

// A material's mixing rule by its name, as scene files write it (mix_rule_name).
MixRule mix_rule_of(Fields& f, const char* key, MixRule fallback) {
  const auto name = f.find<std::string>(key);
  if (!name) return fallback;
  if (const auto rule = mix_rule_named(*name)) return *rule;
  throw Error(f.what() + ": " + key + ": unknown mixing rule \"" + *name +
              "\" (expected default, average, min, multiply or max)");
}

}  // namespace

Shape shape_of(Fields& f) {
  static const char* const kKinds[] = {"circle", "box", "capsule", "polygon", "segment", "chain"};
  std::vector<const char*> given;
  for (const char* kind : kKinds)
    if (f.has(kind)) given.push_back(kind);
  if (given.size() != 1)
    throw Error(f.what() + ": give exactly one of circle, box, capsule, polygon, segment, chain" +
                (given.empty() ? std::string()
                               : std::string(" (got ") + given[0] + " and " + given[1] + ")"));
  const std::string kind = given[0];
  if (kind == "circle") return CircleShape{f.require<float>("circle")};
  if (kind == "box") return BoxShape{vec2_of(f.require<Point>("box")), f.get("radius", 0.0f)};
  if (kind == "capsule")
    return CapsuleShape{f.require<float>("capsule"), f.get("radius", CapsuleShape{}.radius)};
  if (kind == "polygon")
    return PolygonShape{vec2s_of(f.require<Points>("polygon")), f.get("radius", 0.0f)};
  if (kind == "segment") {
    const auto [a, b] = f.require<std::pair<Point, Point>>("segment");
    return SegmentShape{vec2_of(a), vec2_of(b)};
  }
  return ChainShape{vec2s_of(f.require<Points>("chain")), f.get("loop", false)};
}

namespace {

// The shape dict's placement, material, filter, sensor and user data around `shape`.
ShapeDef dressed(Fields& f, Shape shape) {
  ShapeDef d;
  d.shape = std::move(shape);
  d.offset = vec2_of(f.get<Point>("offset", {0.0f, 0.0f}));
  d.angle = f.get("angle", 0.0f);
  if (const auto name = f.find<std::string>("material")) d.material = material_named(*name);
  Material& m = d.material;
  m.density = f.get("density", m.density);
  m.friction = f.get("friction", m.friction);
  if (const auto s = f.find<float>("static_friction")) m.static_friction = *s;
  m.restitution = f.get("restitution", m.restitution);
  m.friction_mix = mix_rule_of(f, "friction_mix", m.friction_mix);
  m.restitution_mix = mix_rule_of(f, "restitution_mix", m.restitution_mix);
  d.rolling_resistance = f.get("rolling_resistance", d.rolling_resistance);
  d.tangent_speed = f.get("tangent_speed", d.tangent_speed);
  d.custom_filter = f.get("custom_filter", d.custom_filter);
  d.pre_solve = f.get("pre_solve", d.pre_solve);
  d.filter.category = f.get("category", d.filter.category);
  d.filter.mask = f.get("mask", d.filter.mask);
  d.filter.group = f.get("group", d.filter.group);
  d.sensor = f.get("sensor", d.sensor);
  d.user_data = f.get("user_data", d.user_data);
  return d;
}

}  // namespace

ShapeDef shape_def_of(Fields& f) { return dressed(f, shape_of(f)); }

std::vector<ShapeDef> shape_defs_of(Fields& f) {
  if (!f.has("concave_polygon")) return {shape_def_of(f)};
  for (const char* kind : {"circle", "box", "capsule", "polygon", "segment", "chain"})
    if (f.has(kind))
      throw Error(f.what() +
                  ": give exactly one of circle, box, capsule, polygon, segment, "
                  "chain, concave_polygon (got concave_polygon and " +
                  kind + ")");
  const std::vector<Vec2> outline = vec2s_of(f.require<Points>("concave_polygon"));
  const ShapeDef like = dressed(f, Shape{});
  try {
    return concave_polygon_shapes(outline, like);
  } catch (const Error& e) {
    // "decompose_polygon: vertices...: problem" -> "<what>: concave_polygon...: problem"
    const std::string msg = e.what();
    throw Error(f.what() + ": concave_polygon" + msg.substr(msg.find("vertices") + 8));
  }
}

BodyDef body_def_of(Fields& f) {
  BodyDef d;
  const std::string type = f.get<std::string>("type", "dynamic");
  if (type != "dynamic" && type != "static" && type != "kinematic")
    throw Error(f.what() + ": type must be \"dynamic\", \"static\" or \"kinematic\", got \"" +
                type + "\"");
  d.is_static = type == "static";
  d.is_kinematic = type == "kinematic";
  d.center = vec2_of(f.get<Point>("center", {0.0f, 0.0f}));
  d.angle = f.get("angle", d.angle);
  d.velocity = vec2_of(f.get<Point>("velocity", {0.0f, 0.0f}));
  d.angular_velocity = f.get("angular_velocity", d.angular_velocity);
  d.gravity_scale = f.get("gravity_scale", d.gravity_scale);
  d.linear_drag = f.get("linear_drag", d.linear_drag);
  d.angular_drag = f.get("angular_drag", d.angular_drag);
  d.fixed_rotation = f.get("fixed_rotation", d.fixed_rotation);
  d.lock_x = f.get("lock_x", d.lock_x);
  d.lock_y = f.get("lock_y", d.lock_y);
  d.bullet = f.get("bullet", d.bullet);
  d.soft = f.get("soft", d.soft);
  d.enable_sleep = f.get("enable_sleep", d.enable_sleep);
  d.awake = f.get("awake", d.awake);
  d.user_data = f.get("user_data", d.user_data);
  const bool one = f.has("shape"), many = f.has("shapes");
  if (one == many) throw Error(f.what() + ": give shape (one dict) or shapes (a list of them)");
  if (one) {
    Fields shape = Fields::of(f.require<py::object>("shape"), f.what() + ": shape");
    d.shapes = shape_defs_of(shape);
    shape.finish();
  } else {
    const py::list list = f.require<py::list>("shapes");
    for (std::size_t k = 0; k < list.size(); ++k) {
      Fields shape = Fields::of(list[k], f.what() + ": shapes[" + std::to_string(k) + "]");
      for (ShapeDef& s : shape_defs_of(shape)) d.shapes.push_back(std::move(s));
      shape.finish();
    }
  }
  return d;
}

bool is_mouse(const std::string& kind) { return kind == "mouse"; }

namespace {

JointLimit limit_of(Fields& f) {
  const auto l = f.find<Pair>("limit");
  return l ? JointLimit{true, l->first, l->second} : JointLimit{};
}
JointMotor motor_of(Fields& f) {
  const auto m = f.find<Pair>("motor");
  return m ? JointMotor{true, m->first, m->second} : JointMotor{};
}
// spring=(hertz, damping_ratio) turns it on, spring=None off.
JointSpring spring_of(Fields& f, JointSpring fallback = {}) {
  if (!f.has("spring")) return fallback;
  const auto s = f.get<std::optional<Pair>>("spring", std::nullopt);
  return s ? JointSpring{true, s->first, s->second} : JointSpring{};
}

// A revolute, prismatic or wheel joint's anchor (and axis or reference angle), limit, motor and
// spring (a wheel's on by default).
template <class Def>
Def driven_joint(Def d, Fields& f) {
  d.anchor = vec2_of(f.require<Point>("anchor"));
  if constexpr (requires { d.axis; }) d.axis = vec2_of(f.get<Point>("axis", {d.axis.x, d.axis.y}));
  if constexpr (requires { d.reference_angle; })
    d.reference_angle = f.find<float>("reference_angle");
  d.limit = limit_of(f), d.motor = motor_of(f), d.spring = spring_of(f, d.spring);
  return d;
}

}  // namespace

JointDef joint_def_of(const std::string& kind, BodyId a, BodyId b, Fields& f,
                      const std::function<Vec2(BodyId)>& origin) {
  JointDef def;
  if (kind == "distance") {
    DistanceJointDef d{.a = a, .b = b};
    d.anchor_a = vec2_of(f.require<Point>("anchor_a"));
    d.anchor_b = vec2_of(f.require<Point>("anchor_b"));
    d.length = f.get("length", d.length);
    d.min_length = f.get("min_length", d.min_length);
    d.max_length = f.get("max_length", d.max_length);
    d.spring = spring_of(f);
    d.compliance = f.get("compliance", d.compliance);
    def = d;
  } else if (kind == "revolute") {
    def = driven_joint(RevoluteJointDef{.a = a, .b = b}, f);
  } else if (kind == "prismatic") {
    def = driven_joint(PrismaticJointDef{.a = a, .b = b}, f);
  } else if (kind == "wheel") {
    def = driven_joint(WheelJointDef{.a = a, .b = b}, f);
  } else if (is_mouse(kind)) {
    MouseJointDef d{.body = b};
    d.target = vec2_of(f.require<Point>("target"));
    if (const auto p = f.find<Point>("anchor")) d.anchor = vec2_of(*p);
    d.max_force = f.require<float>("max_force");
    d.hertz = f.get("hertz", d.hertz);
    d.damping_ratio = f.get("damping_ratio", d.damping_ratio);
    def = d;
  } else if (kind == "motor") {
    MotorJointDef d{.a = a, .b = b};
    d.linear_offset = vec2_of(f.get<Point>("linear_offset", {0.0f, 0.0f}));
    d.angular_offset = f.get("angular_offset", d.angular_offset);
    d.max_force = f.require<float>("max_force");
    d.max_torque = f.require<float>("max_torque");
    def = d;
  } else if (kind == "weld") {
    WeldJointDef d{.a = a, .b = b};
    const Vec2 at = origin(a);
    d.anchor = vec2_of(f.get<Point>("anchor", {at.x, at.y}));
    d.reference_angle = f.find<float>("reference_angle");
    d.linear_hertz = f.get("linear_hertz", d.linear_hertz);
    d.angular_hertz = f.get("angular_hertz", d.angular_hertz);
    d.damping_ratio = f.get("damping_ratio", d.damping_ratio);
    def = d;
  } else {
    throw Error(f.what() + ": unknown joint type \"" + kind +
                "\" (distance, revolute, prismatic, wheel, mouse, motor, weld)");
  }
  std::visit(
      [&](auto& d) {
        if constexpr (requires { d.collide; }) d.collide = f.get("collide", d.collide);
        d.force_threshold = f.get("force_threshold", d.force_threshold);
        d.torque_threshold = f.get("torque_threshold", d.torque_threshold);
      },
      def);
  return def;
}

}  // namespace strut::python
