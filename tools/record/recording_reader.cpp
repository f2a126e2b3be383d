// Decodes and checks a recording: every field of the format is checked before it is used, so a
// damaged file is refused with one line naming the frame, the field and the problem.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <msgpack.hpp>
#include <span>
#include <unordered_set>
#include <variant>

#include "tools/record/compression.hpp"
#include "tools/record/recording.hpp"

namespace strut::record {

const char* kind_name(RecordedKind kind) {
  switch (kind) {
    case RecordedKind::Polygon:
      return "polygon";
    case RecordedKind::Circle:
      return "circle";
    case RecordedKind::Capsule:
      return "capsule";
    case RecordedKind::Segment:
      return "segment";
  }
  return "polygon";
}

namespace {

// A decoded MessagePack value (msgpack-cxx's object: strings and binary data point into the
// recording's bytes) and the kinds the checks below ask for; both integer kinds are Int.
using Value = msgpack::object;
enum class Type : std::uint8_t { Nil, Bool, Int, Float, Str, Bin, Array, Map, Ext };

Type type_of(const Value& v) {
  switch (v.type) {
    case msgpack::type::NIL:
      return Type::Nil;
    case msgpack::type::BOOLEAN:
      return Type::Bool;
    case msgpack::type::POSITIVE_INTEGER:
    case msgpack::type::NEGATIVE_INTEGER:
      return Type::Int;
    case msgpack::type::FLOAT32:
    case msgpack::type::FLOAT64:
      return Type::Float;
    case msgpack::type::STR:
      return Type::Str;
    case msgpack::type::BIN:
      return Type::Bin;
    case msgpack::type::ARRAY:
      return Type::Array;
    case msgpack::type::MAP:
      return Type::Map;
    case msgpack::type::EXT:
      return Type::Ext;
  }
  return Type::Nil;
}

const char* type_name(Type t) {
  constexpr const char* kNames[] = {"nil",      "a boolean", "an integer",
                                    "a number", "a string",  "binary data",
                                    "an array", "a map",     "an extension value"};
  return kNames[int(t)];
}
const char* type_name(const Value& v) { return type_name(type_of(v)); }

// A string's or binary field's bytes.
std::string_view bytes_of(const Value& v) {
  if (v.type == msgpack::type::STR) return {v.via.str.ptr, v.via.str.size};
  return {v.via.bin.ptr, v.via.bin.size};
}

std::span<const Value> items_of(const Value& array) {
  return {array.via.array.ptr, array.via.array.size};
}

// A map's value for `key`, or nullptr.
const Value* find(const Value& map, std::string_view key) {
  if (map.type != msgpack::type::MAP) return nullptr;
  for (const msgpack::object_kv& kv : std::span(map.via.map.ptr, map.via.map.size))
    if (kv.key.type == msgpack::type::STR && bytes_of(kv.key) == key) return &kv.val;
  return nullptr;
}

// Strings and binary fields are not copied: they point into the recording's bytes.
bool keep_in_place(msgpack::type::object_type, std::size_t, void*) { return true; }

// Nesting deeper than any recording's (5: frame, add, body, shapes, shape) is refused rather
// than followed down the stack.
constexpr std::size_t kMaxDepth = 16;

class Reader {
 public:
  Reader(std::string_view bytes, std::string_view label) : bytes_(bytes), label_(label) {}

  Recording read() {
    if (bytes_.empty()) fail("the file is empty");
    header(next());
    while (pos_ < bytes_.size()) {
      where_ = "frame " + std::to_string(rec_.frames.size());
      frame(next());
    }
    if (rec_.frames.empty()) fail("no frames after the header");
    return std::move(rec_);
  }

 private:
  [[noreturn]] void fail(const std::string& problem) {
    std::string message(label_);
    message.append(": ").append(where_).append(": ").append(problem);
    throw RecordingError(message);
  }
  [[noreturn]] void fail(std::string_view field, const std::string& problem) {
    fail(std::string(field) + ": " + problem);
  }

  // The value at pos_, pos_ moved past it. It lives in zone_ until the next call.
  Value next() {
    const std::size_t at = pos_;
    // Every item takes at least a byte, so a count beyond the bytes left is refused before
    // memory is set aside for it; nesting deeper than a recording's is refused too.
    const std::size_t left = bytes_.size() - pos_;
    const msgpack::unpack_limit limit(left, left / 2, left, left, left, kMaxDepth);
    zone_.clear();
    try {
      return msgpack::unpack(zone_, bytes_.data(), bytes_.size(), pos_, keep_in_place, nullptr,
                             limit);
    } catch (const msgpack::insufficient_bytes&) {
      fail("not MessagePack: truncated: the data ends inside the value at byte " +
           std::to_string(at));
    } catch (const msgpack::unpack_error& e) {
      fail(std::string("not MessagePack: ") + e.what() + " in the value at byte " +
           std::to_string(at));
    }
  }

  const Value& need(const Value& map, std::string_view key, Type type) {
    const Value* v = find(map, key);
    if (!v) fail(key, "missing");
    if (type_of(*v) != type)
      fail(key, std::string("expected ") + type_name(type) + ", got " + type_name(*v));
    return *v;
  }
  const Value* optional(const Value& map, std::string_view key, Type type) {
    if (!find(map, key)) return nullptr;
    return &need(map, key, type);
  }
  float number(const Value& map, std::string_view key) {
    const Value* v = find(map, key);
    if (!v) fail(key, "missing");
    double d = 0;
    if (type_of(*v) == Type::Float)
      d = v->via.f64;
    else if (v->type == msgpack::type::POSITIVE_INTEGER)
      d = double(v->via.u64);
    else if (v->type == msgpack::type::NEGATIVE_INTEGER)
      d = double(v->via.i64);
    else
      fail(key, std::string("expected a number, got ") + type_name(*v));
    if (!std::isfinite(d)) fail(key, "not a finite number");
    return float(d);
  }
  std::int64_t integer(const Value& v, std::string_view field, std::int64_t max) {
    if (type_of(v) != Type::Int)
      fail(field, std::string("expected an integer, got ") + type_name(v));
    const bool negative = v.type == msgpack::type::NEGATIVE_INTEGER;
    if (negative || v.via.u64 > std::uint64_t(max))
      fail(field, (negative ? std::to_string(v.via.i64) : std::to_string(v.via.u64)) +
                      " is out of range [0, " + std::to_string(max) + "]");
    return std::int64_t(v.via.u64);
  }
  // A binary field of whole records of `size` bytes each, `count` of them when count >= 0.
  template <class T>
  std::vector<T> block(const Value& bin, std::string_view field, std::size_t size,
                       std::int64_t count) {
    const std::string_view bytes = bytes_of(bin);
    if (bytes.size() % size != 0)
      fail(field, std::to_string(bytes.size()) + " bytes, not a whole number of " +
                      std::to_string(size) + "-byte records");
    if (count >= 0 && bytes.size() != std::size_t(count) * size)
      fail(field, std::to_string(bytes.size()) + " bytes, expected " +
                      std::to_string(std::size_t(count) * size));
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
  }
  void finite(const std::vector<float>& values, std::string_view field) {
    for (std::size_t i = 0; i < values.size(); ++i)
      if (!std::isfinite(values[i])) fail(field, "value " + std::to_string(i) + " is not finite");
  }

  void header(const Value& h) {
    where_ = "header";
    if (h.type != msgpack::type::MAP)
      fail(std::string("expected a map, got ").append(type_name(h)));
    const std::string_view format = bytes_of(need(h, "format", Type::Str));
    if (format != kFormatName)
      fail("format", std::string("'").append(format).append("' is not a strut recording"));
    const std::int64_t version = integer(need(h, "version", Type::Int), "version", 1000);
    if (version < kOldestFormatVersion || version > kFormatVersion)
      fail("version", std::to_string(version) + " is not a version this strut reads (" +
                          std::to_string(kOldestFormatVersion) + " to " +
                          std::to_string(kFormatVersion) + ")");
    rec_.scene = std::string(bytes_of(need(h, "scene", Type::Str)));
    rec_.dt = number(h, "dt");
    if (!(rec_.dt > 0)) fail("dt", "must be positive");
    rec_.every = int(integer(need(h, "every", Type::Int), "every", 1000000));
    if (rec_.every < 1) fail("every", "must be at least 1");
    rec_.has_contacts = need(h, "contacts", Type::Bool).via.boolean;
    rec_.has_islands = need(h, "islands", Type::Bool).via.boolean;
    if (const Value* phases = optional(h, "phases", Type::Array)) {
      for (const Value& p : items_of(*phases)) {
        if (p.type != msgpack::type::STR) fail("phases", "expected names (strings)");
        rec_.phases.emplace_back(bytes_of(p));
      }
    }
  }

  RecordedShape shape(const Value& v) {
    if (v.type != msgpack::type::MAP) fail("add.shapes", "expected maps");
    RecordedShape out;
    const std::string_view kind = bytes_of(need(v, "kind", Type::Str));
    std::size_t want = 0;  // 0: a polygon's 3 to 64
    if (kind == "polygon") {
      out.kind = RecordedKind::Polygon;
    } else if (kind == "circle") {
      out.kind = RecordedKind::Circle, want = 1;
    } else if (kind == "capsule") {
      out.kind = RecordedKind::Capsule, want = 2;
    } else if (kind == "segment") {
      out.kind = RecordedKind::Segment, want = 2;
    } else {
      fail("add.shapes.kind", "unknown shape kind '" + std::string(kind) + "'");
    }
    const auto coords = block<float>(need(v, "vertices", Type::Bin), "add.shapes.vertices", 8, -1);
    finite(coords, "add.shapes.vertices");
    for (std::size_t i = 0; i + 1 < coords.size(); i += 2)
      out.vertices.push_back({coords[i], coords[i + 1]});
    const std::size_t n = out.vertices.size();
    if (want == 0 && (n < 3 || n > 64))
      fail("add.shapes.vertices", "a polygon needs 3 to 64 vertices, got " + std::to_string(n));
    if (want != 0 && n != want)
      fail("add.shapes.vertices", std::string("a ") + kind_name(out.kind) + " needs " +
                                      std::to_string(want) + ", got " + std::to_string(n));
    out.radius = number(v, "radius");
    if (out.radius < 0) fail("add.shapes.radius", "negative");
    return out;
  }

  void add_body(const Value& b) {
    if (b.type != msgpack::type::MAP) fail("add", "expected maps");
    const auto id = std::uint32_t(integer(need(b, "id", Type::Int), "add.id", UINT32_MAX));
    if (id != rec_.bodies.size())
      fail("add.id",
           std::to_string(id) + ", expected the next id " + std::to_string(rec_.bodies.size()));
    RecordedBody body;
    const Value& shapes = need(b, "shapes", Type::Array);
    if (items_of(shapes).empty()) fail("add.shapes", "a body needs a shape");
    for (const Value& v : items_of(shapes)) body.shapes.push_back(shape(v));
    rec_.bodies.push_back(std::move(body));
  }

  void add_joint(const Value& j) {
    if (j.type != msgpack::type::MAP) fail("joints_add", "expected maps");
    const std::uint32_t id =
        std::uint32_t(integer(need(j, "id", Type::Int), "joints_add.id", UINT32_MAX));
    if (id != rec_.joints.size())
      fail("joints_add.id",
           std::to_string(id) + ", expected the next id " + std::to_string(rec_.joints.size()));
    RecordedJoint joint;
    const std::string_view type = bytes_of(need(j, "type", Type::Str));
    bool known = false;
    for (std::size_t t = 0; t < std::variant_size_v<JointDef> && !known; ++t)
      if (type == joint_type_name(JointType(t))) joint.type = JointType(t), known = true;
    if (!known) fail("joints_add.type", "unknown joint type '" + std::string(type) + "'");
    for (auto [key, out] : {std::pair{"a", &joint.body_a}, std::pair{"b", &joint.body_b}}) {
      *out = std::uint32_t(
          integer(need(j, key, Type::Int), std::string("joints_add.") + key, UINT32_MAX));
      if (!live_.count(*out))
        fail(std::string("joints_add.") + key, "body " + std::to_string(*out) + " is not live");
    }
    const auto anchors = block<float>(need(j, "anchors", Type::Bin), "joints_add.anchors", 16, 1);
    finite(anchors, "joints_add.anchors");
    joint.local_a = {anchors[0], anchors[1]};
    joint.local_b = {anchors[2], anchors[3]};
    rec_.joints.push_back(joint);
  }

  // Removes `ids` from a live list (keeping the order of the rest).
  void remove(const Value& ids, std::string_view field, std::vector<std::uint32_t>& list,
              std::unordered_set<std::uint32_t>& live_set) {
    std::unordered_set<std::uint32_t> gone;
    for (const Value& v : items_of(ids)) {
      const auto id = std::uint32_t(integer(v, field, UINT32_MAX));
      if (!live_set.erase(id)) fail(field, std::to_string(id) + " is not live");
      gone.insert(id);
    }
    std::erase_if(list, [&](std::uint32_t id) { return gone.count(id) != 0; });
  }

  void frame(const Value& f) {
    if (f.type != msgpack::type::MAP)
      fail(std::string("expected a map, got ").append(type_name(f)));
    Frame out;
    const Frame* prev = rec_.frames.empty() ? nullptr : &rec_.frames.back();
    out.step = integer(need(f, "step", Type::Int), "step", INT64_MAX);
    if (prev && out.step <= prev->step)
      fail("step",
           std::to_string(out.step) + " does not follow step " + std::to_string(prev->step));
    std::vector<std::uint32_t> bodies = prev ? prev->bodies : std::vector<std::uint32_t>{};
    std::vector<Transform> poses = prev ? prev->poses : std::vector<Transform>{};
    std::vector<BodyDrawState> states = prev ? prev->states : std::vector<BodyDrawState>{};
    // Removal: drop the bodies and keep their neighbours' poses and states aligned.
    bool membership_changed = false;
    if (const Value* removed = optional(f, "remove", Type::Array)) {
      std::vector<std::uint32_t> kept = bodies;
      remove(*removed, "remove", kept, live_);
      std::vector<Transform> kept_poses;
      for (std::size_t i = 0; i < bodies.size(); ++i)
        if (live_.count(bodies[i])) kept_poses.push_back(poses[i]);
      bodies = std::move(kept);
      poses = std::move(kept_poses);
      membership_changed = true;
    }
    const std::size_t old_count = bodies.size();
    if (const Value* added = optional(f, "add", Type::Array)) {
      for (const Value& b : items_of(*added)) {
        add_body(b);
        bodies.push_back(std::uint32_t(rec_.bodies.size() - 1));
        live_.insert(bodies.back());
      }
      membership_changed = true;
    }
    poses.resize(bodies.size());
    const std::size_t n = bodies.size();

    // Poses of the moved bodies, in live order; new bodies must be among them.
    std::vector<std::uint8_t> moved(n, 1);
    if (const Value* bits = optional(f, "moved", Type::Bin)) {
      const std::string_view mask = bytes_of(*bits);
      if (mask.size() != (n + 7) / 8)
        fail("moved", std::to_string(mask.size()) + " bytes for " + std::to_string(n) +
                          " bodies, expected " + std::to_string((n + 7) / 8));
      for (std::size_t i = 0; i < n; ++i) moved[i] = (std::uint8_t(mask[i / 8]) >> (i % 8)) & 1u;
      for (std::size_t i = old_count; i < n; ++i)
        if (!moved[i]) fail("moved", "new body " + std::to_string(bodies[i]) + " has no pose");
    }
    std::size_t moved_count = 0;
    for (const std::uint8_t m : moved) moved_count += m;
    const auto values =
        block<float>(need(f, "poses", Type::Bin), "poses", 12, std::int64_t(moved_count));
    finite(values, "poses");
    for (std::size_t i = 0, k = 0; i < n; ++i)
      if (moved[i]) poses[i] = Transform{{values[k], values[k + 1]}, values[k + 2]}, k += 3;

    if (const Value* s = optional(f, "states", Type::Bin)) {
      const auto raw = block<std::uint8_t>(*s, "states", 1, std::int64_t(n));
      states.clear();
      for (const std::uint8_t v : raw) {
        if (v > std::uint8_t(BodyDrawState::Sensor))
          fail("states", "unknown body state " + std::to_string(v));
        states.push_back(BodyDrawState(v));
      }
    } else if (membership_changed || !prev) {
      fail("states", "missing in a frame whose bodies changed");
    }
    if (rec_.has_islands) {
      out.islands =
          block<std::uint32_t>(need(f, "islands", Type::Bin), "islands", 4, std::int64_t(n));
      for (const std::uint32_t r : out.islands)
        if (r != kNoIsland && r >= rec_.bodies.size())
          fail("islands", "unknown body " + std::to_string(r));
    }

    out.joints = prev ? prev->joints : std::vector<std::uint32_t>{};
    if (const Value* removed = optional(f, "joints_remove", Type::Array))
      remove(*removed, "joints_remove", out.joints, live_joints_);
    for (const std::uint32_t j : out.joints)
      if (!live_.count(rec_.joints[j].body_a) || !live_.count(rec_.joints[j].body_b))
        fail("joints_remove", "joint " + std::to_string(j) + " outlives one of its bodies");
    if (const Value* added = optional(f, "joints_add", Type::Array)) {
      for (const Value& j : items_of(*added)) {
        add_joint(j);
        out.joints.push_back(std::uint32_t(rec_.joints.size() - 1));
        live_joints_.insert(out.joints.back());
      }
    }
    if (rec_.has_contacts) {
      const auto c = block<float>(need(f, "contacts", Type::Bin), "contacts", 16, -1);
      finite(c, "contacts");
      for (std::size_t i = 0; i < c.size(); i += 4)
        out.contacts.push_back({{c[i], c[i + 1]}, {c[i + 2], c[i + 3]}});
    }
    if (!rec_.phases.empty()) {
      if (const Value* p = optional(f, "profile", Type::Bin)) {
        out.profile = block<float>(*p, "profile", 4, std::int64_t(rec_.phases.size()));
        finite(out.profile, "profile");
      }
    }
    out.bodies = std::move(bodies);
    out.poses = std::move(poses);
    out.states = std::move(states);
    rec_.frames.push_back(std::move(out));
  }

  std::string_view bytes_;
  std::string_view label_;
  std::size_t pos_ = 0;
  msgpack::zone zone_;
  std::string where_ = "header";
  Recording rec_;
  std::unordered_set<std::uint32_t> live_, live_joints_;
};

}  // namespace

Recording read_recording(std::string_view bytes, std::string_view label) {
  if (is_compressed(bytes)) return Reader(decompress(bytes, label), label).read();
  return Reader(bytes, label).read();
}

std::string read_file_bytes(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw RecordingError(path + ": cannot open: " + std::strerror(errno));
  std::string out;
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) out.append(buf, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) throw RecordingError(path + ": cannot read");
  return out;
}

Recording load_recording(const std::string& path) {
  return read_recording(read_file_bytes(path), path);
}

}  // namespace strut::record
