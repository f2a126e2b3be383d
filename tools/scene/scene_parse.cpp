// JSON scene file -> Scene, validating everything before returning, so a bad file is rejected
// whole. This part reads the document, the world, the materials and the joints, and holds the
// typed value access all parts use; scene_parse_shapes.cpp reads the bodies and their shapes,
// scene_parse_tiles.cpp the tile maps.
#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>

#include "solver/shapes/shape_checks.hpp"
#include "strut/limits.hpp"
#include "strut/scene.hpp"
#include "tools/scene/scene_parse_internal.hpp"

namespace strut {
namespace scene_read {

std::string Path::str() const {
  if (!parent) return "(root)";
  std::string s = parent->parent ? parent->str() : std::string();
  if (index >= 0) return s + "[" + std::to_string(index) + "]";
  return s.empty() ? std::string(key) : s + "." + std::string(key);
}

std::string describe(const json& j) {
  if (j.is_object()) return "an object";
  if (j.is_array()) return "an array";
  std::string s = j.dump();
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

void ValueReader::fail(const std::string& path, const std::string& problem) const {
  throw SceneError(file_, path, problem);
}
void ValueReader::fail(const Path& p, const std::string& problem) const { fail(p.str(), problem); }

void ValueReader::only_keys(const json& j, const Path& p,
                            std::initializer_list<std::string_view> keys) const {
  if (!j.is_object()) fail(p, "expected an object, got " + describe(j));
  for (const auto& [k, v] : j.items()) {
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) fail(p / k, "unknown key");
  }
}
const json& ValueReader::require(const json& j, const Path& p, const char* key) const {
  const auto it = j.find(key);
  if (it == j.end()) fail(p, std::string("missing key \"") + key + "\"");
  return *it;
}
const json& ValueReader::array(const json& j, const Path& p) const {
  if (!j.is_array()) fail(p, "expected an array, got " + describe(j));
  return j;
}
std::string ValueReader::string(const json& j, const Path& p) const {
  if (!j.is_string()) fail(p, "expected a string, got " + describe(j));
  return j.get<std::string>();
}
bool ValueReader::boolean(const json& j, const Path& p) const {
  if (!j.is_boolean()) fail(p, "expected true or false, got " + describe(j));
  return j.get<bool>();
}
float ValueReader::number(const json& j, const Path& p) const {
  if (!j.is_number()) fail(p, "expected a number, got " + describe(j));
  const double d = j.get<double>();
  if (!std::isfinite(d)) fail(p, "not a finite number");
  if (std::fabs(d) > FLT_MAX) fail(p, "number " + j.dump() + " is too large for a float");
  return static_cast<float>(d);
}
float ValueReader::positive(const json& j, const Path& p) const {
  const float v = number(j, p);
  if (!(v > 0)) fail(p, "must be positive, got " + j.dump());
  return v;
}
float ValueReader::non_negative(const json& j, const Path& p) const {
  const float v = number(j, p);
  if (v < 0) fail(p, "must not be negative, got " + j.dump());
  return v;
}
long long ValueReader::integer(const json& j, const Path& p) const {
  if (j.is_number_unsigned()) {
    const auto u = j.get<std::uint64_t>();
    if (u > std::uint64_t(1) << 53) fail(p, "integer " + j.dump() + " is too large");
    return static_cast<long long>(u);
  }
  if (j.is_number_integer()) return j.get<long long>();
  if (j.is_number_float()) {
    const double d = j.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) <= 9007199254740992.0)
      return static_cast<long long>(d);
  }
  fail(p, "expected an integer, got " + describe(j));
}
int ValueReader::positive_int(const json& j, const Path& p, long long max) const {
  const long long v = integer(j, p);
  if (v <= 0) fail(p, "must be positive, got " + std::to_string(v));
  if (v > max) fail(p, std::to_string(v) + " is too large (at most " + std::to_string(max) + ")");
  return static_cast<int>(v);
}
float ValueReader::in_range(const json& j, const Path& p, float lo, float hi) const {
  const float v = number(j, p);
  if (!(v >= lo && v <= hi))
    fail(p, j.dump() + " is outside [" + shapes::number_text(lo) + ", " + shapes::number_text(hi) +
                "] (strut/limits.hpp)");
  return v;
}
std::uint32_t ValueReader::layer_bits(const json& j, const Path& p) const {
  const long long v = j.is_number() ? integer(j, p) : -1;
  if (v < 0 || v > 0xFFFFFFFFll) fail(p, "expected an unsigned 32-bit integer, got " + describe(j));
  return static_cast<std::uint32_t>(v);
}
Vec2 ValueReader::vec2(const json& j, const Path& p) const {
  if (!j.is_array() || j.size() != 2) fail(p, "expected [x, y], got " + describe(j));
  return {number(j[0], p.at(0)), number(j[1], p.at(1))};
}

}  // namespace scene_read

namespace {

using namespace scene_read;

// nlohmann keeps the last of two equal keys silently; a scene file with a duplicated key is as
// suspicious as one with a misspelled key, so the parser callback records the first duplicate.
class DuplicateKeyFinder {
 public:
  bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
    using E = json::parse_event_t;
    switch (event) {
      case E::object_start:
        element();
        stack_.emplace_back().array = false;
        break;
      case E::array_start:
        element();
        stack_.emplace_back().array = true;
        break;
      case E::object_end:
      case E::array_end:
        stack_.pop_back();
        break;
      case E::value:
        element();
        break;
      case E::key: {
        Frame& f = stack_.back();
        const std::string& k = parsed.get_ref<const std::string&>();
        if (!found_ && std::find(f.keys.begin(), f.keys.end(), k) != f.keys.end())
          found_ = object_path() + (stack_.size() > 1 ? "." : "") + k;
        f.keys.push_back(k);
        f.key = k;
        break;
      }
    }
    return true;
  }
  const std::optional<std::string>& found() const { return found_; }

 private:
  struct Frame {
    bool array = false;
    int index = -1;
    std::string key;
    std::vector<std::string> keys;
  };
  void element() {
    if (!stack_.empty() && stack_.back().array) ++stack_.back().index;
  }
  std::string object_path() const {
    std::string s;
    for (std::size_t i = 0; i + 1 < stack_.size(); ++i) {
      if (stack_[i].array)
        s += "[" + std::to_string(stack_[i].index) + "]";
      else
        s += (s.empty() ? "" : ".") + stack_[i].key;
    }
    return s;
  }
  std::vector<Frame> stack_;
  std::optional<std::string> found_;
};

// "line L, column C" of the first occurrence of `token` in `text`.
std::string position_of(std::string_view text, std::string_view token) {
  const std::size_t at = text.find(token);
  if (at == std::string_view::npos) return "(root)";
  int line = 1, column = 1;
  for (std::size_t i = 0; i < at; ++i) {
    if (text[i] == '\n')
      ++line, column = 1;
    else
      ++column;
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

std::string one_line(std::string s) {
  std::string out;
  for (const char c : s) {
    if (c == '\n')
      out += "<LF>";
    else if (static_cast<unsigned char>(c) < 0x20)
      out += ' ';
    else
      out += c;
  }
  return out;
}

// True when two edges that do not share a vertex cross (a bow tie). Only used to name the

class Reader : public BodyReader {
 public:
  using BodyReader::BodyReader;

  Scene scene(const json& doc) {
    const Path root;
    only_keys(doc, root,
              {"format", "version", "description", "world", "materials", "tile_maps", "bodies",
               "joints"});
    Scene s;
    s.source = file_;
    if (doc.contains("format") && string(doc["format"], root / "format") != "strut-scene")
      fail(root / "format", "expected \"strut-scene\", got " + describe(doc["format"]));
    if (doc.contains("version")) {
      const long long v = integer(doc["version"], root / "version");
      if (v < 1 || v > 3)
        fail(root / "version",
             "unsupported version " + std::to_string(v) + " (expected 1, 2 or 3)");
      version_ = int(v);
    }
    if (doc.contains("description"))
      s.description = string(doc["description"], root / "description");
    if (doc.contains("world"))
      world(doc["world"], root / "world", s);
    else
      s.steps = default_steps(s.dt);
    if (doc.contains("materials")) materials(doc["materials"], root / "materials", s);
    if (doc.contains("tile_maps")) {
      const Path p = root / "tile_maps";
      if (version_ < 2) fail(p, "unknown key (tile maps need \"version\": 2)");
      const json& arr = array(doc["tile_maps"], p);
      for (std::size_t i = 0; i < arr.size(); ++i)
        s.tile_maps.push_back(tile_map(arr[i], p.at(int(i))));
    }
    if (doc.contains("bodies")) {
      const Path p = root / "bodies";
      const json& arr = array(doc["bodies"], p);
      s.bodies.reserve(arr.size());
      for (std::size_t i = 0; i < arr.size(); ++i) s.bodies.push_back(body(arr[i], p.at(int(i))));
    }
    if (doc.contains("joints")) {
      const Path p = root / "joints";
      const json& arr = array(doc["joints"], p);
      for (std::size_t i = 0; i < arr.size(); ++i) s.joints.push_back(joint(arr[i], p.at(int(i))));
    }
    return s;
  }

 private:
  // --- sections ---------------------------------------------------------------------------
  static int default_steps(float dt) {
    // "A few seconds": 10 s of simulated time (600 steps at 60 Hz).
    return static_cast<int>(std::clamp(std::lround(10.0 / dt), 1l, 1000000000l));
  }

  void world(const json& j, const Path& p, Scene& s) const {
    only_keys(j, p,
              {"gravity", "dt", "substeps", "iterations", "steps", "sleep", "sleep_time",
               "sleep_speed", "restitution_threshold", "contact_slop", "contact_cache"});
    WorldConfig& c = s.config;
    if (j.contains("gravity")) {
      const Path gp = p / "gravity";
      const json& g = j["gravity"];
      vec2(g, gp);  // the shape of the value first
      c.gravity = {in_range(g[0], gp.at(0), -limits::kMaxGravity, limits::kMaxGravity),
                   in_range(g[1], gp.at(1), -limits::kMaxGravity, limits::kMaxGravity)};
    }
    if (j.contains("dt")) s.dt = in_range(j["dt"], p / "dt", limits::kMinDt, limits::kMaxDt);
    if (j.contains("substeps"))
      c.substeps = positive_int(j["substeps"], p / "substeps", limits::kMaxSubsteps);
    if (j.contains("iterations"))
      c.iterations = positive_int(j["iterations"], p / "iterations", limits::kMaxIterations);
    s.steps = j.contains("steps") ? positive_int(j["steps"], p / "steps") : default_steps(s.dt);
    if (j.contains("sleep")) c.enable_sleep = boolean(j["sleep"], p / "sleep");
    if (j.contains("sleep_time")) c.sleep_time = non_negative(j["sleep_time"], p / "sleep_time");
    if (j.contains("sleep_speed"))
      c.sleep_speed = non_negative(j["sleep_speed"], p / "sleep_speed");
    if (j.contains("restitution_threshold"))
      c.restitution_threshold =
          non_negative(j["restitution_threshold"], p / "restitution_threshold");
    if (j.contains("contact_slop"))
      c.contact_slop = non_negative(j["contact_slop"], p / "contact_slop");
    if (j.contains("contact_cache"))
      c.contact_cache = boolean(j["contact_cache"], p / "contact_cache");
  }

  void materials(const json& j, const Path& p, Scene& s) {
    if (!j.is_object()) fail(p, "expected an object, got " + describe(j));
    for (const auto& [name, v] : j.items()) {
      const Path mp = p / name;
      if (is_builtin_material(name)) fail(mp, "redefines the built-in material \"" + name + "\"");
      // The mixing rules are version-3 keys.
      if (version_ < 3)
        for (const char* key : {"friction_mix", "restitution_mix"})
          if (v.is_object() && v.contains(key))
            fail(mp / key, "unknown key (material mixing rules need \"version\": 3)");
      only_keys(v, mp,
                {"density", "friction", "static_friction", "restitution", "friction_mix",
                 "restitution_mix"});
      Material m;  // the `default` material's values
      if (v.contains("density")) m.density = non_negative(v["density"], mp / "density");
      if (v.contains("friction")) m.friction = non_negative(v["friction"], mp / "friction");
      if (v.contains("static_friction"))  // unset, it equals friction (static_friction_of)
        m.static_friction = non_negative(v["static_friction"], mp / "static_friction");
      if (v.contains("restitution")) {
        m.restitution = non_negative(v["restitution"], mp / "restitution");
        if (m.restitution > 1)
          fail(mp / "restitution", "must be at most 1, got " + v["restitution"].dump());
      }
      if (v.contains("friction_mix"))
        m.friction_mix = mix_rule(v["friction_mix"], mp / "friction_mix");
      if (v.contains("restitution_mix"))
        m.restitution_mix = mix_rule(v["restitution_mix"], mp / "restitution_mix");
      try {
        validate_material(m, "");  // the engine's own upper bounds
      } catch (const Error& e) {
        const std::string msg = e.what();  // ".field: problem"
        const std::size_t colon = msg.find(": ");
        fail(mp / msg.substr(1, colon - 1), msg.substr(colon + 2));
      }
      materials_[name] = m;
      s.materials.emplace_back(name, m);
    }
  }

  // A material's mixing rule, by its name (mix_rule_name).
  MixRule mix_rule(const json& j, const Path& p) const {
    const std::string name = string(j, p);
    if (const auto rule = mix_rule_named(name)) return *rule;
    fail(p,
         "unknown mixing rule \"" + name + "\" (expected default, average, min, multiply or max)");
  }

  // Joints. Version 1: distance, pin, weld (pin and weld accept and ignore `compliance`, as
  // version 1 always did). Version 2 (scene_joints below): every type with its keys, `name`.
  SceneJoint joint(const json& j, const Path& p) {
    if (!j.is_object()) fail(p, "expected an object, got " + describe(j));
    const std::string type = string(require(j, p, "type"), p / "type");
    if (version_ >= 2) return joint_v2(j, p, type);
    if (type == "distance")
      only_keys(j, p,
                {"type", "a", "b", "anchor_a", "anchor_b", "length", "min_length", "max_length",
                 "collide", "compliance"});
    else if (type == "pin" || type == "weld")
      only_keys(j, p, {"type", "a", "b", "anchor", "collide", "compliance"});
    else
      fail(p / "type", "unknown joint type \"" + type + "\" (expected distance, pin or weld)");
    if (type != "distance" && j.contains("compliance"))
      non_negative(j["compliance"], p / "compliance");
    return joint_v2(j, p, type == "pin" ? "revolute" : type);
  }

  // Limits `lower`/`upper` (both or neither; lower <= 0 <= upper, measured from the load pose).
  JointLimit limit(const json& j, const Path& p, const char* lower_key,
                   const char* upper_key) const {
    JointLimit l;
    const bool has_lower = j.contains(lower_key), has_upper = j.contains(upper_key);
    if (!has_lower && !has_upper) return l;
    if (!has_upper) fail(p / lower_key, std::string("needs ") + upper_key + " too");
    if (!has_lower) fail(p / upper_key, std::string("needs ") + lower_key + " too");
    l.enabled = true;
    // The magnitude rule (strut/limits.hpp): angles within +-pi, translations within the
    // coordinate limit, as World::create_joint checks.
    const float bound = std::string_view(lower_key) == "lower_angle" ? limits::kMaxJointAngle
                                                                     : limits::kMaxCoordinate;
    l.lower = in_range(j[lower_key], p / lower_key, -bound, bound);
    l.upper = in_range(j[upper_key], p / upper_key, -bound, bound);
    if (l.lower > l.upper)
      fail(p / lower_key, std::string("must be at most ") + upper_key + " (" + j[upper_key].dump() +
                              "), got " + j[lower_key].dump());
    if (l.lower > 0)
      fail(p / lower_key,
           "must be <= 0 (limits are measured from the pose at load), got " + j[lower_key].dump());
    if (l.upper < 0)
      fail(p / upper_key,
           "must be >= 0 (limits are measured from the pose at load), got " + j[upper_key].dump());
    return l;
  }
  // `spring_hertz` (> 0 enables) and `spring_damping`.
  JointSpring spring(const json& j, const Path& p, JointSpring s = {}) const {
    if (j.contains("spring_hertz")) s.hertz = non_negative(j["spring_hertz"], p / "spring_hertz");
    if (j.contains("spring_damping"))
      s.damping_ratio = non_negative(j["spring_damping"], p / "spring_damping");
    s.enabled = s.hertz > 0;
    return s;
  }
  // `motor_speed` with `max_key` (> 0 enables).
  JointMotor motor(const json& j, const Path& p, const char* max_key) const {
    JointMotor m;
    // Speeds and efforts within the magnitude rule: m/s for a prismatic joint's force-driven
    // motor, rad/s for the torque-driven ones.
    const float max_speed = std::string_view(max_key) == "max_motor_force"
                                ? limits::kMaxSpeed
                                : limits::kMaxAngularSpeed;
    if (j.contains("motor_speed"))
      m.speed = in_range(j["motor_speed"], p / "motor_speed", -max_speed, max_speed);
    if (j.contains(max_key)) {
      non_negative(j[max_key], p / max_key);  // its own message for a negative effort
      m.max_effort = in_range(j[max_key], p / max_key, 0, limits::kMaxMotorEffort);
    }
    m.enabled = m.max_effort > 0;
    return m;
  }
  Vec2 axis(const json& j, const Path& p) const {
    const Vec2 v = vec2(require(j, p, "axis"), p / "axis");
    const float len = length(v);
    if (!(len > 1e-6f)) fail(p / "axis", "must not be zero");
    return (1.0f / len) * v;
  }

  SceneJoint joint_v2(const json& j, const Path& p, const std::string& type) {
    static const std::map<std::string, std::vector<std::string_view>, std::less<>> kKeys = {
        {"distance",
         {"anchor_a", "anchor_b", "length", "min_length", "max_length", "compliance",
          "spring_hertz", "spring_damping"}},
        {"revolute",
         {"anchor", "lower_angle", "upper_angle", "motor_speed", "max_motor_torque", "spring_hertz",
          "spring_damping"}},
        {"pin",
         {"anchor", "lower_angle", "upper_angle", "motor_speed", "max_motor_torque", "spring_hertz",
          "spring_damping"}},
        {"prismatic",
         {"anchor", "axis", "lower", "upper", "motor_speed", "max_motor_force", "spring_hertz",
          "spring_damping"}},
        {"wheel",
         {"anchor", "axis", "lower", "upper", "motor_speed", "max_motor_torque", "spring_hertz",
          "spring_damping"}},
        {"mouse", {"target", "anchor", "max_force", "hertz", "damping"}},
        {"motor", {"max_force", "max_torque", "linear_offset", "angular_offset"}},
        {"weld", {"anchor", "linear_hertz", "angular_hertz", "damping"}},
    };
    const auto keys = kKeys.find(type);
    if (keys == kKeys.end())
      fail(p / "type", "unknown joint type \"" + type +
                           "\" (expected distance, revolute, pin, prismatic, wheel, mouse, "
                           "motor or weld)");
    if (version_ >= 2) {
      for (const auto& [k, v] : j.items()) {
        const bool common = k == "type" || k == "name" || k == "a" || k == "b" || k == "collide" ||
                            k == "force_threshold" || k == "torque_threshold";
        if (!common && std::find(keys->second.begin(), keys->second.end(), k) == keys->second.end())
          fail(p / k, type == "distance" || k != "compliance"
                          ? "unknown key"
                          : "unknown key (compliance is accepted on distance joints only)");
      }
    }
    SceneJoint sj;
    if (j.contains("name")) {
      sj.name = string(j["name"], p / "name");
      if (sj.name.empty()) fail(p / "name", "must not be empty");
      const auto [it, fresh] = joint_index_.emplace(sj.name, int(joint_index_.size()));
      if (!fresh)
        fail(p / "name", "duplicate joint name \"" + sj.name + "\" (also joints[" +
                             std::to_string(joint_numbers_[it->second]) + "])");
      joint_numbers_.push_back(p.index);
    }
    const bool mouse = type == "mouse";
    if (mouse) {
      if (j.contains("a")) fail(p / "a", "a mouse joint has only b");
    } else {
      sj.a = body_name(require(j, p, "a"), p / "a");
    }
    sj.b = body_name(require(j, p, "b"), p / "b");
    if (!mouse && sj.a == sj.b)
      fail(p / "b", "a joint needs two different bodies, got \"" + sj.a + "\" twice");
    const bool collide = j.contains("collide") && boolean(j["collide"], p / "collide");
    if (type == "distance") {
      DistanceJointDef d;
      d.collide = collide;
      if (j.contains("compliance"))
        d.compliance = in_range(j["compliance"], p / "compliance", 0, limits::kMaxCompliance);
      d.anchor_a = vec2(require(j, p, "anchor_a"), p / "anchor_a");
      d.anchor_b = vec2(require(j, p, "anchor_b"), p / "anchor_b");
      if (j.contains("length")) d.length = non_negative(j["length"], p / "length");
      const bool has_min = j.contains("min_length"), has_max = j.contains("max_length");
      if (has_min && !has_max) fail(p / "min_length", "needs a max_length too");
      if (has_max) {
        d.max_length = non_negative(j["max_length"], p / "max_length");
        d.min_length = has_min ? non_negative(j["min_length"], p / "min_length") : 0.0f;
        if (d.min_length > d.max_length)
          fail(p / "min_length", "must be at most max_length (" + j["max_length"].dump() +
                                     "), got " + j["min_length"].dump());
      }
      d.spring = spring(j, p);
      sj.def = d;
    } else if (type == "revolute" || type == "pin") {
      RevoluteJointDef d;
      d.collide = collide;
      d.anchor = vec2(require(j, p, "anchor"), p / "anchor");
      d.limit = limit(j, p, "lower_angle", "upper_angle");
      d.motor = motor(j, p, "max_motor_torque");
      d.spring = spring(j, p);
      sj.def = d;
    } else if (type == "prismatic") {
      PrismaticJointDef d;
      d.collide = collide;
      d.anchor = vec2(require(j, p, "anchor"), p / "anchor");
      d.axis = axis(j, p);
      d.limit = limit(j, p, "lower", "upper");
      d.motor = motor(j, p, "max_motor_force");
      d.spring = spring(j, p);
      sj.def = d;
    } else if (type == "wheel") {
      WheelJointDef d;
      d.collide = collide;
      d.anchor = vec2(require(j, p, "anchor"), p / "anchor");
      d.axis = axis(j, p);
      d.limit = limit(j, p, "lower", "upper");
      d.motor = motor(j, p, "max_motor_torque");
      d.spring = spring(j, p, JointSpring{true, 4.0f, 0.7f});
      sj.def = d;
    } else if (mouse) {
      MouseJointDef d;
      d.target = vec2(require(j, p, "target"), p / "target");
      if (j.contains("anchor")) d.anchor = vec2(j["anchor"], p / "anchor");
      d.max_force = positive(require(j, p, "max_force"), p / "max_force");
      if (j.contains("hertz")) d.hertz = non_negative(j["hertz"], p / "hertz");
      if (j.contains("damping")) d.damping_ratio = non_negative(j["damping"], p / "damping");
      sj.def = d;
    } else if (type == "motor") {
      MotorJointDef d;
      d.collide = collide;
      d.max_force = positive(require(j, p, "max_force"), p / "max_force");
      d.max_torque = positive(require(j, p, "max_torque"), p / "max_torque");
      if (j.contains("linear_offset"))
        d.linear_offset = vec2(j["linear_offset"], p / "linear_offset");
      if (j.contains("angular_offset"))
        d.angular_offset = number(j["angular_offset"], p / "angular_offset");
      sj.def = d;
    } else {
      WeldJointDef d;
      d.collide = collide;
      // A weld needs no anchor; the first body's centre.
      d.anchor = j.contains("anchor") ? vec2(j["anchor"], p / "anchor") : anchor_of(sj.a);
      if (j.contains("linear_hertz"))
        d.linear_hertz = non_negative(j["linear_hertz"], p / "linear_hertz");
      if (j.contains("angular_hertz"))
        d.angular_hertz = non_negative(j["angular_hertz"], p / "angular_hertz");
      if (j.contains("damping")) d.damping_ratio = non_negative(j["damping"], p / "damping");
      sj.def = d;
    }
    // Joint events (extension, every type): absent is infinity, no events.
    std::visit(
        [&](auto& d) {
          if (j.contains("force_threshold"))
            d.force_threshold = non_negative(j["force_threshold"], p / "force_threshold");
          if (j.contains("torque_threshold"))
            d.torque_threshold = non_negative(j["torque_threshold"], p / "torque_threshold");
        },
        sj.def);
    return sj;
  }

  std::string body_name(const json& j, const Path& p) const {
    const std::string name = string(j, p);
    if (!body_index_.count(name)) fail(p, "unknown body \"" + name + "\"");
    return name;
  }
  Vec2 anchor_of(const std::string& name) const { return centers_[body_index_.at(name)]; }

  std::unordered_map<std::string, int> joint_index_;  // joint name -> order of naming
  std::vector<int> joint_numbers_;                    // its index in joints[], by that order
};

}  // namespace

Scene parse_scene(std::string_view text, std::string_view file_label) {
  Reader reader{std::string(file_label)};
  // JSON (RFC 8259) forbids a byte-order mark; editors that add one hide it, so name it.
  if (text.substr(0, 3) == "\xEF\xBB\xBF")
    reader.fail("line 1, column 1",
                "the file starts with a UTF-8 byte-order mark; save it without one");
  DuplicateKeyFinder duplicates;
  json doc;
  try {
    doc = json::parse(text.begin(), text.end(),
                      [&duplicates](int depth, json::parse_event_t event, json& parsed) {
                        return duplicates(depth, event, parsed);
                      });
  } catch (const json::exception& e) {
    // "[json.exception.parse_error.101] parse error at line 3, column 5: <problem>"
    std::string msg = one_line(e.what());
    if (const std::size_t b = msg.find("] "); b != std::string::npos) msg = msg.substr(b + 2);
    if (msg.rfind("parse error ", 0) == 0) msg = msg.substr(12);
    if (msg.rfind("at line ", 0) == 0) {
      const std::size_t colon = msg.find(": ");
      reader.fail(msg.substr(3, colon - 3), msg.substr(colon + 2));
    }
    // "number overflow parsing '1e400'" comes without a position: find the number.
    if (const std::size_t q = msg.find('\''); q != std::string::npos) {
      const std::string token = msg.substr(q + 1, msg.rfind('\'') - q - 1);
      reader.fail(position_of(text, token), "number " + token + " is too large for a float");
    }
    reader.fail("(root)", msg);
  }
  if (duplicates.found()) reader.fail(*duplicates.found(), "duplicate key");
  return reader.scene(doc);
}

Scene load_scene_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SceneError(path, "", std::string("cannot open the file: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw SceneError(path, "", "cannot read the file");
  return parse_scene(text.str(), path);
}

}  // namespace strut
