#include "tools/record/recording_writer.hpp"

#include <bit>
#include <cstring>
#include <msgpack.hpp>
#include <utility>

namespace strut::record {

// Pose blocks are copied from memory as they are: the format is little-endian.
static_assert(std::endian::native == std::endian::little);

namespace {

std::uint64_t key_of(std::uint32_t index, std::uint32_t generation) {
  return (std::uint64_t(index) << 32) | generation;
}

// msgpack-cxx's packer writes through this onto the writer's byte string.
struct AppendTo {
  std::string& out;
  void write(const char* bytes, std::size_t n) { out.append(bytes, n); }
};

// msgpack-cxx packs a float whose value is whole (a radius of 0, a dt of 1) as an integer; the
// format says float32, so floats are written here: 0xca, then the bits, big-endian.
void pack_float32(std::string& out, float v) {
  const auto bits = std::bit_cast<std::uint32_t>(v);
  const char bytes[5] = {char(0xca), char(bits >> 24), char(bits >> 16), char(bits >> 8),
                         char(bits)};
  out.append(bytes, sizeof bytes);
}

template <class T>
std::span<const std::uint8_t> bytes_of(const std::vector<T>& v) {
  return {reinterpret_cast<const std::uint8_t*>(v.data()), v.size() * sizeof(T)};
}

bool same_bits(const Transform& a, const Transform& b) {
  return std::memcmp(&a, &b, sizeof(Transform)) == 0;
}

Vec2 to_local(const Transform& pose, Vec2 world_point) {
  return inv_rotate(make_rot(pose.angle), world_point - pose.position);
}

}  // namespace

// One World::draw pass, kept flat.
struct RecordingWriter::FrameSink : DebugDraw {
  struct Shape {
    RecordedKind kind;
    std::uint32_t first_vertex, vertex_count;
    float radius;
  };
  // A body's shapes are reported one after another (several for a compound body).
  struct Body {
    DrawBody info;
    std::uint32_t first_shape, shape_count;
  };
  std::vector<Body> bodies;
  std::vector<Shape> shapes;
  std::vector<Vec2> vertices;
  std::vector<DrawJoint> joints;
  std::vector<DrawContact> contacts;

  void add(const DrawBody& b, RecordedKind kind, std::span<const Vec2> v, float radius) {
    if (bodies.empty() || !(bodies.back().info.id == b.id))
      bodies.push_back({b, std::uint32_t(shapes.size()), 0});
    ++bodies.back().shape_count;
    shapes.push_back({kind, std::uint32_t(vertices.size()), std::uint32_t(v.size()), radius});
    vertices.insert(vertices.end(), v.begin(), v.end());
  }
  void draw_polygon(const DrawBody& b, std::span<const Vec2> v, float radius) override {
    add(b, RecordedKind::Polygon, v, radius);
  }
  void draw_circle(const DrawBody& b, Vec2 center, float radius) override {
    const Vec2 c[1] = {center};
    add(b, RecordedKind::Circle, c, radius);
  }
  void draw_capsule(const DrawBody& b, Vec2 p1, Vec2 p2, float radius) override {
    const Vec2 ends[2] = {p1, p2};
    add(b, RecordedKind::Capsule, ends, radius);
  }
  void draw_segment(const DrawBody& b, Vec2 p1, Vec2 p2) override {
    const Vec2 ends[2] = {p1, p2};
    add(b, RecordedKind::Segment, ends, 0.0f);
  }
  void draw_joint(const DrawJoint& j) override { joints.push_back(j); }
  void draw_contact(const DrawContact& c) override { contacts.push_back(c); }
  void clear() {
    bodies.clear();
    shapes.clear();
    vertices.clear();
    joints.clear();
    contacts.clear();
  }
};

RecordingWriter::~RecordingWriter() = default;
RecordingWriter::RecordingWriter(RecordingWriter&&) noexcept = default;
RecordingWriter& RecordingWriter::operator=(RecordingWriter&&) noexcept = default;

RecordingWriter::RecordingWriter(RecordingOptions options)
    : options_(std::move(options)), sink_(std::make_unique<FrameSink>()) {
  AppendTo append{out_};
  msgpack::packer<AppendTo> w(append);
  w.pack_map(options_.phases.empty() ? 7 : 8);
  w.pack("format");
  w.pack(kFormatName);
  w.pack("version");
  w.pack(std::uint64_t(kFormatVersion));
  w.pack("scene");
  w.pack(options_.scene);
  w.pack("dt");
  pack_float32(out_, options_.dt);
  w.pack("every");
  w.pack(std::uint64_t(options_.every));
  w.pack("contacts");
  w.pack(options_.contacts);
  w.pack("islands");
  w.pack(options_.islands);
  if (!options_.phases.empty()) {
    w.pack("phases");
    w.pack_array(std::uint32_t(options_.phases.size()));
    for (const std::string& p : options_.phases) w.pack(p);
  }
}

std::string RecordingWriter::take_bytes() { return std::exchange(out_, {}); }

std::uint32_t RecordingWriter::body_record(BodyId id, bool& added) {
  const auto [it, inserted] = body_ids_.try_emplace(key_of(id.index, id.generation), body_records_);
  added = inserted;
  if (inserted) ++body_records_;
  return it->second;
}

std::uint32_t RecordingWriter::joint_record(JointId id, bool& added) {
  const auto [it, inserted] =
      joint_ids_.try_emplace(key_of(id.index, id.generation), joint_records_);
  added = inserted;
  if (inserted) ++joint_records_;
  return it->second;
}

void RecordingWriter::capture(const World& world, std::int64_t step,
                              std::span<const float> profile) {
  FrameSink& sink = *sink_;
  sink.clear();
  sink.flags = kDrawShapes | kDrawJoints | (options_.contacts ? kDrawContacts : 0u);
  world.draw(sink);

  // Bodies: record ids, the new ones, this frame's pose and state by record id.
  std::vector<std::uint32_t> added;
  std::vector<std::uint32_t> record_of(sink.bodies.size());
  for (std::size_t i = 0; i < sink.bodies.size(); ++i) {
    bool is_new = false;
    record_of[i] = body_record(sink.bodies[i].info.id, is_new);
    if (is_new) added.push_back(std::uint32_t(i));
  }
  std::vector<Transform>& pose = pose_;
  std::vector<BodyDrawState>& state = state_;
  std::vector<std::uint8_t>& alive = alive_;
  pose.resize(body_records_);
  state.resize(body_records_);
  alive.assign(body_records_, 0);
  for (std::size_t i = 0; i < sink.bodies.size(); ++i) {
    pose[record_of[i]] = sink.bodies[i].info.transform;
    state[record_of[i]] = sink.bodies[i].info.state;
    alive[record_of[i]] = 1;
  }
  std::vector<std::uint32_t> removed, live;
  for (const std::uint32_t r : live_bodies_) (alive[r] ? live : removed).push_back(r);
  for (const std::uint32_t i : added) live.push_back(record_of[i]);

  // Poses that changed (to the bit) since they were last written; new bodies always.
  written_pose_.resize(body_records_);
  written_state_.resize(body_records_, BodyDrawState::Awake);
  std::vector<std::uint8_t> moved_bits((live.size() + 7) / 8, 0);
  std::vector<float> poses;
  const std::size_t first_added = live.size() - added.size();
  // The first frame always has states, even of an empty world (readers start from them).
  bool all_moved = true, states_changed = first_frame_ || !added.empty() || !removed.empty();
  for (std::size_t i = 0; i < live.size(); ++i) {
    const std::uint32_t r = live[i];
    if (i >= first_added || !same_bits(pose[r], written_pose_[r])) {
      moved_bits[i / 8] |= std::uint8_t(1u << (i % 8));
      poses.insert(poses.end(), {pose[r].position.x, pose[r].position.y, pose[r].angle});
      written_pose_[r] = pose[r];
    } else {
      all_moved = false;
    }
    states_changed = states_changed || state[r] != written_state_[r];
    written_state_[r] = state[r];
  }

  // Joints: new ones with their anchors in their bodies' frames, and the ones gone.
  std::vector<std::uint32_t> joints_added, joints_removed, joints_live;
  std::vector<std::uint8_t>& joint_alive = joint_alive_;
  joint_alive.assign(joint_records_ + sink.joints.size(), 0);
  for (std::size_t i = 0; i < sink.joints.size(); ++i) {
    bool is_new = false;
    const std::uint32_t r = joint_record(sink.joints[i].id, is_new);
    joint_alive[r] = 1;
    if (is_new) joints_added.push_back(std::uint32_t(i));
  }
  for (const std::uint32_t r : live_joints_)
    (joint_alive[r] ? joints_live : joints_removed).push_back(r);
  for (const std::uint32_t i : joints_added)
    joints_live.push_back(
        joint_ids_.at(key_of(sink.joints[i].id.index, sink.joints[i].id.generation)));

  AppendTo append{out_};
  msgpack::packer<AppendTo> w(append);
  const bool with_profile = !options_.phases.empty() && profile.size() == options_.phases.size();
  const std::uint32_t entries = 2 + !added.empty() + !removed.empty() + !all_moved +
                                states_changed + options_.islands + !joints_added.empty() +
                                !joints_removed.empty() + options_.contacts + with_profile;
  w.pack_map(entries);
  w.pack("step");
  w.pack(std::uint64_t(step));
  if (!added.empty()) {
    w.pack("add");
    w.pack_array(std::uint32_t(added.size()));
    for (const std::uint32_t i : added) {
      const FrameSink::Body& b = sink.bodies[i];
      w.pack_map(2);
      w.pack("id");
      w.pack(record_of[i]);
      w.pack("shapes");
      w.pack_array(b.shape_count);
      for (std::uint32_t k = b.first_shape; k < b.first_shape + b.shape_count; ++k) {
        const FrameSink::Shape& shape = sink.shapes[k];
        std::vector<Vec2> local;
        for (std::uint32_t v = 0; v < shape.vertex_count; ++v)
          local.push_back(to_local(b.info.transform, sink.vertices[shape.first_vertex + v]));
        w.pack_map(3);
        w.pack("kind");
        w.pack(kind_name(shape.kind));
        w.pack("vertices");
        w.pack(bytes_of(local));
        w.pack("radius");
        pack_float32(out_, shape.radius);
      }
    }
  }
  if (!removed.empty()) {
    w.pack("remove");
    w.pack_array(std::uint32_t(removed.size()));
    for (const std::uint32_t r : removed) w.pack(r);
  }
  if (!all_moved) {
    w.pack("moved");
    w.pack(std::span<const std::uint8_t>(moved_bits));
  }
  w.pack("poses");
  w.pack(bytes_of(poses));
  if (states_changed) {
    std::vector<std::uint8_t> states;
    for (const std::uint32_t r : live) states.push_back(std::uint8_t(state[r]));
    w.pack("states");
    w.pack(std::span<const std::uint8_t>(states));
  }
  if (options_.islands) {
    std::vector<std::uint32_t> islands(body_records_, kNoIsland);
    for (std::size_t i = 0; i < sink.bodies.size(); ++i) {
      const BodyId root = sink.bodies[i].info.island;
      const auto it = body_ids_.find(key_of(root.index, root.generation));
      if (!is_null(root) && it != body_ids_.end()) islands[record_of[i]] = it->second;
    }
    std::vector<std::uint32_t> in_order;
    for (const std::uint32_t r : live) in_order.push_back(islands[r]);
    w.pack("islands");
    w.pack(bytes_of(in_order));
  }
  if (!joints_added.empty()) {
    w.pack("joints_add");
    w.pack_array(std::uint32_t(joints_added.size()));
    for (const std::uint32_t i : joints_added) {
      const DrawJoint& j = sink.joints[i];
      const std::uint32_t ra = body_ids_.at(key_of(j.a.index, j.a.generation));
      const std::uint32_t rb = body_ids_.at(key_of(j.b.index, j.b.generation));
      const Vec2 anchors[2] = {to_local(pose[ra], j.anchor_a), to_local(pose[rb], j.anchor_b)};
      w.pack_map(5);
      w.pack("id");
      w.pack(joint_ids_.at(key_of(j.id.index, j.id.generation)));
      w.pack("type");
      w.pack(joint_type_name(j.type));
      w.pack("a");
      w.pack(ra);
      w.pack("b");
      w.pack(rb);
      w.pack("anchors");
      w.pack(std::span(reinterpret_cast<const std::uint8_t*>(anchors), sizeof(anchors)));
    }
  }
  if (!joints_removed.empty()) {
    w.pack("joints_remove");
    w.pack_array(std::uint32_t(joints_removed.size()));
    for (const std::uint32_t r : joints_removed) w.pack(r);
  }
  if (options_.contacts) {
    std::vector<float> contacts;
    for (const DrawContact& c : sink.contacts)
      contacts.insert(contacts.end(), {c.point.x, c.point.y, c.normal.x, c.normal.y});
    w.pack("contacts");
    w.pack(bytes_of(contacts));
  }
  if (with_profile) {
    w.pack("profile");
    w.pack(std::span(reinterpret_cast<const std::uint8_t*>(profile.data()), profile.size_bytes()));
  }
  first_frame_ = false;
  live_bodies_ = std::move(live);
  live_joints_ = std::move(joints_live);
}

}  // namespace strut::record
