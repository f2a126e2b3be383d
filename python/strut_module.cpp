// The Python module strut._strut (python/strut/__init__.py re-exports it): scenes loaded and
// stepped as `strut run` does, state as NumPy arrays in scene order, batches of worlds stepped
// side by side. The GIL is released while strut steps.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "strut/scene.hpp"
#include "strut/scenes.hpp"
#include "strut/world.hpp"
#include "tools/worlds/lander_env.hpp"

namespace py = pybind11;

namespace strut::python {
namespace {

std::string hash_text(std::uint64_t h) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

// The rows of World.events()' structured arrays (PYBIND11_NUMPY_DTYPE gives their dtypes).
struct ContactRecord {
  std::int32_t a, b;
  float normal[2];
  std::int32_t point_count;
  float points[2][2];
};
struct HitRecord {
  std::int32_t a, b;
  float point[2], normal[2];
  float approach_speed;
};
struct RayRecord {  // World.ray_cast_all's rows
  std::int32_t body;
  float point[2], normal[2];
  float fraction;
};
struct SensorRecord {
  std::int32_t sensor, visitor;
};
struct JointRecord {
  std::int32_t joint;
  float force[2];
  float torque;
};

// An array of n records of `dtype` (whose item size must be sizeof(Record)), and its rows.
template <class Record>
py::array records(std::size_t n, Record*& rows) {
  py::array_t<Record> a({py::ssize_t(n)});
  rows = a.mutable_data();
  return a;
}

// A world built from a scene: the scene's bodies in scene order and its step hook.
class PyWorld {
 public:
  explicit PyWorld(SceneInstance instance) : s_(std::move(instance)) {}

  void step(int steps) {
    if (steps < 0)
      throw Error("World.step: steps must be at least 0, got " + std::to_string(steps));
    py::gil_scoped_release unlocked;
    for (int k = 0; k < steps; ++k) {
      if (k + 1 == steps) forget_events();  // events() gives the last step's
      s_.step();
    }
  }
  // Marks every event list read, so that the next step starts each afresh.
  void forget_events() const {
    const World& w = s_.world;
    w.contact_begin_events(), w.contact_end_events(), w.contact_hit_events();
    w.sensor_begin_events(), w.sensor_end_events(), w.joint_events();
  }

  // Scene index of each body id slot (-1: not in the scene's list).
  std::vector<std::int32_t> body_indices() const {
    std::vector<std::int32_t> body_index;
    for (std::size_t k = 0; k < s_.bodies.size(); ++k) {
      const std::uint32_t slot = s_.bodies[k].index;
      if (slot >= body_index.size()) body_index.resize(slot + 1, -1);
      body_index[slot] = std::int32_t(k);
    }
    return body_index;
  }

  // Queries (World::ray_cast, ray_cast_all, query_aabb, query_point, cast_shape with a circle),
  // bodies by scene index. A hit is a dict {body, point, normal, fraction}, or None.
  py::object hit_of(const std::optional<RayHit>& hit) const {
    if (!hit) return py::none();
    const std::vector<std::int32_t> index = body_indices();
    py::dict d;
    d["body"] = hit->body.index < index.size() ? index[hit->body.index] : -1;
    d["point"] = py::make_tuple(hit->point.x, hit->point.y);
    d["normal"] = py::make_tuple(hit->normal.x, hit->normal.y);
    d["fraction"] = hit->fraction;
    return d;
  }
  py::object ray_cast(std::pair<float, float> from, std::pair<float, float> to,
                      std::uint32_t mask) const {
    return hit_of(s_.world.ray_cast({from.first, from.second}, {to.first, to.second}, mask));
  }
  py::array ray_cast_all(std::pair<float, float> from, std::pair<float, float> to,
                         std::uint32_t mask) const {
    const auto hits = s_.world.ray_cast_all({from.first, from.second}, {to.first, to.second}, mask);
    const std::vector<std::int32_t> index = body_indices();
    RayRecord* rows = nullptr;
    py::array a = records(hits.size(), rows);
    for (std::size_t i = 0; i < hits.size(); ++i) {
      const RayHit& h = hits[i];
      const std::int32_t b = h.body.index < index.size() ? index[h.body.index] : -1;
      rows[i] = {b, {h.point.x, h.point.y}, {h.normal.x, h.normal.y}, h.fraction};
    }
    return a;
  }
  py::array_t<std::int32_t> indices_of(const std::vector<BodyId>& ids) const {
    const std::vector<std::int32_t> index = body_indices();
    std::vector<std::int32_t> found;
    for (const BodyId id : ids)
      if (id.index < index.size() && index[id.index] >= 0) found.push_back(index[id.index]);
    std::sort(found.begin(), found.end());
    py::array_t<std::int32_t> out({py::ssize_t(found.size())});
    std::copy(found.begin(), found.end(), out.mutable_data());
    return out;
  }
  py::array_t<std::int32_t> query_box(std::pair<float, float> lower, std::pair<float, float> upper,
                                      std::uint32_t mask) const {
    return indices_of(
        s_.world.query_aabb(Aabb{{lower.first, lower.second}, {upper.first, upper.second}}, mask));
  }
  py::array_t<std::int32_t> query_point(std::pair<float, float> p, std::uint32_t mask) const {
    return indices_of(s_.world.query_point({p.first, p.second}, mask));
  }
  py::object cast_circle(std::pair<float, float> center, float radius,
                         std::pair<float, float> translation) const {
    return hit_of(s_.world.cast_shape(CircleShape{radius},
                                      Transform{{center.first, center.second}, 0},
                                      {translation.first, translation.second}));
  }

  // The last step's events as NumPy structured arrays, bodies and joints as scene indices (-1:
  // not in the scene's lists, such as a tile map's body, or destroyed since).
  py::dict events() const {
    const std::vector<std::int32_t> body_index = body_indices();
    std::vector<std::int32_t> joint_index;
    for (std::size_t k = 0; k < s_.joints.size(); ++k) {
      const std::uint32_t slot = s_.joints[k].index;
      if (slot >= joint_index.size()) joint_index.resize(slot + 1, -1);
      joint_index[slot] = std::int32_t(k);
    }
    const World& w = s_.world;
    const auto body = [&](BodyId id) {
      return id.index < body_index.size() && w.is_valid(id) ? body_index[id.index] : -1;
    };
    py::dict out;
    const auto contacts = [&](std::span<const ContactEvent> list) {
      ContactRecord* rows = nullptr;
      py::array a = records(list.size(), rows);
      for (std::size_t i = 0; i < list.size(); ++i) {
        const ContactEvent& e = list[i];
        rows[i] = {body(e.a),
                   body(e.b),
                   {e.normal.x, e.normal.y},
                   e.point_count,
                   {{e.points[0].x, e.points[0].y}, {e.points[1].x, e.points[1].y}}};
      }
      return a;
    };
    out["contact_begin"] = contacts(w.contact_begin_events());
    out["contact_end"] = contacts(w.contact_end_events());
    const auto hits = w.contact_hit_events();
    HitRecord* hit_rows = nullptr;
    py::array hit = records(hits.size(), hit_rows);
    for (std::size_t i = 0; i < hits.size(); ++i)
      hit_rows[i] = {body(hits[i].a),
                     body(hits[i].b),
                     {hits[i].point.x, hits[i].point.y},
                     {hits[i].normal.x, hits[i].normal.y},
                     hits[i].approach_speed};
    out["contact_hit"] = hit;
    const auto sensors = [&](std::span<const SensorEvent> list) {
      SensorRecord* rows = nullptr;
      py::array a = records(list.size(), rows);
      for (std::size_t i = 0; i < list.size(); ++i)
        rows[i] = {body(list[i].sensor_body), body(list[i].visitor_body)};
      return a;
    };
    out["sensor_begin"] = sensors(w.sensor_begin_events());
    out["sensor_end"] = sensors(w.sensor_end_events());
    const auto joints = w.joint_events();
    JointRecord* joint_rows = nullptr;
    py::array joint = records(joints.size(), joint_rows);
    for (std::size_t i = 0; i < joints.size(); ++i) {
      const JointId id = joints[i].joint;
      const std::int32_t k =
          id.index < joint_index.size() && w.is_valid(id) ? joint_index[id.index] : -1;
      joint_rows[i] = {k, {joints[i].force.x, joints[i].force.y}, joints[i].torque};
    }
    out["joint"] = joint;
    return out;
  }
  void step_once() { s_.step(); }  // with the GIL released by the caller
  std::string hash() const { return hash_text(s_.world.state_hash()); }
  const std::vector<std::string>& body_names() const { return s_.names; }
  std::size_t body_count() const { return s_.bodies.size(); }

  // Fills out[k * columns + c] with read(body k) for every body in scene order.
  template <class Read>
  py::array_t<float> read(int columns, Read&& read_one) const {
    const auto n = static_cast<py::ssize_t>(s_.bodies.size());
    py::array_t<float> out =
        columns == 1 ? py::array_t<float>({n}) : py::array_t<float>({n, py::ssize_t(columns)});
    float* data = out.mutable_data();
    for (std::size_t k = 0; k < s_.bodies.size(); ++k)
      read_one(s_.bodies[k], data + k * std::size_t(columns));
    return out;
  }
  py::array_t<float> positions() const {
    py::array_t<float> out({py::ssize_t(s_.bodies.size()), py::ssize_t(2)});
    static_assert(sizeof(Vec2) == 2 * sizeof(float));
    s_.world.get_positions(s_.bodies,
                           {reinterpret_cast<Vec2*>(out.mutable_data()), s_.bodies.size()});
    return out;
  }
  py::array_t<float> angles() const {
    return read(1, [this](BodyId id, float* o) { o[0] = s_.world.transform(id).angle; });
  }
  py::array_t<float> velocities() const {
    return read(2, [this](BodyId id, float* o) {
      const Vec2 v = s_.world.linear_velocity(id);
      o[0] = v.x, o[1] = v.y;
    });
  }
  py::array_t<float> angular_velocities() const {
    return read(1, [this](BodyId id, float* o) { o[0] = s_.world.angular_velocity(id); });
  }

  // body: a name or an index in scene order.
  BodyId body(const std::variant<std::string, long long>& body, const char* call) const {
    if (const auto* index = std::get_if<long long>(&body)) {
      if (*index < 0 || *index >= static_cast<long long>(s_.bodies.size()))
        throw Error(std::string(call) + ": body index " + std::to_string(*index) +
                    " is outside the scene's " + std::to_string(s_.bodies.size()) + " bodies");
      return s_.bodies[std::size_t(*index)];
    }
    const std::string& name = std::get<std::string>(body);
    for (std::size_t k = 0; k < s_.names.size(); ++k)
      if (!name.empty() && s_.names[k] == name) return s_.bodies[k];
    throw Error(std::string(call) + ": no body is named \"" + name + "\"");
  }
  // Bodies chosen by an index array into the scene's bodies (all of them when None), each index
  // checked; throws naming the call and the element.
  std::vector<BodyId> chosen(const std::optional<py::array_t<long long>>& indices,
                             const char* call) const {
    std::vector<BodyId> ids;
    if (!indices) return s_.bodies;
    const auto r = indices->unchecked<1>();
    for (py::ssize_t k = 0; k < r.shape(0); ++k) {
      if (r(k) < 0 || r(k) >= static_cast<long long>(s_.bodies.size()))
        throw Error(std::string(call) + ": bodies[" + std::to_string(k) +
                    "] = " + std::to_string(r(k)) + " is outside the scene's " +
                    std::to_string(s_.bodies.size()) + " bodies");
      ids.push_back(s_.bodies[std::size_t(r(k))]);
    }
    return ids;
  }
  // An (n, columns) or (n,) float32 array's rows, checked for shape and finiteness.
  using Rows = py::array_t<float, py::array::c_style | py::array::forcecast>;
  static const float* rows(const Rows& a, std::size_t n, int columns, const char* call,
                           const char* what) {
    const bool shaped =
        columns == 1 ? a.ndim() == 1 && std::size_t(a.shape(0)) == n
                     : a.ndim() == 2 && std::size_t(a.shape(0)) == n && a.shape(1) == columns;
    if (!shaped)
      throw Error(std::string(call) + ": " + what + " must have shape (" + std::to_string(n) +
                  (columns == 1 ? ",)" : ", " + std::to_string(columns) + ")"));
    for (std::size_t k = 0; k < n * std::size_t(columns); ++k)
      if (!std::isfinite(a.data()[k]))
        throw Error(std::string(call) + ": " + what + "[" + std::to_string(k / columns) +
                    "] is not finite");
    return a.data();
  }
  // Velocities (n, 2) and optionally angular velocities (n,) of the chosen bodies, all checked by
  // the world's own rules first (static bodies refuse), then set: nothing changes on an error.
  void set_velocities(const Rows& linear, const std::optional<Rows>& angular,
                      const std::optional<py::array_t<long long>>& indices) {
    const char* call = "World.set_velocities";
    const std::vector<BodyId> ids = chosen(indices, call);
    const float* v = rows(linear, ids.size(), 2, call, "velocities");
    const float* w = angular ? rows(*angular, ids.size(), 1, call, "angular") : nullptr;
    for (std::size_t k = 0; k < ids.size(); ++k)
      if (s_.world.type(ids[k]) == BodyType::Static)
        throw Error(std::string(call) + ": body " + std::to_string(k) + " is static");
    for (std::size_t k = 0; k < ids.size(); ++k) {
      s_.world.set_linear_velocity(ids[k], {v[2 * k], v[2 * k + 1]});
      if (w) s_.world.set_angular_velocity(ids[k], w[k]);
    }
  }
  // Forces (n, 2) at the centres and optionally torques (n,), until the next step.
  // Force rows (n, 2) and torque rows (n,) or none, checked for `ids`: shapes, finite values,
  // and nothing but zero rows for bodies that are not dynamic.
  struct ForceRows {
    const float* forces;
    const float* torques;
  };
  ForceRows checked_forces(const std::vector<BodyId>& ids, const Rows& forces,
                           const std::optional<Rows>& torques, const std::string& call) const {
    const float* f = rows(forces, ids.size(), 2, call.c_str(), "forces");
    const float* t = torques ? rows(*torques, ids.size(), 1, call.c_str(), "torques") : nullptr;
    for (std::size_t k = 0; k < ids.size(); ++k)
      if (s_.world.type(ids[k]) != BodyType::Dynamic &&
          (f[2 * k] != 0 || f[2 * k + 1] != 0 || (t && t[k] != 0)))
        throw Error(call + ": body " + std::to_string(k) + " is not dynamic and takes no forces");
    return {f, t};
  }
  // Pushes checked rows (the zero rows of bodies that are not dynamic are skipped).
  void push_forces(const std::vector<BodyId>& ids, ForceRows r) {
    for (std::size_t k = 0; k < ids.size(); ++k) {
      if (s_.world.type(ids[k]) != BodyType::Dynamic) continue;
      s_.world.apply_force(ids[k], {r.forces[2 * k], r.forces[2 * k + 1]});
      if (r.torques) s_.world.apply_torque(ids[k], r.torques[k]);
    }
  }
  void apply_forces(const Rows& forces, const std::optional<Rows>& torques,
                    const std::optional<py::array_t<long long>>& indices) {
    const std::vector<BodyId> ids = chosen(indices, "World.apply_forces");
    push_forces(ids, checked_forces(ids, forces, torques, "World.apply_forces"));
  }
  // The same for every body of this world, as world `w` of a batch: checked, then pushed.
  ForceRows check_all_forces(const Rows& forces, const std::optional<Rows>& torques,
                             std::size_t w) const {
    return checked_forces(s_.bodies, forces, torques,
                          "WorldBatch.apply_forces: world " + std::to_string(w));
  }
  void push_all_forces(ForceRows r) { push_forces(s_.bodies, r); }
  // Motor speeds of the scene's joints, in scene order (n_joints,).
  void set_motor_speeds(const Rows& speeds) {
    const float* s = rows(speeds, s_.joints.size(), 1, "World.set_motor_speeds", "speeds");
    for (std::size_t k = 0; k < s_.joints.size(); ++k)
      s_.world.set_joint_motor_speed(s_.joints[k], s[k]);
  }
  std::size_t joint_count() const { return s_.joints.size(); }
  const std::vector<std::string>& joint_names() const { return s_.joint_names; }

  void set_velocity(const std::variant<std::string, long long>& b, std::pair<float, float> v) {
    s_.world.set_linear_velocity(body(b, "World.set_velocity"), {v.first, v.second});
  }
  // The bytes `strut run --snapshot-out` writes; a World made from them continues exactly.
  py::bytes snapshot() const {
    std::vector<std::uint8_t> bytes;
    {
      py::gil_scoped_release unlocked;
      bytes = save_scene_snapshot(s_);
    }
    return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  static PyWorld from_snapshot(const py::bytes& data, int threads) {
    if (threads < 0)
      throw Error("World.from_snapshot: threads must be 0 (all cores) or more, got " +
                  std::to_string(threads));
    const std::string_view view = data;
    const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(view.data()),
                                              view.size());
    py::gil_scoped_release unlocked;
    return PyWorld(load_scene_snapshot(bytes, "snapshot", threads));
  }
  PyWorld copy() const {
    py::gil_scoped_release unlocked;
    return PyWorld(s_.copy());
  }
  // This world becomes `state` (a World or snapshot bytes), keeping its own threads.
  void restore_world(const PyWorld& state) {
    py::gil_scoped_release unlocked;
    s_.restore(state.s_);
  }
  void restore_bytes(const py::bytes& data) {
    PyWorld loaded = from_snapshot(data, s_.world.config().threads);
    py::gil_scoped_release unlocked;
    s_ = std::move(loaded.s_);
  }
  int threads() const { return s_.world.config().threads; }
  void restore_from(const PyWorld& state) { s_.restore(state.s_); }  // GIL released by the caller

  void explode(std::pair<float, float> position, float radius, float falloff,
               float impulse_per_length, std::uint32_t mask) {
    s_.world.explode({.position = {position.first, position.second},
                      .radius = radius,
                      .falloff = falloff,
                      .impulse_per_length = impulse_per_length,
                      .mask = mask});
  }

 private:
  SceneInstance s_;
};

PyWorld load_text(const std::string& text, int threads, const std::string& label) {
  if (threads < 0)
    throw Error("load_scene_text: threads must be 0 (all cores) or more, got " +
                std::to_string(threads));
  return PyWorld(build_scene(parse_scene(text, label), threads));
}

PyWorld load(const std::string& scene, int threads) {
  if (threads < 0)
    throw Error("load_scene: threads must be 0 (all cores) or more, got " +
                std::to_string(threads));
  if (is_builtin_scene(scene)) return PyWorld(build_scene(builtin_scene(scene), threads));
  if (!std::filesystem::exists(scene))
    throw Error("load_scene: \"" + scene +
                "\" is neither a file nor a built-in scene (strut.builtin_scene_names())");
  return PyWorld(build_scene(load_scene_file(scene), threads));
}

// Worlds stepped side by side: one world a task on the batch's threads, each world's step as it
// would run alone (its own threads, its own order), so each ends as if stepped alone.
class PyWorldBatch {
 public:
  PyWorldBatch(const std::vector<py::object>& worlds, int threads) : owners_(worlds) {
    for (const py::object& w : worlds) worlds_.push_back(w.cast<PyWorld*>());
    if (threads < 0)
      throw Error("WorldBatch: threads must be 0 (all cores) or more, got " +
                  std::to_string(threads));
    for (std::size_t i = 0; i < worlds_.size(); ++i)
      for (std::size_t k = 0; k < i; ++k)
        if (worlds_[i] == worlds_[k])
          throw Error("WorldBatch: worlds[" + std::to_string(k) + "] and [" + std::to_string(i) +
                      "] are the same World");
    threads_ = threads == 0 ? int(std::max(1u, std::thread::hardware_concurrency())) : threads;
  }
  void step(int steps) {
    if (steps < 0)
      throw Error("WorldBatch.step: steps must be at least 0, got " + std::to_string(steps));
    py::gil_scoped_release unlocked;
    tbb::task_arena arena(threads_);
    for (int k = 0; k < steps; ++k)
      arena.execute([&] {
        tbb::parallel_for(std::size_t(0), worlds_.size(),
                          [&](std::size_t i) { worlds_[i]->step_once(); });
      });
  }
  // world w's read() as row w of one (worlds, bodies, ...) array; every world must have as many
  // bodies as the first.
  template <class Read>
  py::array_t<float> stacked(int columns, const char* call, Read&& read) const {
    const std::size_t n = worlds_.empty() ? 0 : worlds_[0]->body_count();
    for (std::size_t i = 0; i < worlds_.size(); ++i)
      if (worlds_[i]->body_count() != n)
        throw Error(std::string("WorldBatch.") + call + ": world " + std::to_string(i) + " has " +
                    std::to_string(worlds_[i]->body_count()) + " bodies, world 0 has " +
                    std::to_string(n) + ": the arrays need as many in every world");
    std::vector<py::ssize_t> shape{py::ssize_t(worlds_.size()), py::ssize_t(n)};
    if (columns > 1) shape.push_back(columns);
    py::array_t<float> out(shape);
    float* data = out.mutable_data();
    for (std::size_t i = 0; i < worlds_.size(); ++i) {
      const py::array_t<float> one = read(*worlds_[i]);
      std::copy(one.data(), one.data() + n * std::size_t(columns),
                data + i * n * std::size_t(columns));
    }
    return out;
  }
  py::array_t<float> positions() const {
    return stacked(2, "positions", [](const PyWorld& w) { return w.positions(); });
  }
  py::array_t<float> angles() const {
    return stacked(1, "angles", [](const PyWorld& w) { return w.angles(); });
  }
  py::array_t<float> velocities() const {
    return stacked(2, "velocities", [](const PyWorld& w) { return w.velocities(); });
  }
  py::array_t<float> angular_velocities() const {
    return stacked(1, "angular_velocities",
                   [](const PyWorld& w) { return w.angular_velocities(); });
  }
  std::vector<std::string> hashes() const {
    std::vector<std::string> out;
    for (const PyWorld* w : worlds_) out.push_back(w->hash());
    return out;
  }
  std::size_t size() const { return worlds_.size(); }
  // reset() with snapshot bytes: loaded once, then copied into each listed world.
  void reset_bytes(const std::vector<long long>& indices, const py::bytes& data) {
    const PyWorld state = PyWorld::from_snapshot(data, 1);
    reset(indices, state);
  }
  // World w's rows of a (worlds, n, columns) array, every world with as many bodies as world 0.
  using Rows = PyWorld::Rows;
  void check_stack(const Rows& a, int columns, const char* call, const char* what) const {
    const std::size_t n = worlds_.empty() ? 0 : worlds_[0]->body_count();
    const bool shaped = a.ndim() == (columns == 1 ? 2 : 3) &&
                        std::size_t(a.shape(0)) == worlds_.size() && std::size_t(a.shape(1)) == n &&
                        (columns == 1 || a.shape(2) == columns);
    if (!shaped)
      throw Error(std::string(call) + ": " + what + " must have shape (" +
                  std::to_string(worlds_.size()) + ", " + std::to_string(n) +
                  (columns == 1 ? ")" : ", " + std::to_string(columns) + ")"));
    for (std::size_t i = 0; i < worlds_.size(); ++i)
      if (worlds_[i]->body_count() != n)
        throw Error(std::string(call) + ": world " + std::to_string(i) + " has " +
                    std::to_string(worlds_[i]->body_count()) + " bodies, world 0 has " +
                    std::to_string(n));
  }
  // Row i of the first axis, as a view into `a` (its base: no copy, so pointers read from it
  // stay valid while `a` does).
  static Rows slice(const Rows& a, std::size_t i) {
    std::vector<py::ssize_t> shape(a.shape() + 1, a.shape() + a.ndim());
    const std::size_t per = std::size_t(a.size()) / std::size_t(a.shape(0));
    return Rows(shape, a.data() + i * per, a);
  }
  // Forces (worlds, n, 2) on every body of every world, torques (worlds, n) if given; each world
  // checked before any is pushed (as World.apply_forces checks).
  void apply_forces(const Rows& forces, const std::optional<Rows>& torques) {
    check_stack(forces, 2, "WorldBatch.apply_forces", "forces");
    if (torques) check_stack(*torques, 1, "WorldBatch.apply_forces", "torques");
    // Every world checked (its rows views into the arrays) before any is pushed; once each.
    std::vector<PyWorld::ForceRows> checked;
    for (std::size_t i = 0; i < worlds_.size(); ++i)
      checked.push_back(worlds_[i]->check_all_forces(
          slice(forces, i), torques ? std::optional(slice(*torques, i)) : std::nullopt, i));
    for (std::size_t i = 0; i < worlds_.size(); ++i) worlds_[i]->push_all_forces(checked[i]);
  }
  // Motor speeds (worlds, joints) of every world's scene joints.
  void set_motor_speeds(const Rows& speeds) {
    const std::size_t n = worlds_.empty() ? 0 : worlds_[0]->joint_count();
    if (speeds.ndim() != 2 || std::size_t(speeds.shape(0)) != worlds_.size() ||
        std::size_t(speeds.shape(1)) != n)
      throw Error("WorldBatch.set_motor_speeds: speeds must have shape (" +
                  std::to_string(worlds_.size()) + ", " + std::to_string(n) + ")");
    for (std::size_t i = 0; i < worlds_.size(); ++i)
      if (worlds_[i]->joint_count() != n)
        throw Error("WorldBatch.set_motor_speeds: world " + std::to_string(i) + " has " +
                    std::to_string(worlds_[i]->joint_count()) + " joints, world 0 has " +
                    std::to_string(n));
    for (std::size_t i = 0; i < worlds_.size(); ++i) worlds_[i]->set_motor_speeds(slice(speeds, i));
  }

  // The listed worlds (indices into the batch, each once) become copies of `state`, side by side.
  void reset(const std::vector<long long>& indices, const PyWorld& state) {
    std::vector<PyWorld*> chosen;
    for (const long long i : indices) {
      if (i < 0 || i >= static_cast<long long>(worlds_.size()))
        throw Error("WorldBatch.reset: index " + std::to_string(i) + " is outside the batch's " +
                    std::to_string(worlds_.size()) + " worlds");
      for (const PyWorld* w : chosen)
        if (w == worlds_[std::size_t(i)])
          throw Error("WorldBatch.reset: index " + std::to_string(i) + " is listed twice");
      if (worlds_[std::size_t(i)] == &state)
        throw Error("WorldBatch.reset: world " + std::to_string(i) + " is the state itself");
      chosen.push_back(worlds_[std::size_t(i)]);
    }
    py::gil_scoped_release unlocked;
    tbb::task_arena arena(threads_);
    arena.execute([&] {
      tbb::parallel_for(std::size_t(0), chosen.size(),
                        [&](std::size_t k) { chosen[k]->restore_from(state); });
    });
  }

 private:
  std::vector<py::object> owners_;  // keeps the worlds alive as long as the batch
  std::vector<PyWorld*> worlds_;
  int threads_ = 1;
};

// The lander task over a batch of worlds (tools/worlds/lander_env.hpp), in the shape vectorised
// learning environments have: reset() -> (obs, info), step(actions) -> (obs, reward, terminated,
// truncated, info), NumPy arrays over the environments, finished episodes restarted at once.
class PyLanderEnv {
 public:
  PyLanderEnv(int envs, int threads, std::uint64_t seed, int max_steps)
      : env_({.envs = envs, .threads = threads, .seed = seed, .max_steps = max_steps}) {
    const auto n = py::ssize_t(env_.size());
    obs_ = py::array_t<float>({n, py::ssize_t(envs::kLanderObservations)});
    reward_ = py::array_t<float>({n});
    terminated_ = py::array_t<bool>({n});
    truncated_ = py::array_t<bool>({n});
  }
  std::size_t size() const { return env_.size(); }

  py::tuple reset() {
    {
      py::gil_scoped_release unlocked;
      env_.reset(span_of(obs_));
    }
    return py::make_tuple(copy(obs_), py::dict());
  }
  py::tuple step(const py::array_t<float, py::array::c_style | py::array::forcecast>& actions) {
    const auto n = std::size_t(env_.size());
    if (actions.ndim() != 2 || std::size_t(actions.shape(0)) != n ||
        actions.shape(1) != envs::kLanderActions)
      throw Error("LanderEnv.step: actions must have shape (" + std::to_string(n) + ", " +
                  std::to_string(envs::kLanderActions) + ")");
    {
      py::gil_scoped_release unlocked;
      env_.step({actions.data(), n * envs::kLanderActions}, span_of(obs_), span_of(reward_),
                bytes_of(terminated_), bytes_of(truncated_));
    }
    py::dict info;
    py::array_t<float> returns({py::ssize_t(n)});
    py::array_t<int> lengths({py::ssize_t(n)});
    std::copy(env_.last_returns().begin(), env_.last_returns().end(), returns.mutable_data());
    std::copy(env_.last_lengths().begin(), env_.last_lengths().end(), lengths.mutable_data());
    info["episode_return"] = returns;
    info["episode_length"] = lengths;
    return py::make_tuple(copy(obs_), copy(reward_), copy(terminated_), copy(truncated_), info);
  }
  // The same actions for `steps` steps, all in C++: the batch's own speed, which step()'s Python
  // overhead is measured against (bench/lander_env_bench.py); returns the summed rewards.
  py::array_t<float> run(const py::array_t<float, py::array::c_style | py::array::forcecast>& a,
                         int steps) {
    const std::size_t n = env_.size();
    if (a.ndim() != 2 || std::size_t(a.shape(0)) != n || a.shape(1) != envs::kLanderActions)
      throw Error("LanderEnv.run: actions must have shape (" + std::to_string(n) + ", " +
                  std::to_string(envs::kLanderActions) + ")");
    if (steps < 0) throw Error("LanderEnv.run: steps must be at least 0");
    py::array_t<float> total({py::ssize_t(n)});
    std::fill(total.mutable_data(), total.mutable_data() + n, 0.0f);
    {
      py::gil_scoped_release unlocked;
      for (int k = 0; k < steps; ++k) {
        env_.step({a.data(), n * envs::kLanderActions}, span_of(obs_), span_of(reward_),
                  bytes_of(terminated_), bytes_of(truncated_));
        for (std::size_t i = 0; i < n; ++i) total.mutable_data()[i] += reward_.data()[i];
      }
    }
    return total;
  }

 private:
  template <class T>
  static std::span<T> span_of(py::array_t<T>& a) {
    return {a.mutable_data(), std::size_t(a.size())};
  }
  static std::span<std::uint8_t> bytes_of(py::array_t<bool>& a) {
    return {reinterpret_cast<std::uint8_t*>(a.mutable_data()), std::size_t(a.size())};
  }
  template <class T>
  static py::array_t<T> copy(const py::array_t<T>& a) {
    return py::array_t<T>(a.request());
  }

  envs::LanderEnv env_;
  py::array_t<float> obs_, reward_;
  py::array_t<bool> terminated_, truncated_;
};

}  // namespace
}  // namespace strut::python

PYBIND11_MODULE(_strut, m) {
  using namespace strut::python;
  m.doc() =
      "strut, a 2D physics engine: scenes, worlds stepped as `strut run` steps them, state as "
      "NumPy arrays";
  // strut::Error (and SceneError, derived from it) as strut.Error, a ValueError.
  py::register_exception<strut::Error>(m, "Error", PyExc_ValueError);
  PYBIND11_NUMPY_DTYPE(ContactRecord, a, b, normal, point_count, points);
  PYBIND11_NUMPY_DTYPE(HitRecord, a, b, point, normal, approach_speed);
  PYBIND11_NUMPY_DTYPE(SensorRecord, sensor, visitor);
  PYBIND11_NUMPY_DTYPE(RayRecord, body, point, normal, fraction);
  PYBIND11_NUMPY_DTYPE(JointRecord, joint, force, torque);
  m.def("builtin_scene_names", &strut::builtin_scene_names, "The names of the built-in scenes.");
  m.def("load_scene", &load, py::arg("scene"), py::arg("threads") = 0,
        "A scene file's path or a built-in scene's name -> World, built as `strut run` builds it "
        "(threads: 0 = all cores).");
  m.def("load_scene_text", &load_text, py::arg("text"), py::arg("threads") = 0,
        py::arg("label") = "<scene>",
        "A scene document's JSON text (docs/scene_format.md) -> World; errors name `label` and "
        "the document path, as for files.");
  py::class_<PyWorld>(m, "World", "A world built from a scene; bodies are in scene order.")
      .def("step", &PyWorld::step, py::arg("steps") = 1,
           "Runs `steps` steps of the scene's dt (the scene's step hook first, as `strut run`).")
      .def("hash", &PyWorld::hash, "The 16-hex-digit state hash `strut run` prints.")
      .def_property_readonly("body_names", &PyWorld::body_names,
                             "Names in scene order ('' when unnamed).")
      .def("__len__", &PyWorld::body_count)
      .def("positions", &PyWorld::positions, "Centres of mass, float32 (n, 2).")
      .def("angles", &PyWorld::angles, "Angles in radians, float32 (n,).")
      .def("velocities", &PyWorld::velocities, "Linear velocities, float32 (n, 2).")
      .def("angular_velocities", &PyWorld::angular_velocities, "Angular velocities, float32 (n,).")
      .def("set_velocities", &PyWorld::set_velocities, py::arg("velocities"),
           py::arg("angular") = py::none(), py::arg("bodies") = py::none(),
           "Sets the linear velocities (n, 2), and angular ones (n,) if given, of every body or "
           "of the scene indices `bodies`; all checked before any is set.")
      .def("apply_forces", &PyWorld::apply_forces, py::arg("forces"),
           py::arg("torques") = py::none(), py::arg("bodies") = py::none(),
           "Forces (n, 2) at the centres, and torques (n,) if given, until the next step.")
      .def("set_motor_speeds", &PyWorld::set_motor_speeds, py::arg("speeds"),
           "Motor speeds of the scene's joints in scene order (n_joints,).")
      .def_property_readonly("joint_names", &PyWorld::joint_names,
                             "Joint names in scene order ('' when unnamed).")
      .def("set_velocity", &PyWorld::set_velocity, py::arg("body"), py::arg("velocity"),
           "Sets the linear velocity of a body given by name or scene index.")
      .def("ray_cast", &PyWorld::ray_cast, py::arg("start"), py::arg("end"),
           py::arg("mask") = 0xFFFFFFFFu,
           "The first shape the segment start -> end hits: {body (scene index), point, normal, "
           "fraction} or None.")
      .def("ray_cast_all", &PyWorld::ray_cast_all, py::arg("start"), py::arg("end"),
           py::arg("mask") = 0xFFFFFFFFu,
           "Every hit along the segment as a structured array (body, point, normal, fraction).")
      .def("query_box", &PyWorld::query_box, py::arg("lower"), py::arg("upper"),
           py::arg("mask") = 0xFFFFFFFFu, "Scene indices of the bodies whose boxes overlap it.")
      .def("query_point", &PyWorld::query_point, py::arg("point"), py::arg("mask") = 0xFFFFFFFFu,
           "Scene indices of the bodies containing the point.")
      .def("cast_circle", &PyWorld::cast_circle, py::arg("center"), py::arg("radius"),
           py::arg("translation"),
           "The first shape a circle moved by `translation` touches: a hit dict or None.")
      .def("events", &PyWorld::events,
           "The last step's events as NumPy structured arrays, bodies and joints by scene index "
           "(-1: not in the scene's lists): contact_begin and contact_end (a, b, normal, "
           "point_count, points), contact_hit (a, b, point, normal, approach_speed), "
           "sensor_begin and sensor_end (sensor, visitor: bodies), joint (joint, force, torque).")
      .def("snapshot", &PyWorld::snapshot,
           "The world as bytes (the same bytes `strut run --snapshot-out` writes): everything a "
           "step reads, the body order and names and the scene's step hook, so that "
           "World.from_snapshot continues bit-identically at any thread count.")
      .def_static("from_snapshot", &PyWorld::from_snapshot, py::arg("data"), py::arg("threads") = 0,
                  "A World from snapshot bytes (World.snapshot, strut run --snapshot-out, or a C++ "
                  "World::snapshot); strut.Error naming the bytes for a damaged one.")
      .def("copy", &PyWorld::copy, "A copy that continues exactly as this world does.")
      .def("__copy__", &PyWorld::copy)
      .def(
          "__deepcopy__", [](const PyWorld& w, py::dict) { return w.copy(); }, py::arg("memo"))
      .def("restore", &PyWorld::restore_world, py::arg("state"),
           "This world becomes a copy of `state` (a World), reusing its memory.")
      .def("restore", &PyWorld::restore_bytes, py::arg("state"),
           "This world becomes the snapshot `state` (bytes), keeping its threads.")
      .def_property_readonly("threads", &PyWorld::threads,
                             "The threads it steps on (0: all cores).")
      .def(py::pickle([](const PyWorld& w) { return py::make_tuple(w.snapshot(), w.threads()); },
                      [](const py::tuple& t) {
                        if (t.size() != 2)
                          throw strut::Error("World: a pickled World is (bytes, threads)");
                        return PyWorld::from_snapshot(t[0].cast<py::bytes>(), t[1].cast<int>());
                      }))
      .def("explode", &PyWorld::explode, py::arg("position"), py::arg("radius") = 1.0f,
           py::arg("falloff") = 0.0f, py::arg("impulse_per_length") = 1.0f,
           py::arg("mask") = 0xFFFFFFFFu,
           "Pushes the shapes of dynamic bodies around `position` away from it by "
           "impulse_per_length (N s/m) x each shape's width facing the blast, full to `radius`, "
           "falling linearly to 0 at radius + falloff (World::explode).");
  py::class_<PyWorldBatch>(m, "WorldBatch",
                           "Worlds stepped side by side; each ends as if stepped alone.")
      .def(py::init<const std::vector<py::object>&, int>(), py::arg("worlds"),
           py::arg("threads") = 0)
      .def("step", &PyWorldBatch::step, py::arg("steps") = 1, "Steps every world `steps` times.")
      .def("hashes", &PyWorldBatch::hashes, "Each world's hash, in order.")
      .def("positions", &PyWorldBatch::positions, "Centres of mass, float32 (worlds, n, 2).")
      .def("angles", &PyWorldBatch::angles, "Angles, float32 (worlds, n).")
      .def("velocities", &PyWorldBatch::velocities, "Linear velocities, float32 (worlds, n, 2).")
      .def("angular_velocities", &PyWorldBatch::angular_velocities,
           "Angular velocities, float32 (worlds, n).")
      .def("reset", &PyWorldBatch::reset, py::arg("indices"), py::arg("state"),
           "The listed worlds (indices, each once) become copies of the World `state`, side by "
           "side on the batch's threads.")
      .def("reset", &PyWorldBatch::reset_bytes, py::arg("indices"), py::arg("state"),
           "The listed worlds become the snapshot `state` (bytes, loaded once).")
      .def("apply_forces", &PyWorldBatch::apply_forces, py::arg("forces"),
           py::arg("torques") = py::none(),
           "Forces (worlds, n, 2) at every body's centre, torques (worlds, n) if given; zero rows "
           "for static and kinematic bodies; every world checked before any is pushed.")
      .def("set_motor_speeds", &PyWorldBatch::set_motor_speeds, py::arg("speeds"),
           "Motor speeds (worlds, joints) of each world's scene joints.")
      .def("__len__", &PyWorldBatch::size);
  py::class_<PyLanderEnv>(
      m, "LanderEnv",
      "A lander task over `num_envs` worlds stepped side by side: observations (num_envs, 8) "
      "(hull x, y from the pad, vx, vy, angle, angular velocity, left and right leg down), "
      "actions (num_envs, 2) (main throttle in [0, 1], side in [-1, 1]); episodes that end "
      "restart at once (info['episode_return'], info['episode_length'] give the finished ones).")
      .def(py::init<int, int, std::uint64_t, int>(), py::arg("num_envs"), py::arg("threads") = 0,
           py::arg("seed") = 0, py::arg("max_steps") = 1000)
      .def("reset", &PyLanderEnv::reset, "Starts every episode afresh -> (observations, info).")
      .def("step", &PyLanderEnv::step, py::arg("actions"),
           "-> (observations, rewards, terminated, truncated, info), NumPy arrays.")
      .def("run", &PyLanderEnv::run, py::arg("actions"), py::arg("steps"),
           "The same actions for `steps` steps without returning to Python; the summed rewards.")
      .def("__len__", &PyLanderEnv::size)
      .def_property_readonly_static(
          "observation_shape",
          [](py::object) { return py::make_tuple(strut::envs::kLanderObservations); })
      .def_property_readonly_static(
          "action_shape", [](py::object) { return py::make_tuple(strut::envs::kLanderActions); });
}
