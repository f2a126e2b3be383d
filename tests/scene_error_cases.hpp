// Every way a scene file can be rejected (docs/scene_format.md, "Errors"), as a table shared by
// the loader test (in process) and the command-line test (the real binary, exit status 2).
#pragma once

#include <string>
#include <vector>

namespace strut::test {

struct SceneErrorCase {
  const char* name;     // also the file name the CLI test writes (<name>.json)
  std::string json;     // the whole file
  std::string message;  // what follows "<file>: " on the error line
  bool prefix = false;  // `message` is only the start (parser wording that may vary)
};

// A scene whose one body is `body` (a JSON object's members, without braces).
inline std::string with_body(const std::string& body) {
  return R"({"format": "strut-scene", "version": 1, "bodies": [
  {"shape": "box", "center": [0, -1], "half_extents": [10, 1], "static": true},
  {)" + body +
         "}]}";
}

inline std::string with_world(const std::string& world) {
  return R"({"world": {)" + world + R"(}, "bodies": []})";
}

inline std::string with_joint(const std::string& joint) {
  return R"({"bodies": [
  {"name": "a", "shape": "circle", "center": [0, 0], "radius": 0.5},
  {"name": "b", "shape": "circle", "center": [2, 0], "radius": 0.5}],
 "joints": [{)" +
         joint + "}]}";
}

// A version-2 scene with bodies a and b and the given joints (JSON objects' members, each in
// its own braces by the caller).
inline std::string with_joints_v2(const std::string& joints) {
  return R"({"version": 2, "bodies": [
  {"name": "a", "shape": "circle", "center": [0, 0], "radius": 0.5},
  {"name": "b", "shape": "circle", "center": [2, 0], "radius": 0.5}],
 "joints": [)" +
         joints + "]}";
}
inline std::string with_joint_v2(const std::string& joint) {
  return with_joints_v2("{" + joint + "}");
}

// The same with "version": 2: the body may use the shapes, filters and sensors of version 2.
inline std::string with_body_v2(const std::string& body) {
  return R"({"format": "strut-scene", "version": 2, "bodies": [
  {"shape": "box", "center": [0, -1], "half_extents": [10, 1], "static": true},
  {)" + body +
         "}]}";
}

// The same with "version": 3: the body may be a concave_polygon.
inline std::string with_body_v3(const std::string& body) {
  return R"({"format": "strut-scene", "version": 3, "bodies": [
  {"shape": "box", "center": [0, -1], "half_extents": [10, 1], "static": true},
  {)" + body +
         "}]}";
}

// A version-2 scene whose body 1 is a compound of `items` (JSON objects, comma-separated),
// with `more` body keys (", ..." or empty).
inline std::string with_compound(const std::string& items, const std::string& more = "") {
  return with_body_v2(R"("center": [0, 2], "shapes": [)" + items + "]" + more);
}

// `n` unit boxes side by side, as items of `shapes`.
inline std::string boxes(int n) {
  std::string items;
  for (int i = 0; i < n; ++i)
    items += std::string(i ? ", " : "") +
             R"({"shape": "box", "half_extents": [0.5, 0.5], "offset": [)" + std::to_string(i) +
             ", 0]}";
  return items;
}

inline std::vector<SceneErrorCase> scene_error_cases() {
  const std::string box = R"("shape": "box", "center": [0, 1], "half_extents": [0.5, 0.5])";
  const std::string poly = R"("shape": "polygon", "center": [0, 1], "vertices": )";
  return {
      // Malformed JSON.
      {"malformed", "{\"bodies\": [}", "line 1, column 13: syntax error", true},
      {"truncated", "{\"bodies\": [", "line 1, column 13: syntax error", true},
      {"empty_file", "", "line 1, column 1: ", true},
      {"nan_literal", with_body(box + R"(, "angle": NaN)"), "line 3, column 75: syntax error",
       true},
      {"trailing_garbage", "{} x", "line 1, column 4: syntax error", true},
      {"duplicate_key", with_body(box + R"(, "center": [1, 1])"),
       "bodies[1].center: duplicate key"},
      // Wrong types.
      {"root_not_object", "[1, 2]", "(root): expected an object, got an array"},
      {"bodies_not_array", R"({"bodies": {}})", "bodies: expected an array, got an object"},
      {"body_not_object", R"({"bodies": [3]})", "bodies[0]: expected an object, got 3"},
      {"dt_string", with_world(R"("dt": "fast")"), "world.dt: expected a number, got \"fast\""},
      {"center_short", with_body(R"("shape": "box", "center": [0], "half_extents": [1, 1])"),
       "bodies[1].center: expected [x, y], got an array"},
      {"center_string_element",
       with_body(R"("shape": "box", "center": [0, "1"], "half_extents": [1, 1])"),
       "bodies[1].center[1]: expected a number, got \"1\""},
      {"static_string", with_body(box + R"(, "static": "yes")"),
       "bodies[1].static: expected true or false, got \"yes\""},
      {"name_number", with_body(box + R"(, "name": 5)"),
       "bodies[1].name: expected a string, got 5"},
      {"category_negative", with_body(box + R"(, "category": -1)"),
       "bodies[1].category: expected an unsigned 32-bit integer, got -1"},
      {"mask_too_wide", with_body(box + R"(, "mask": 4294967296)"),
       "bodies[1].mask: expected an unsigned 32-bit integer, got 4294967296"},
      {"substeps_fraction", with_world(R"("substeps": 2.5)"),
       "world.substeps: expected an integer, got 2.5"},
      {"format_wrong", R"({"format": "box2d", "bodies": []})",
       "format: expected \"strut-scene\", got \"box2d\""},
      {"version_wrong", R"({"version": 4, "bodies": []})",
       "version: unsupported version 4 (expected 1, 2 or 3)"},
      {"missing_shape", with_body(R"("center": [0, 1], "half_extents": [1, 1])"),
       "bodies[1]: missing key \"shape\""},
      {"missing_center", with_body(R"("shape": "circle", "radius": 1)"),
       "bodies[1]: missing key \"center\""},
      {"missing_radius", with_body(R"("shape": "circle", "center": [0, 1])"),
       "bodies[1]: missing key \"radius\""},
      // Numbers a float cannot hold.
      {"float_overflow", with_body(box + R"(, "angle": 1e39)"),
       "bodies[1].angle: number 1e+39 is too large for a float"},
      {"double_overflow", with_body(box + R"(, "angular_velocity": -1e400)"),
       "line 3, column 86: number -1e400 is too large for a float"},
      {"gravity_overflow", with_world(R"("gravity": [0, 3.5e38])"),
       "world.gravity[1]: number 3.5e+38 is too large for a float"},
      // Sizes.
      {"zero_half_extent", with_body(R"("shape": "box", "center": [0, 1], "half_extents": [0, 1])"),
       "bodies[1].half_extents: half-extents must be positive, got [0,1]"},
      {"negative_half_extent",
       with_body(R"("shape": "box", "center": [0, 1], "half_extents": [1, -0.5])"),
       "bodies[1].half_extents: half-extents must be positive, got [1,-0.5]"},
      {"zero_radius", with_body(R"("shape": "circle", "center": [0, 1], "radius": 0)"),
       "bodies[1].radius: must be positive, got 0"},
      {"negative_radius", with_body(R"("shape": "circle", "center": [0, 1], "radius": -2)"),
       "bodies[1].radius: must be positive, got -2"},
      // Materials and densities.
      {"negative_density", R"({"materials": {"rubber": {"density": -1}}, "bodies": []})",
       "materials.rubber.density: must not be negative, got -1"},
      {"restitution_above_one", R"({"materials": {"rubber": {"restitution": 1.5}}, "bodies": []})",
       "materials.rubber.restitution: must be at most 1, got 1.5"},
      {"redefined_builtin", R"({"materials": {"wood": {"density": 2}}, "bodies": []})",
       "materials.wood: redefines the built-in material \"wood\""},
      {"zero_density_dynamic", with_body(box + R"(, "material": "static")"),
       "bodies[1].material: material \"static\" has zero density; a dynamic body needs a "
       "positive density"},
      {"zero_density_custom",
       R"({"materials": {"air": {"density": 0}}, "bodies": [
  {"shape": "circle", "center": [0, 0], "radius": 1, "material": "air"}]})",
       "bodies[0].material: material \"air\" has zero density; a dynamic body needs a positive "
       "density"},
      {"unknown_material", with_body(box + R"(, "material": "wod")"),
       "bodies[1].material: unknown material \"wod\""},
      // Polygons.
      {"concave", with_body(poly + "[[0, 0], [2, 0], [1, 0.5], [2, 2], [0, 2]]"),
       "bodies[1].vertices: polygon is not convex at vertex 2"},
      {"concave_clockwise", with_body(poly + "[[0, 2], [2, 2], [1, 0.5], [2, 0], [0, 0]]"),
       "bodies[1].vertices: polygon is not convex at vertex 2"},
      {"bow_tie", with_body(poly + "[[0, 0], [1, 1], [1, 0], [0, 1]]"),
       "bodies[1].vertices: polygon is self-intersecting (edges 0 and 2 cross)"},
      {"pentagram",
       with_body(poly + "[[0, 1], [0.588, -0.809], [-0.951, 0.309], [0.951, 0.309], "
                        "[-0.588, -0.809]]"),
       "bodies[1].vertices: polygon is self-intersecting", true},
      {"collinear", with_body(poly + "[[0, 0], [1, 0], [2, 0], [1, 1]]"),
       "bodies[1].vertices: polygon has collinear edges at vertex 1"},
      {"zero_area", with_body(poly + "[[0, 0], [1, 0], [2, 0]]"),
       "bodies[1].vertices: polygon has zero area"},
      {"repeated_vertex", with_body(poly + "[[0, 0], [0, 0], [1, 0], [0, 1]]"),
       "bodies[1].vertices: zero-length edge at vertex", true},
      {"two_vertices", with_body(poly + "[[0, 0], [1, 0]]"),
       "bodies[1].vertices: a polygon needs at least 3 vertices, got 2"},
      {"seventeen_vertices",
       with_body(poly + "[[1,0],[0.92,0.38],[0.71,0.71],[0.38,0.92],[0,1],[-0.38,0.92],"
                        "[-0.71,0.71],[-0.92,0.38],[-1,0],[-0.92,-0.38],[-0.71,-0.71],"
                        "[-0.38,-0.92],[0,-1],[0.38,-0.92],[0.71,-0.71],[0.92,-0.38],[0.95,-0.2]]"),
       "bodies[1].vertices: a polygon has at most 16 vertices, got 17"},
      {"vertex_not_pair", with_body(poly + "[[0, 0], [1, 0], [0, 1, 2]]"),
       "bodies[1].vertices[2]: expected [x, y], got an array"},
      // Unknown shapes and keys, at every level.
      {"unknown_shape", with_body(R"("shape": "capsule", "center": [0, 1], "radius": 1)"),
       "bodies[1].shape: unknown shape \"capsule\" (expected box, polygon or circle; \"capsule\" "
       "needs \"version\": 2)"},
      {"unknown_root_key", R"({"bodys": []})", "bodys: unknown key"},
      {"unknown_world_key", with_world(R"("gravty": [0, -10])"), "world.gravty: unknown key"},
      {"unknown_body_key", with_body(box + R"(, "colour": "red")"),
       "bodies[1].colour: unknown key"},
      {"key_of_other_shape", with_body(box + R"(, "radius": 1)"),
       "bodies[1].radius: does not apply to a box"},
      {"unknown_material_key", R"({"materials": {"rubber": {"bounce": 1}}, "bodies": []})",
       "materials.rubber.bounce: unknown key"},
      {"unknown_joint_key",
       with_joint(R"("type": "pin", "a": "a", "b": "b", "anchor": [1, 0], "motor": 5)"),
       "joints[0].motor: unknown key"},
      {"unknown_joint_type", with_joint(R"("type": "revolute", "a": "a", "b": "b")"),
       "joints[0].type: unknown joint type \"revolute\" (expected distance, pin or weld)"},
      // Version 2 joints: every rejection SCENE_FORMAT.md lists for them.
      {"v2_limits_inverted",
       with_joint_v2(R"("type": "revolute", "a": "a", "b": "b", "anchor": [1, 0],
                        "lower_angle": 0.5, "upper_angle": -0.5)"),
       "joints[0].lower_angle: must be at most upper_angle (-0.5), got 0.5"},
      {"v2_limits_not_around_zero",
       with_joint_v2(R"("type": "revolute", "a": "a", "b": "b", "anchor": [1, 0],
                        "lower_angle": 0.1, "upper_angle": 0.5)"),
       "joints[0].lower_angle: must be <= 0 (limits are measured from the pose at load), got 0.1"},
      {"v2_upper_below_zero",
       with_joint_v2(R"("type": "prismatic", "a": "a", "b": "b", "anchor": [1, 0],
                        "axis": [1, 0], "lower": -2, "upper": -1)"),
       "joints[0].upper: must be >= 0 (limits are measured from the pose at load), got -1"},
      {"v2_limit_alone",
       with_joint_v2(R"("type": "wheel", "a": "a", "b": "b", "anchor": [2, 0], "axis": [0, 1],
                        "lower": -1)"),
       "joints[0].lower: needs upper too"},
      {"v2_zero_axis",
       with_joint_v2(
           R"("type": "prismatic", "a": "a", "b": "b", "anchor": [1, 0], "axis": [0, 0])"),
       "joints[0].axis: must not be zero"},
      {"v2_wheel_zero_axis",
       with_joint_v2(R"("type": "wheel", "a": "a", "b": "b", "anchor": [2, 0], "axis": [0, 0])"),
       "joints[0].axis: must not be zero"},
      {"v2_mouse_without_target", with_joint_v2(R"("type": "mouse", "b": "b", "max_force": 10)"),
       "joints[0]: missing key \"target\""},
      {"v2_mouse_with_a",
       with_joint_v2(R"("type": "mouse", "a": "a", "b": "b", "target": [0, 0], "max_force": 10)"),
       "joints[0].a: a mouse joint has only b"},
      {"v2_mouse_zero_force",
       with_joint_v2(R"("type": "mouse", "b": "b", "target": [0, 0], "max_force": 0)"),
       "joints[0].max_force: must be positive, got 0"},
      {"v2_motor_negative_torque",
       with_joint_v2(R"("type": "motor", "a": "a", "b": "b", "max_force": 10, "max_torque": -1)"),
       "joints[0].max_torque: must be positive, got -1"},
      {"v2_motor_without_force",
       with_joint_v2(R"("type": "motor", "a": "a", "b": "b", "max_torque": 1)"),
       "joints[0]: missing key \"max_force\""},
      {"v2_negative_hertz",
       with_joint_v2(R"("type": "revolute", "a": "a", "b": "b", "anchor": [1, 0],
                        "spring_hertz": -1)"),
       "joints[0].spring_hertz: must not be negative, got -1"},
      {"v2_negative_damping",
       with_joint_v2(R"("type": "weld", "a": "a", "b": "b", "angular_hertz": 2, "damping": -0.5)"),
       "joints[0].damping: must not be negative, got -0.5"},
      {"v2_negative_force_threshold",
       with_joint_v2(R"("type": "revolute", "a": "a", "b": "b", "anchor": [1, 0],
                        "force_threshold": -2)"),
       "joints[0].force_threshold: must not be negative, got -2"},
      {"v2_negative_torque_threshold",
       with_joint_v2(R"("type": "mouse", "b": "b", "target": [0, 0], "max_force": 1,
                        "torque_threshold": -0.5)"),
       "joints[0].torque_threshold: must not be negative, got -0.5"},
      {"v1_threshold_is_version_2",
       with_joint(R"("type": "distance", "a": "a", "b": "b", "anchor_a": [0, 0],
                     "anchor_b": [1, 0], "force_threshold": 5)"),
       "joints[0].force_threshold: unknown key"},
      {"v2_negative_mouse_hertz",
       with_joint_v2(R"("type": "mouse", "b": "b", "target": [0, 0], "max_force": 1,
                        "hertz": -5)"),
       "joints[0].hertz: must not be negative, got -5"},
      {"v2_negative_motor_torque",
       with_joint_v2(R"("type": "revolute", "a": "a", "b": "b", "anchor": [1, 0],
                        "motor_speed": 1, "max_motor_torque": -3)"),
       "joints[0].max_motor_torque: must not be negative, got -3"},
      {"v2_duplicate_joint_name",
       with_joints_v2(R"({"type": "weld", "name": "hinge", "a": "a", "b": "b"},
                        {"type": "weld", "name": "hinge", "a": "b", "b": "a"})"),
       "joints[1].name: duplicate joint name \"hinge\" (also joints[0])"},
      {"v2_compliance_on_pin",
       with_joint_v2(
           R"("type": "revolute", "a": "a", "b": "b", "anchor": [1, 0], "compliance": 0.1)"),
       "joints[0].compliance: unknown key (compliance is accepted on distance joints only)"},
      {"v2_unknown_joint_key",
       with_joint_v2(R"("type": "wheel", "a": "a", "b": "b", "anchor": [2, 0], "axis": [0, 1],
                        "max_motor_force": 3)"),
       "joints[0].max_motor_force: unknown key"},
      {"v2_unknown_joint_type", with_joint_v2(R"("type": "rope", "a": "a", "b": "b")"),
       "joints[0].type: unknown joint type \"rope\" (expected distance, revolute, pin, "
       "prismatic, wheel, mouse, motor or weld)"},
      {"v2_name_not_a_string", with_joint_v2(R"("type": "weld", "name": 3, "a": "a", "b": "b")"),
       "joints[0].name: expected a string, got 3"},
      {"v1_fixed_rotation", with_body(box + R"(, "fixed_rotation": true)"),
       "bodies[1].fixed_rotation: unknown key"},
      {"v2_negative_angular_drag",
       R"({"version": 2, "bodies": [{"shape": "circle", "center": [0, 0], "radius": 1,
           "angular_drag": -1}]})",
       "bodies[0].angular_drag: must not be negative, got -1"},
      {"v1_awake", with_body(box + R"(, "awake": false)"), "bodies[1].awake: unknown key"},
      {"v2_awake_not_bool",
       R"({"version": 2, "bodies": [{"shape": "circle", "center": [0, 0], "radius": 1,
           "awake": "no"}]})",
       "bodies[0].awake: expected true or false, got \"no\""},
      {"v2_static_asleep",
       R"({"version": 2, "bodies": [{"shape": "circle", "center": [0, 0], "radius": 1,
           "static": true, "awake": false}]})",
       "bodies[0].awake: only a dynamic body can be created asleep"},
      {"v2_moving_asleep",
       R"({"version": 2, "bodies": [{"shape": "circle", "center": [0, 0], "radius": 1,
           "velocity": [1, 0], "awake": false}]})",
       "bodies[0].awake: a body created asleep must be at rest (velocity and angular_velocity 0)"},
      {"v2_fixed_rotation_not_bool",
       R"({"version": 2, "bodies": [{"shape": "circle", "center": [0, 0], "radius": 1,
           "fixed_rotation": 1}]})",
       "bodies[0].fixed_rotation: expected true or false, got 1"},
      {"v2_lock_x_not_bool",
       R"({"version": 2, "bodies": [{"shape": "circle", "center": [0, 0], "radius": 1,
           "lock_x": "yes"}]})",
       "bodies[0].lock_x: expected true or false, got \"yes\""},
      {"v2_lock_y_soft",
       R"({"version": 2, "bodies": [{"shape": "box", "center": [0, 0], "half_extents": [1, 1],
           "soft": 0.001, "lock_y": true}]})",
       "bodies[0].lock_y: a soft body cannot be locked (rigid only)"},
      {"v1_lock_x", with_body(box + R"(, "lock_x": true)"), "bodies[1].lock_x: unknown key"},
      // Surface keys (extension): items of `shapes` only, in range.
      {"v2_tangent_speed_on_body",
       R"({"version": 2, "bodies": [{"shape": "box", "center": [0, 0], "half_extents": [1, 1],
           "static": true, "tangent_speed": 2}]})",
       "bodies[0].tangent_speed: only on an item of \"shapes\" (a compound of one shape)"},
      {"v2_rolling_resistance_beside_shapes",
       R"({"version": 2, "bodies": [{"center": [0, 0], "rolling_resistance": 0.1,
           "shapes": [{"shape": "circle", "radius": 1}]}]})",
       "bodies[0].rolling_resistance: does not go with \"shapes\" (give each item of shapes its "
       "own rolling_resistance)"},
      {"v2_tangent_speed_too_fast",
       R"({"version": 2, "bodies": [{"center": [0, 0], "static": true,
           "shapes": [{"shape": "box", "half_extents": [1, 1], "tangent_speed": -2e6}]}]})",
       "bodies[0].shapes[0].tangent_speed: -2e+06 m/s exceeds the limit of 10000 m/s "
       "(strut/limits.hpp)"},
      {"v2_tangent_speed_not_a_number",
       R"({"version": 2, "bodies": [{"center": [0, 0], "static": true,
           "shapes": [{"shape": "box", "half_extents": [1, 1], "tangent_speed": "fast"}]}]})",
       "bodies[0].shapes[0].tangent_speed: expected a number, got \"fast\""},
      {"v2_rolling_resistance_negative",
       R"({"version": 2, "bodies": [{"center": [0, 0],
           "shapes": [{"shape": "circle", "radius": 1, "rolling_resistance": -0.5}]}]})",
       "bodies[0].shapes[0].rolling_resistance: must not be negative, got -0.5"},
      // Version 3: material mixing rules and the contact callbacks' shape flags.
      {"v2_friction_mix",
       R"({"version": 2, "materials": {"ice": {"friction": 0.1, "friction_mix": "min"}}})",
       "materials.ice.friction_mix: unknown key (material mixing rules need \"version\": 3)"},
      {"v3_unknown_mix_rule",
       R"({"version": 3, "materials": {"ice": {"restitution_mix": "mean"}}})",
       "materials.ice.restitution_mix: unknown mixing rule \"mean\" (expected default, "
       "average, min, multiply or max)"},
      {"v3_mix_rule_not_a_string", R"({"version": 3, "materials": {"ice": {"friction_mix": 2}}})",
       "materials.ice.friction_mix: expected a string, got 2"},
      {"v2_custom_filter",
       R"({"version": 2, "bodies": [{"center": [0, 0], "static": true,
           "shapes": [{"shape": "box", "half_extents": [1, 1], "custom_filter": true}]}]})",
       "bodies[0].shapes[0].custom_filter: unknown key (custom_filter needs \"version\": 3)"},
      {"v1_pre_solve", with_body(box + R"(, "pre_solve": true)"),
       "bodies[1].pre_solve: unknown key (pre_solve needs \"version\": 3)"},
      {"v3_pre_solve_on_body",
       R"({"version": 3, "bodies": [{"shape": "box", "center": [0, 0], "half_extents": [1, 1],
           "static": true, "pre_solve": true}]})",
       "bodies[0].pre_solve: only on an item of \"shapes\" (a compound of one shape)"},
      {"v3_custom_filter_beside_shapes",
       R"({"version": 3, "bodies": [{"center": [0, 0], "custom_filter": true,
           "shapes": [{"shape": "circle", "radius": 1}]}]})",
       "bodies[0].custom_filter: does not go with \"shapes\" (give each item of shapes its own "
       "custom_filter)"},
      {"v3_pre_solve_not_bool",
       R"({"version": 3, "bodies": [{"center": [0, 0], "static": true,
           "shapes": [{"shape": "box", "half_extents": [1, 1], "pre_solve": 1}]}]})",
       "bodies[0].shapes[0].pre_solve: expected true or false, got 1"},
      // Version 2 shapes, filters and sensors: every rejection SCENE_FORMAT.md lists for them,
      // and the version-1 rules for each item of a compound body.
      {"v1_group", with_body(box + R"(, "group": -1)"), "bodies[1].group: unknown key"},
      {"v1_sensor", with_body(box + R"(, "sensor": true)"), "bodies[1].sensor: unknown key"},
      {"v1_shapes", with_body(box + R"(, "shapes": [])"), "bodies[1].shapes: unknown key"},
      {"v1_half_length", with_body(box + R"(, "half_length": 1)"),
       "bodies[1].half_length: unknown key"},
      {"v1_segment",
       with_body(R"("shape": "segment", "center": [0, 1], "points": [[0, 0], [1, 0]])"),
       "bodies[1].shape: unknown shape \"segment\" (expected box, polygon or circle; \"segment\" "
       "needs \"version\": 2)"},
      {"v2_unknown_shape", with_body_v2(R"("shape": "blob", "center": [0, 1])"),
       "bodies[1].shape: unknown shape \"blob\" (expected box, polygon, circle, capsule, "
       "segment or chain)"},
      {"v2_missing_shape", with_body_v2(R"("center": [0, 1], "radius": 1)"),
       "bodies[1]: missing key \"shape\" (or \"shapes\" for a compound body)"},
      {"v2_capsule_negative_half_length",
       with_body_v2(R"("shape": "capsule", "center": [0, 1], "half_length": -1, "radius": 0.5)"),
       "bodies[1].half_length: must not be negative, got -1"},
      {"v2_capsule_zero_radius",
       with_body_v2(R"("shape": "capsule", "center": [0, 1], "half_length": 1, "radius": 0)"),
       "bodies[1].radius: must be positive, got 0"},
      {"v2_capsule_negative_radius",
       with_body_v2(R"("shape": "capsule", "center": [0, 1], "half_length": 1, "radius": -0.5)"),
       "bodies[1].radius: must be positive, got -0.5"},
      {"v2_capsule_without_radius",
       with_body_v2(R"("shape": "capsule", "center": [0, 1], "half_length": 1)"),
       "bodies[1]: missing key \"radius\""},
      {"v2_capsule_tiny_radius",
       with_body_v2(R"("shape": "capsule", "center": [0, 1], "half_length": 1, "radius": 1e-6)"),
       "bodies[1].radius: 1e-06 m is outside [0.001, 100000] m (strut/limits.hpp)"},
      {"v2_capsule_huge",
       with_body_v2(R"("shape": "capsule", "center": [0, 1], "half_length": 1e6, "radius": 1)"),
       "bodies[1].half_length: 1e+06 m exceeds the limit of 100000 m (strut/limits.hpp)"},
      {"v2_capsule_vertices",
       with_body_v2(R"("shape": "capsule", "center": [0, 1], "half_length": 1, "radius": 1,
                       "vertices": [[0, 0], [1, 0], [0, 1]])"),
       "bodies[1].vertices: does not apply to a capsule"},
      {"v2_capsule_mass_too_large",
       R"({"version": 2, "materials": {"lead": {"density": 1e9}}, "bodies": [
  {"shape": "capsule", "center": [0, 0], "half_length": 1000, "radius": 1000, "material": "lead"}]})",
       "bodies[0].half_length: mass 7.1415927e+15 kg (density x area) is outside [1e-09, 1e+15] kg "
       "(strut/limits.hpp)"},
      {"v2_rounded_box_mass_too_small",
       R"({"version": 2, "materials": {"foam": {"density": 1e-5}}, "bodies": [
  {"shape": "box", "center": [0, 0], "half_extents": [0.001, 0.001], "radius": 0.001,
   "material": "foam"}]})",
       // 1e-5 x (4 h^2 + 8 h r + pi r^2) with h = r = 1 mm: the rounding counts.
       "bodies[0].half_extents: mass 1.5141594e-10 kg (density x area) is outside [1e-09, 1e+15] "
       "kg (strut/limits.hpp)"},
      {"v2_capsule_zero_density",
       with_body_v2(
           R"("shape": "capsule", "center": [0, 1], "half_length": 1, "radius": 1, "material": "static")"),
       "bodies[1].material: material \"static\" has zero density; a dynamic body needs a positive "
       "density"},
      {"v2_capsule_soft",
       with_body_v2(
           R"("shape": "capsule", "center": [0, 1], "half_length": 1, "radius": 1, "soft": 0.01)"),
       "bodies[1].soft: a capsule cannot be soft"},
      {"v2_rounded_box_negative_radius", with_body_v2(box + R"(, "radius": -0.1)"),
       "bodies[1].radius: must not be negative, got -0.1"},
      {"v2_rounded_box_soft", with_body_v2(box + R"(, "radius": 0.1, "soft": 0.01)"),
       "bodies[1].soft: a rounded box cannot be soft"},
      {"v2_rounded_polygon_concave",
       with_body_v2(poly + R"([[0, 0], [2, 0], [1, 0.5], [2, 2], [0, 2]], "radius": 0.1)"),
       "bodies[1].vertices: polygon is not convex at vertex 2"},
      {"v2_segment_on_dynamic_body",
       with_body_v2(R"("shape": "segment", "center": [0, 1], "points": [[0, 0], [1, 0]])"),
       "bodies[1].shape: a segment has no area, so no mass: it needs a static or kinematic body"},
      {"v2_segment_coincident",
       with_body_v2(
           R"("shape": "segment", "center": [0, 1], "points": [[1, 2], [1, 2]], "static": true)"),
       "bodies[1].points[1]: coincides with points[0]"},
      {"v2_segment_three_points",
       with_body_v2(R"("shape": "segment", "center": [0, 1], "points": [[0, 0], [1, 0], [2, 0]],
                       "static": true)"),
       "bodies[1].points: a segment has exactly 2 points, got 3"},
      {"v2_segment_point_not_pair",
       with_body_v2(
           R"("shape": "segment", "center": [0, 1], "points": [[0, 0], [1]], "static": true)"),
       "bodies[1].points[1]: expected [x, y], got an array"},
      {"v2_segment_too_far",
       with_body_v2(
           R"("shape": "segment", "center": [0, 1], "points": [[0, 0], [2e5, 0]], "static": true)"),
       "bodies[1].points[1]: 200000 m exceeds the limit of 100000 m (strut/limits.hpp)"},
      {"v2_chain_on_dynamic_body",
       with_body_v2(R"("shape": "chain", "center": [0, 1], "points": [[0, 0], [1, 0], [2, 1]])"),
       "bodies[1].shape: a chain needs a static body"},
      {"v2_chain_on_kinematic_body",
       with_body_v2(R"("shape": "chain", "center": [0, 1], "points": [[0, 0], [1, 0], [2, 1]],
                       "kinematic": true)"),
       "bodies[1].shape: a chain needs a static body"},
      {"v2_chain_one_point",
       with_body_v2(R"("shape": "chain", "center": [0, 1], "points": [[0, 0]], "static": true)"),
       "bodies[1].points: a chain needs at least 2 points, got 1"},
      {"v2_chain_loop_of_two",
       with_body_v2(R"("shape": "chain", "center": [0, 1], "points": [[0, 0], [1, 0]],
                       "loop": true, "static": true)"),
       "bodies[1].points: a chain with loop needs at least 3 points, got 2"},
      {"v2_chain_neighbours_coincide",
       with_body_v2(R"("shape": "chain", "center": [0, 1], "points": [[0, 0], [1, 0], [1, 0],
                       [2, 0]], "static": true)"),
       "bodies[1].points[2]: coincides with points[1]"},
      {"v2_chain_loop_closes_on_a_point",
       with_body_v2(R"("shape": "chain", "center": [0, 1], "points": [[0, 0], [1, 0], [1, 1],
                       [0, 0]], "loop": true, "static": true)"),
       "bodies[1].points[3]: coincides with points[0] (the loop joins them)"},
      {"v2_chain_points_too_close",
       with_body_v2(R"("shape": "chain", "center": [0, 1], "points": [[0, 0], [0.0001, 0]],
                       "static": true)"),
       "bodies[1].points[1]: is 0.0001 m from points[0], closer than 0.001 m (strut/limits.hpp)"},
      {"v2_chain_loop_not_bool",
       with_body_v2(R"("shape": "chain", "center": [0, 1], "points": [[0, 0], [1, 0], [1, 1]],
                       "loop": 1, "static": true)"),
       "bodies[1].loop: expected true or false, got 1"},
      {"v2_chain_loop_on_segment",
       with_body_v2(R"("shape": "segment", "center": [0, 1], "points": [[0, 0], [1, 0]],
                       "loop": true, "static": true)"),
       "bodies[1].loop: does not apply to a segment"},
      {"v2_group_fraction", with_body_v2(box + R"(, "group": 1.5)"),
       "bodies[1].group: expected an integer, got 1.5"},
      {"v2_group_string", with_body_v2(box + R"(, "group": "ragdoll")"),
       "bodies[1].group: expected an integer, got \"ragdoll\""},
      {"v2_group_too_large", with_body_v2(box + R"(, "group": 2147483648)"),
       "bodies[1].group: expected a signed 32-bit integer, got 2147483648"},
      {"v2_group_too_small", with_body_v2(box + R"(, "group": -2147483649)"),
       "bodies[1].group: expected a signed 32-bit integer, got -2147483649"},
      {"v2_sensor_not_bool", with_body_v2(box + R"(, "sensor": "yes")"),
       "bodies[1].sensor: expected true or false, got \"yes\""},
      {"v2_shapes_empty", with_compound(""),
       "bodies[1].shapes: a compound body needs at least 1 shape, got none"},
      {"v2_shapes_not_array", with_body_v2(R"("center": [0, 2], "shapes": {"shape": "box"})"),
       "bodies[1].shapes: expected an array, got an object"},
      {"v2_shapes_65", with_compound(boxes(65)),
       "bodies[1].shapes: a body has at most 64 shapes, got 65"},
      {"v2_shapes_and_shape", with_compound(boxes(1), R"(, "shape": "box")"),
       "bodies[1].shape: does not go with \"shapes\" (each item of shapes has its own shape "
       "keys)"},
      {"v2_shapes_and_half_extents", with_compound(boxes(1), R"(, "half_extents": [1, 1])"),
       "bodies[1].half_extents: does not go with \"shapes\" (each item of shapes has its own "
       "shape keys)"},
      {"v2_shapes_and_material", with_compound(boxes(1), R"(, "material": "wood")"),
       "bodies[1].material: does not go with \"shapes\" (give each item of shapes its own "
       "material)"},
      {"v2_shapes_and_group", with_compound(boxes(1), R"(, "group": 2)"),
       "bodies[1].group: does not go with \"shapes\" (give each item of shapes its own group)"},
      {"v2_compound_soft", with_compound(boxes(2), R"(, "soft": 0.001)"),
       "bodies[1].soft: a compound body cannot be soft"},
      {"v2_compound_unknown_key", with_compound(boxes(1), R"(, "colour": "red")"),
       "bodies[1].colour: unknown key"},
      {"v2_compound_static_moving",
       with_compound(boxes(2), R"(, "static": true, "angular_velocity": 1)"),
       "bodies[1].angular_velocity: a static body cannot move (make it kinematic)"},
      {"v2_compound_zero_density",
       with_compound(R"({"shape": "circle", "radius": 1, "material": "static"},
                        {"shape": "box", "half_extents": [1, 1], "material": "static"})"),
       "bodies[1].shapes: every shape's material has zero density; a dynamic body needs a "
       "positive mass"},
      {"v2_item_not_object", with_compound("3"), "bodies[1].shapes[0]: expected an object, got 3"},
      {"v2_item_missing_shape", with_compound(R"({"radius": 1})"),
       "bodies[1].shapes[0]: missing key \"shape\""},
      {"v2_item_unknown_key",
       with_compound(R"({"shape": "circle", "radius": 1, "center": [0, 0]})"),
       "bodies[1].shapes[0].center: unknown key"},
      {"v2_item_key_of_other_kind",
       with_compound(R"({"shape": "box", "half_extents": [1, 1], "half_length": 2})"),
       "bodies[1].shapes[0].half_length: does not apply to a box"},
      {"v2_item_zero_half_extent",
       with_compound(boxes(1) + R"(, {"shape": "box", "half_extents": [0, 1]})"),
       "bodies[1].shapes[1].half_extents: half-extents must be positive, got [0,1]"},
      {"v2_item_box_huge",
       with_compound(R"({"shape": "box", "half_extents": [1e30, 1]})", R"(, "static": true)"),
       "bodies[1].shapes[0].half_extents[0]: 1e+30 m is outside [0.001, 100000] m "
       "(strut/limits.hpp)"},
      {"v2_item_circle_tiny", with_compound(R"({"shape": "circle", "radius": 1e-10})"),
       "bodies[1].shapes[0].radius: 1e-10 m is outside [0.001, 100000] m (strut/limits.hpp)"},
      {"v2_item_concave",
       with_compound(
           R"({"shape": "polygon", "vertices": [[0, 0], [2, 0], [1, 0.5], [2, 2], [0, 2]]})"),
       "bodies[1].shapes[0].vertices: polygon is not convex at vertex 2"},
      {"v2_item_seventeen_vertices",
       with_compound(R"({"shape": "polygon", "vertices": [[1,0],[0.92,0.38],[0.71,0.71],
         [0.38,0.92],[0,1],[-0.38,0.92],[-0.71,0.71],[-0.92,0.38],[-1,0],[-0.92,-0.38],
         [-0.71,-0.71],[-0.38,-0.92],[0,-1],[0.38,-0.92],[0.71,-0.71],[0.92,-0.38],[0.95,-0.2]]})"),
       "bodies[1].shapes[0].vertices: a polygon has at most 16 vertices, got 17"},
      {"v2_item_capsule_negative_half_length",
       with_compound(R"({"shape": "capsule", "half_length": -0.5, "radius": 0.2})"),
       "bodies[1].shapes[0].half_length: must not be negative, got -0.5"},
      {"v2_item_segment_on_dynamic_body",
       with_compound(boxes(1) + R"(, {"shape": "segment", "points": [[0, 0], [1, 0]]})"),
       "bodies[1].shapes[1].shape: a segment has no area, so no mass: it needs a static or "
       "kinematic body"},
      {"v2_item_chain_on_kinematic_body",
       with_compound(R"({"shape": "chain", "points": [[0, 0], [1, 0], [2, 1]]})",
                     R"(, "kinematic": true)"),
       "bodies[1].shapes[0].shape: a chain needs a static body"},
      {"v2_item_unknown_material",
       with_compound(R"({"shape": "circle", "radius": 1, "material": "wod"})"),
       "bodies[1].shapes[0].material: unknown material \"wod\""},
      {"v2_item_offset_overflow",
       with_compound(R"({"shape": "circle", "radius": 1, "offset": [1e39, 0]})"),
       "bodies[1].shapes[0].offset[0]: number 1e+39 is too large for a float"},
      {"v2_item_offset_too_far",
       with_compound(R"({"shape": "circle", "radius": 1, "offset": [0, -3e5]})"),
       "bodies[1].shapes[0].offset[1]: -300000 m exceeds the limit of 100000 m "
       "(strut/limits.hpp)"},
      {"v2_item_group_fraction", with_compound(R"({"shape": "circle", "radius": 1, "group": 0.5})"),
       "bodies[1].shapes[0].group: expected an integer, got 0.5"},
      {"v2_item_mask_negative", with_compound(R"({"shape": "circle", "radius": 1, "mask": -2})"),
       "bodies[1].shapes[0].mask: expected an unsigned 32-bit integer, got -2"},
      {"v2_item_sensor_not_bool", with_compound(R"({"shape": "circle", "radius": 1, "sensor": 1})"),
       "bodies[1].shapes[0].sensor: expected true or false, got 1"},
      // Names and joints.
      {"duplicate_name",
       R"({"bodies": [{"name": "a", "shape": "circle", "center": [0, 0], "radius": 1},
  {"name": "a", "shape": "circle", "center": [3, 0], "radius": 1}]})",
       "bodies[1].name: duplicate name \"a\" (also bodies[0])"},
      {"empty_name", with_body(box + R"(, "name": "")"),
       "bodies[1].name: must not be empty (leave it out for an unnamed body)"},
      {"joint_unknown_body", with_joint(R"("type": "weld", "a": "a", "b": "c")"),
       "joints[0].b: unknown body \"c\""},
      {"joint_same_body", with_joint(R"("type": "weld", "a": "a", "b": "a")"),
       "joints[0].b: a joint needs two different bodies, got \"a\" twice"},
      {"joint_missing_anchor", with_joint(R"("type": "pin", "a": "a", "b": "b")"),
       "joints[0]: missing key \"anchor\""},
      {"rope_inverted", with_joint(R"("type": "distance", "a": "a", "b": "b", "anchor_a": [0, 0],
                     "anchor_b": [2, 0], "min_length": 3, "max_length": 1)"),
       "joints[0].min_length: must be at most max_length (1), got 3"},
      // Body flags.
      {"static_and_kinematic", with_body(box + R"(, "static": true, "kinematic": true)"),
       "bodies[1].kinematic: a body cannot be both static and kinematic"},
      {"soft_circle",
       with_body(R"("shape": "circle", "center": [0, 1], "radius": 1, "soft": 0.001)"),
       "bodies[1].soft: a circle cannot be soft"},
      {"negative_soft", with_body(box + R"(, "soft": -1)"),
       "bodies[1].soft: must not be negative, got -1"},
      // Time step.
      {"dt_zero", with_world(R"("dt": 0)"),
       "world.dt: 0 is outside [1e-05, 0.1] (strut/limits.hpp)"},
      {"dt_negative", with_world(R"("dt": -0.01)"),
       "world.dt: -0.01 is outside [1e-05, 0.1] (strut/limits.hpp)"},
      {"substeps_zero", with_world(R"("substeps": 0)"), "world.substeps: must be positive, got 0"},
      {"substeps_negative", with_world(R"("substeps": -4)"),
       "world.substeps: must be positive, got -4"},
      {"iterations_zero", with_world(R"("iterations": 0)"),
       "world.iterations: must be positive, got 0"},
      // The magnitude rule (strut/limits.hpp), enforced as World enforces it (issue 15: each of
      // these was accepted; substeps 1e9 hung, dt 1e-30 ran one step).
      {"dt_tiny", with_world(R"("dt": 1e-30)"),
       "world.dt: 1e-30 is outside [1e-05, 0.1] (strut/limits.hpp)"},
      {"dt_huge", with_world(R"("dt": 700)"),
       "world.dt: 700 is outside [1e-05, 0.1] (strut/limits.hpp)"},
      {"substeps_huge", with_world(R"("substeps": 1000000000)"),
       "world.substeps: 1000000000 is too large (at most 1000)"},
      {"gravity_huge", with_world(R"("gravity": [0, -100000])"),
       "world.gravity[1]: -100000 is outside [-10000, 10000] (strut/limits.hpp)"},
      {"box_huge", with_body(R"("shape": "box", "center": [0, 1], "half_extents": [1e30, 1e30])"),
       "bodies[1].half_extents[0]: 1e+30 m is outside [0.001, 100000] m (strut/limits.hpp)"},
      {"box_tiny", with_body(R"("shape": "box", "center": [0, 1], "half_extents": [1, 1e-30])"),
       "bodies[1].half_extents[1]: 1e-30 m is outside [0.001, 100000] m (strut/limits.hpp)"},
      {"circle_tiny", with_body(R"("shape": "circle", "center": [0, 1], "radius": 1e-10)"),
       "bodies[1].radius: 1e-10 m is outside [0.001, 100000] m (strut/limits.hpp)"},
      {"static_moving", with_body(box + R"(, "static": true, "velocity": [1, 0])"),
       "bodies[1].velocity: a static body cannot move (make it kinematic)"},
      {"spin_too_fast", with_body(box + R"(, "angular_velocity": 5e6)"),
       "bodies[1].angular_velocity: 5e+06 exceeds the limit of 10000 rad/s (strut/limits.hpp)"},
      // Version 3: concave polygons (docs/scene_format.md, "Version 3"). An L outline: its
      // pieces are polygons, so a plain polygon of the same points stays concave and refused.
      {"v2_concave_polygon",
       with_body_v2(R"("shape": "concave_polygon", "center": [0, 1], "vertices": [[0, 0], [2, 0],
                      [2, 1], [1, 1], [1, 2], [0, 2]])"),
       "bodies[1].shape: unknown shape \"concave_polygon\" (expected box, polygon, circle, "
       "capsule, segment or chain; \"concave_polygon\" needs \"version\": 3)"},
      {"v1_concave_polygon",
       with_body(R"("shape": "concave_polygon", "center": [0, 1], "vertices": [[0, 0], [2, 0],
                   [2, 1], [1, 1], [1, 2], [0, 2]])"),
       "bodies[1].shape: unknown shape \"concave_polygon\" (expected box, polygon or circle; "
       "\"concave_polygon\" needs \"version\": 3)"},
      {"v2_concave_polygon_item",
       with_compound(R"({"shape": "concave_polygon", "vertices": [[0, 0], [2, 0], [2, 1], [1, 1],
                       [1, 2], [0, 2]]})"),
       "bodies[1].shapes[0].shape: unknown shape \"concave_polygon\" (expected box, polygon, "
       "circle, capsule, segment or chain; \"concave_polygon\" needs \"version\": 3)"},
      {"v3_concave_as_polygon",
       with_body_v3(poly + "[[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]]"),
       "bodies[1].vertices: polygon is not convex at vertex 3"},
      {"v3_unknown_shape", with_body_v3(R"("shape": "blob", "center": [0, 1])"),
       "bodies[1].shape: unknown shape \"blob\" (expected box, polygon, concave_polygon, circle, "
       "capsule, segment or chain)"},
      {"v3_concave_crossing",
       with_body_v3(R"("shape": "concave_polygon", "center": [0, 1], "vertices": [[0, 0], [2, 2],
                      [2, 0], [0, 2]])"),
       "bodies[1].vertices: self-intersecting: the edge from vertices[0] to vertices[1] crosses "
       "the edge from vertices[2] to vertices[3]"},
      {"v3_concave_two_points",
       with_body_v3(
           R"("shape": "concave_polygon", "center": [0, 1], "vertices": [[0, 0], [1, 0]])"),
       "bodies[1].vertices: a polygon needs at least 3 vertices, got 2"},
      {"v3_concave_far_point",
       with_body_v3(R"("shape": "concave_polygon", "center": [0, 1], "vertices": [[0, 0],
                      [200000, 0], [0, 1]])"),
       "bodies[1].vertices[1]: 200000 exceeds the limit of 100000 m (strut/limits.hpp)"},
      {"v3_concave_radius",
       with_body_v3(R"("shape": "concave_polygon", "center": [0, 1], "radius": 0.1,
                      "vertices": [[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]])"),
       "bodies[1].radius: does not apply to a concave_polygon"},
      {"v3_concave_soft",
       with_body_v3(R"("shape": "concave_polygon", "center": [0, 1], "soft": 0.001,
                      "vertices": [[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]])"),
       "bodies[1].soft: a concave_polygon cannot be soft (it is a compound of convex pieces)"},
      {"v3_concave_item_touching",
       R"({"version": 3, "bodies": [{"center": [0, 2], "shapes": [
          {"shape": "box", "half_extents": [0.5, 0.5]},
          {"shape": "concave_polygon", "vertices": [[0, 0], [4, 0], [4, 3], [2, 0], [0, 3]]}]}]})",
       "bodies[0].shapes[1].vertices: self-intersecting: the edge from vertices[0] to vertices[1] "
       "touches the edge from vertices[2] to vertices[3]"},
      {"byte_order_mark", "\xEF\xBB\xBF" + with_world(R"("dt": 0.01)"),
       "line 1, column 1: the file starts with a UTF-8 byte-order mark; save it without one"},
  };
}

}  // namespace strut::test
