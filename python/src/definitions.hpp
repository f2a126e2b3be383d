// Definitions from Python keywords: a world's settings, bodies and their shapes, joints. Each is
// read by name from keyword arguments or a dict; a key no definition reads is an error naming it,
// so a misspelt field never goes unnoticed. Values are checked by the C++ library when the
// definition is used (World, create_body, create_joint), whose messages name the field.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "python/src/convert.hpp"
#include "strut/body.hpp"
#include "strut/joint.hpp"
#include "strut/world.hpp"

namespace strut::python {

// The items of one call's keywords or one dict, read by key. Every key read (present or not)
// counts as known; finish() throws for any other, listing the known ones.
class Fields {
 public:
  Fields(py::dict items, std::string what) : items_(std::move(items)), what_(std::move(what)) {}
  // A dict given for a definition (`what` names it in errors), or strut.Error if it is not one.
  static Fields of(const py::handle& object, std::string what);

  bool has(const char* key) {
    known_.push_back(key);
    return items_.contains(key);
  }
  template <class T>
  T get(const char* key, T fallback) {
    return has(key) ? cast<T>(key) : fallback;
  }
  template <class T>
  std::optional<T> find(const char* key) {
    return has(key) ? std::optional<T>(cast<T>(key)) : std::nullopt;
  }
  template <class T>
  T require(const char* key) {
    if (!has(key)) throw Error(what_ + ": " + key + " is required");
    return cast<T>(key);
  }
  void finish() const;
  const std::string& what() const { return what_; }
  void rename(std::string what) { what_ = std::move(what); }  // for the errors from here on

 private:
  template <class T>
  T cast(const char* key) const {
    try {
      return items_[key].cast<T>();
    } catch (const py::cast_error&) {
      throw Error(what_ + ": " + key + ": expected " + expected<T>() + ", got " +
                  std::string(py::repr(items_[key])));
    }
  }
  // What a field of type T should have been, for the error message.
  template <class T>
  static const char* expected() {
    if constexpr (std::is_same_v<T, float>) return "a number";
    if constexpr (std::is_same_v<T, bool>) return "True or False";
    if constexpr (std::is_same_v<T, std::string>) return "a string";
    if constexpr (std::is_same_v<T, Point>) return "a pair of numbers";
    if constexpr (std::is_same_v<T, std::optional<Point>>) return "a pair of numbers or None";
    if constexpr (std::is_same_v<T, std::vector<Point>>) return "a list of (x, y) points";
    if constexpr (std::is_same_v<T, std::pair<Point, Point>>) return "two (x, y) points";
    if constexpr (std::is_integral_v<T>) return "a whole number";
    if constexpr (std::is_same_v<T, py::list>) return "a list";
    return "another type";
  }

  py::dict items_;
  std::string what_;
  std::vector<std::string> known_;
};

// strut.World(...)'s keywords: WorldConfig's fields and the step's dt.
struct WorldSettings {
  WorldConfig config;
  float dt = 1.0f / 60.0f;
};
WorldSettings world_settings_of(Fields& f);

// A shape's geometry: exactly one of circle=radius, box=(hx, hy) (+ radius: rounding),
// capsule=half_length (+ radius), polygon=[(x, y), ...] (+ radius), segment=((ax, ay), (bx, by)),
// chain=[(x, y), ...] (+ loop).
Shape shape_of(Fields& f);
// A body's shape: the geometry, its placement (offset, angle), material (material: a built-in
// name, then density, friction, static_friction, restitution, friction_mix and restitution_mix
// by name, rolling_resistance, tangent_speed), filter (category, mask, group), sensor, the
// contact callbacks' flags (custom_filter, pre_solve) and user_data.
ShapeDef shape_def_of(Fields& f);
// The same, or with concave_polygon=[(x, y), ...] instead of a geometry, its pieces
// (concave_polygon_shapes), each dressed by the dict's other keys.
std::vector<ShapeDef> shape_defs_of(Fields& f);
// A body's fields (BodyDef's, `type` for is_static/is_kinematic) and its shapes: `shape` (one
// dict) or `shapes` (a list of them), always a compound of ShapeDefs.
BodyDef body_def_of(Fields& f);

// A joint of type `kind` ("distance", "revolute", ...) between a and b (a mouse joint: `body`
// alone) with only its type's fields; limit=(lower, upper), motor=(speed, max_effort),
// spring=(hertz, damping_ratio) or None, as JointLimit, JointMotor and JointSpring hold them.
// `origin` gives a body's origin for the fields that default to it (a weld's anchor).
JointDef joint_def_of(const std::string& kind, BodyId a, BodyId b, Fields& f,
                      const std::function<Vec2(BodyId)>& origin);
bool is_mouse(const std::string& kind);

}  // namespace strut::python
