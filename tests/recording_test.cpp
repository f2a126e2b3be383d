// Recordings: what is written reads back to the same poses bit for bit, bodies created and
// destroyed during a run keep their places, still bodies cost no pose bytes, and damaged files
// are refused with a message naming the frame and the field.
#include "tools/record/recording.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <msgpack.hpp>

#include "strut/debug_draw.hpp"
#include "strut/scenes.hpp"
#include "test_util.hpp"
#include "tools/record/compression.hpp"
#include "tools/record/recording_writer.hpp"

namespace strut::record {
namespace {

using test::bits;
using test::box_def;
using test::ground_def;

std::uint64_t key(BodyId id) { return (std::uint64_t(id.index) << 32) | id.generation; }

// The order World::draw reports bodies in, which is the order a recording meets them.
struct DrawOrder : DebugDraw {
  std::vector<BodyId> ids;
  void draw_polygon(const DrawBody& b, std::span<const Vec2>, float) override {
    ids.push_back(b.id);
  }
  void draw_circle(const DrawBody& b, Vec2, float) override { ids.push_back(b.id); }
  void draw_capsule(const DrawBody& b, Vec2, Vec2, float) override { ids.push_back(b.id); }
  void draw_segment(const DrawBody& b, Vec2, Vec2) override { ids.push_back(b.id); }
};

// Follows a world while it is recorded: record ids in order of first appearance, as the
// format says, and every live body's pose at each capture.
struct Expected {
  std::map<std::uint64_t, std::uint32_t> record_of;
  std::vector<std::map<std::uint32_t, Transform>> frames;
  void capture(const World& world) {
    DrawOrder order;
    world.draw(order);
    std::map<std::uint32_t, Transform> poses;
    for (const BodyId id : order.ids) {
      const auto [it, added] = record_of.try_emplace(key(id), std::uint32_t(record_of.size()));
      poses[it->second] = world.transform(id);
    }
    frames.push_back(std::move(poses));
  }
};

void expect_same_poses(const Recording& rec, const Expected& want) {
  ASSERT_EQ(rec.frames.size(), want.frames.size());
  for (std::size_t f = 0; f < rec.frames.size(); ++f) {
    const Frame& frame = rec.frames[f];
    ASSERT_EQ(frame.bodies.size(), want.frames[f].size()) << "frame " << f;
    for (std::size_t i = 0; i < frame.bodies.size(); ++i) {
      const auto it = want.frames[f].find(frame.bodies[i]);
      ASSERT_NE(it, want.frames[f].end()) << "frame " << f << " body " << frame.bodies[i];
      EXPECT_EQ(bits(frame.poses[i].position.x), bits(it->second.position.x));
      EXPECT_EQ(bits(frame.poses[i].position.y), bits(it->second.position.y));
      EXPECT_EQ(bits(frame.poses[i].angle), bits(it->second.angle));
    }
  }
}

TEST(Recording, RoundTripGivesTheSamePosesBitForBit) {
  World world;
  world.create_body(ground_def());
  std::vector<BodyId> boxes;
  for (int i = 0; i < 5; ++i)
    boxes.push_back(world.create_body(box_def({0.1f * i, 1.0f + 1.1f * i})));
  BodyDef ball;
  ball.shapes = {ShapeDef{CircleShape{0.3f}}};
  ball.center = {4, 2};
  const BodyId circle = world.create_body(ball);
  DistanceJointDef j;
  j.a = boxes[4], j.b = circle, j.anchor_a = {0.4f, 5.4f}, j.anchor_b = {4, 2};
  world.create_joint(j);

  RecordingWriter writer({.scene = "test",
                          .dt = 1.0f / 60,
                          .every = 1,
                          .contacts = true,
                          .islands = true,
                          .phases = {"a", "b"}});
  Expected want;
  std::vector<std::size_t> contacts;
  const float profile[2] = {0.25f, 1.5f};
  for (int step = 0; step <= 40; ++step) {
    if (step > 0) world.step(1.0f / 60);
    if (step == 10) world.destroy_body(boxes[0]);  // takes the bottom box away
    if (step == 20) boxes.push_back(world.create_body(box_def({-3, 2})));
    writer.capture(world, step, profile);
    want.capture(world);
    contacts.push_back(world.contact_count());
  }
  const Recording rec = read_recording(writer.take_bytes(), "test.rec");
  expect_same_poses(rec, want);
  EXPECT_EQ(rec.scene, "test");
  EXPECT_EQ(rec.dt, 1.0f / 60);
  ASSERT_EQ(rec.bodies.size(), 8u);  // ground, 5 boxes, the ball, the late box
  for (const RecordedBody& body : rec.bodies) ASSERT_EQ(body.shapes.size(), 1u);
  EXPECT_EQ(rec.bodies[0].shapes[0].kind, RecordedKind::Polygon);
  const RecordedShape& circle_shape = rec.bodies[6].shapes[0];
  EXPECT_EQ(circle_shape.kind, RecordedKind::Circle);
  EXPECT_EQ(circle_shape.radius, 0.3f);
  ASSERT_EQ(circle_shape.vertices.size(), 1u);  // its centre, at the centre of mass
  EXPECT_NEAR(length(circle_shape.vertices[0]), 0.0f, 1e-6f);
  // Shapes are kept in the body frame: a unit box's corners at +-0.5 (float rounding of the
  // world-to-body transform, 1e-6).
  ASSERT_EQ(rec.bodies[1].shapes[0].vertices.size(), 4u);
  for (const Vec2 v : rec.bodies[1].shapes[0].vertices) {
    EXPECT_NEAR(std::fabs(v.x), 0.5f, 1e-6f);
    EXPECT_NEAR(std::fabs(v.y), 0.5f, 1e-6f);
  }
  EXPECT_EQ(rec.frames[9].bodies.size(), 7u);
  EXPECT_EQ(rec.frames[10].bodies.size(), 6u);
  EXPECT_EQ(rec.frames[20].bodies.size(), 7u);
  EXPECT_EQ(rec.frames[20].bodies.back(), 7u);
  for (std::size_t f = 0; f < rec.frames.size(); ++f) {
    const Frame& frame = rec.frames[f];
    EXPECT_EQ(frame.step, std::int64_t(f));
    EXPECT_EQ(frame.states[0], BodyDrawState::Static);
    EXPECT_EQ(frame.islands[0], kNoIsland);
    EXPECT_EQ(frame.contacts.size(), contacts[f]);
    ASSERT_EQ(frame.joints.size(), 1u);
    ASSERT_EQ(frame.profile.size(), 2u);
    EXPECT_EQ(frame.profile[1], 1.5f);
  }
  // The joint's anchors, kept in the bodies' frames: the ball's at its centre.
  ASSERT_EQ(rec.joints.size(), 1u);
  EXPECT_EQ(rec.joints[0].body_b, 6u);
  EXPECT_NEAR(length(rec.joints[0].local_b), 0.0f, 1e-6f);
}

// Ragdolls appear every 8 steps and, once every column has one (after 320 steps), the oldest
// are destroyed: the recording must follow both.
TEST(Recording, RainCreatesAndDestroysBodiesAndTheRecordingFollows) {
  SceneInstance inst = build_scene(builtin_scene("rain", 0.2f), 1);
  RecordingWriter writer({.scene = "rain", .dt = inst.dt, .every = 10});
  Expected want;
  std::size_t most = 0;
  writer.capture(inst.world, 0);
  want.capture(inst.world);
  for (int step = 1; step <= 350; ++step) {
    inst.step();
    if (step % 10 != 0) continue;
    writer.capture(inst.world, step);
    want.capture(inst.world);
    most = std::max(most, inst.world.body_count());
  }
  const Recording rec = read_recording(writer.take_bytes(), "rain.rec");
  expect_same_poses(rec, want);
  EXPECT_EQ(rec.frames.back().bodies.size(), inst.world.body_count());
  EXPECT_GT(rec.bodies.size(), inst.world.body_count());  // some were destroyed
  EXPECT_LT(inst.world.body_count(), most + 1);
}

// A world may start empty and gain its bodies later.
TEST(Recording, AnEmptyWorldRecordsAndItsFirstBodyAppears) {
  World world;
  RecordingWriter writer({.scene = "empty"});
  writer.capture(world, 0);
  world.step(1.0f / 60);
  const BodyId box = world.create_body(box_def({1, 2}));
  writer.capture(world, 1);
  const Recording rec = read_recording(writer.take_bytes(), "empty.rec");
  ASSERT_EQ(rec.frames.size(), 2u);
  EXPECT_TRUE(rec.frames[0].bodies.empty());
  ASSERT_EQ(rec.frames[1].bodies.size(), 1u);
  EXPECT_EQ(bits(rec.frames[1].poses[0].position.y), bits(world.transform(box).position.y));
}

// The format's encoding, byte for byte (docs/recording_format.md): MessagePack's shortest
// forms (fixmap, fixstr, positive fixint, uint16, false), and floats as float32 even when their
// value is whole (a dt of 1, a box's radius of 0).
TEST(Recording, BytesAreTheDocumentedMessagePack) {
  RecordingWriter writer({.scene = "s", .dt = 1.0f, .every = 300});
  const std::string expected = std::string("\x87") +
                               "\xa6"
                               "format"
                               "\xaf"
                               "strut-recording" +
                               "\xa7"
                               "version"
                               "\x02" +
                               "\xa5"
                               "scene"
                               "\xa1"
                               "s" +
                               "\xa2"
                               "dt" +
                               std::string("\xca\x3f\x80\x00\x00", 5) +
                               "\xa5"
                               "every"
                               "\xcd\x01\x2c" +
                               "\xa8"
                               "contacts"
                               "\xc2" +
                               "\xa7"
                               "islands"
                               "\xc2";
  EXPECT_EQ(writer.take_bytes(), expected);
  World world;
  world.create_body(box_def({0, 0}));
  writer.capture(world, 0);
  const std::string frame = writer.take_bytes();
  EXPECT_NE(frame.find(std::string("\xa6"
                                   "radius"
                                   "\xca\x00\x00\x00\x00",
                                   12)),
            std::string::npos);
  // A map of step, add, poses and states; step 0 a positive fixint.
  EXPECT_EQ(frame.substr(0, 7), std::string("\x84\xa4"
                                            "step"
                                            "\x00",
                                            7));
}

// `strut run --record` stores the stream as one zstd frame compressed piece by piece, a frame
// at a time: it holds the very bytes of the stream, reads back to the same poses, and is
// smaller (falling and tumbling boxes: each pose changes every frame).
TEST(Recording, CompressedInPiecesReadsBackAsTheStream) {
  World world;
  world.create_body(ground_def());
  for (int i = 0; i < 40; ++i)
    world.create_body(box_def({0.37f * float(i % 8), 1.0f + 1.2f * float(i / 8)}));
  RecordingWriter writer({.scene = "boxes", .phases = {"total"}});
  Compressor compressor;
  Expected want;
  std::string stream, packed;
  const float profile[1] = {0.5f};
  for (int step = 0; step <= 120; ++step) {
    if (step > 0) world.step(1.0f / 60);
    writer.capture(world, step, profile);
    want.capture(world);
    const std::string bytes = writer.take_bytes();
    stream += bytes;
    compressor.add(bytes, step == 120, packed);
  }
  EXPECT_TRUE(is_compressed(packed));
  EXPECT_FALSE(is_compressed(stream));
  EXPECT_EQ(decompress(packed, "boxes.rec"), stream);
  expect_same_poses(read_recording(packed, "boxes.rec"), want);
  // Float poses differ in most of their bits from frame to frame, so zstd gains little on
  // them: 1.31 times smaller here (1.33 for `tumbler`, 300 steps).
  EXPECT_LT(double(packed.size()), 0.8 * double(stream.size())) << stream.size();
}

// A pyramid that has fallen asleep writes no poses: its frames shrink to a few bytes.
TEST(Recording, StillBodiesCostNoPoseBytes) {
  World world;
  world.create_body(ground_def());
  std::vector<BodyId> boxes;
  for (int row = 0; row < 5; ++row)
    for (int i = 0; i < 5 - row; ++i)
      boxes.push_back(world.create_body(box_def({1.05f * i + 0.525f * row, 0.5f + row})));
  RecordingWriter writer({.scene = "pyramid", .every = 1});
  writer.capture(world, 0);
  const std::size_t first = writer.take_bytes().size();
  int step = 0;
  while (step < 600) {
    world.step(1.0f / 60);
    ++step;
    bool asleep = true;
    for (const BodyId id : boxes) asleep = asleep && world.is_sleeping(id);
    if (asleep) break;
  }
  ASSERT_LT(step, 600);
  writer.capture(world, step);  // poses since the first frame
  writer.take_bytes();
  writer.capture(world, step + 1);
  const std::size_t still = writer.take_bytes().size();
  // 16 bodies x 12 bytes of pose in the first frame; a still frame holds its step, an empty
  // pose block and a 2-byte moved mask: under 40 bytes.
  EXPECT_GT(first, 16u * 12u);
  EXPECT_LT(still, 40u);
}

// A valid header followed by one frame assembled field by field, so a test can break one.
using Packer = msgpack::packer<msgpack::sbuffer>;
std::string text_of(const msgpack::sbuffer& b) { return std::string(b.data(), b.size()); }

std::string header_bytes(int version = kFormatVersion, std::string_view format = kFormatName) {
  msgpack::sbuffer out;
  Packer w(out);
  w.pack_map(7);
  w.pack("format"), w.pack(format);
  w.pack("version"), w.pack(version);
  w.pack("scene"), w.pack("s");
  w.pack("dt"), w.pack(0.01f);
  w.pack("every"), w.pack(1);
  w.pack("contacts"), w.pack(false);
  w.pack("islands"), w.pack(false);
  return text_of(out);
}

std::string error_of(const std::string& bytes) {
  try {
    read_recording(bytes, "bad.rec");
  } catch (const RecordingError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a RecordingError";
  return "";
}

TEST(Recording, BadRecordingsAreRefusedWithAClearMessage) {
  RecordingWriter good({.scene = "ok"});
  World world;
  world.create_body(box_def({0, 0}));
  good.capture(world, 0);
  world.step(0.01f);
  good.capture(world, 1);
  const std::string valid = good.take_bytes();
  EXPECT_NO_THROW(read_recording(valid, "ok.rec"));

  EXPECT_EQ(error_of(""), "bad.rec: header: the file is empty");
  EXPECT_EQ(error_of("{\"json\": 1}"),
            "bad.rec: header: expected a map, got an integer");  // '{' is a positive fixint
  EXPECT_EQ(error_of(header_bytes(kFormatVersion, "other")),
            "bad.rec: header: format: 'other' is not a strut recording");
  EXPECT_EQ(error_of(header_bytes(3)),
            "bad.rec: header: version: 3 is not a version this strut reads (1 to 2)");
  EXPECT_EQ(error_of(header_bytes()), "bad.rec: header: no frames after the header");
  EXPECT_EQ(error_of(valid.substr(0, valid.size() - 5))
                .rfind("bad.rec: frame 1: not MessagePack: truncated", 0),
            0u);

  auto frame = [](auto&& fields, std::uint32_t entries) {
    msgpack::sbuffer out;
    Packer w(out);
    w.pack_map(entries);
    fields(w);
    return header_bytes() + text_of(out);
  };
  const std::uint8_t four_vertices[32] = {};
  // "add": [{"id": 0, "shapes": [{"kind": kind, "vertices": four zero points, "radius": 0}]}]
  auto add_shape = [&](Packer& w, std::string_view kind) {
    w.pack("add");
    w.pack_array(1);
    w.pack_map(2);
    w.pack("id"), w.pack(0);
    w.pack("shapes"), w.pack_array(1), w.pack_map(3);
    w.pack("kind"), w.pack(kind);
    w.pack("vertices"), w.pack(std::span<const std::uint8_t>(four_vertices));
    w.pack("radius"), w.pack(0.5f);
  };
  auto add_box = [&](Packer& w) { add_shape(w, "polygon"); };
  const std::uint8_t one_pose[12] = {}, half_pose[6] = {}, state_awake[1] = {0}, state_bad[1] = {9};
  EXPECT_EQ(error_of(frame(
                [&](Packer& w) {
                  w.pack("step"), w.pack(0);
                  add_box(w);
                  w.pack("poses"), w.pack(std::span<const std::uint8_t>(half_pose));
                  w.pack("states"), w.pack(std::span<const std::uint8_t>(state_awake));
                },
                4)),
            "bad.rec: frame 0: poses: 6 bytes, not a whole number of 12-byte records");
  EXPECT_EQ(error_of(frame(
                [&](Packer& w) {
                  w.pack("step"), w.pack(0);
                  add_box(w);
                  w.pack("poses"), w.pack(std::span<const std::uint8_t>(one_pose));
                  w.pack("states"), w.pack(std::span<const std::uint8_t>(state_bad));
                },
                4)),
            "bad.rec: frame 0: states: unknown body state 9");
  // A version-1 file (written before recordings were compressed) is read as before.
  const std::string one_box = frame(
      [&](Packer& w) {
        w.pack("step"), w.pack(0);
        add_box(w);
        w.pack("poses"), w.pack(std::span<const std::uint8_t>(one_pose));
        w.pack("states"), w.pack(std::span<const std::uint8_t>(state_awake));
      },
      4);
  EXPECT_EQ(read_recording(one_box, "new.rec").frames.size(), 1u);
  const std::string version_1 = header_bytes(1) + one_box.substr(header_bytes().size());
  EXPECT_EQ(read_recording(version_1, "old.rec").frames.size(), 1u);
  EXPECT_EQ(error_of(frame(
                [&](Packer& w) {
                  w.pack("step"), w.pack(0);
                  add_box(w);
                  w.pack("poses"), w.pack(std::span<const std::uint8_t>(one_pose));
                },
                3)),
            "bad.rec: frame 0: states: missing in a frame whose bodies changed");
  EXPECT_EQ(error_of(frame(
                [&](Packer& w) {
                  w.pack("step"), w.pack(0);
                  w.pack("remove"), w.pack_array(1), w.pack(3);
                  w.pack("poses"), w.pack(std::span<const std::uint8_t>());
                },
                3)),
            "bad.rec: frame 0: remove: 3 is not live");
  EXPECT_EQ(error_of(frame(
                [&](Packer& w) {
                  w.pack("step"), w.pack(0);
                  add_shape(w, "blob");
                },
                2)),
            "bad.rec: frame 0: add.shapes.kind: unknown shape kind 'blob'");
  EXPECT_EQ(error_of(frame(
                [&](Packer& w) {
                  w.pack("step"), w.pack(0);
                  add_shape(w, "circle");
                },
                2)),
            "bad.rec: frame 0: add.shapes.vertices: a circle needs 1, got 4");
}

// Every cut of a recording and every single-byte change is either read or refused with a
// RecordingError: nothing else escapes and nothing crashes (the address sanitizer build runs
// this too).
TEST(Recording, DamagedFilesAreReadOrRefusedNeverCrash) {
  World world;
  world.create_body(ground_def());
  const BodyId a = world.create_body(box_def({0, 0.5f}));
  BodyDef ball;
  ball.shapes = {ShapeDef{CircleShape{0.25f}}};
  ball.center = {2, 3};
  const BodyId b = world.create_body(ball);
  DistanceJointDef j;
  j.a = a, j.b = b, j.anchor_a = {0, 0.5f}, j.anchor_b = {2, 3};
  world.create_joint(j);
  RecordingWriter writer(
      {.scene = "small", .every = 1, .contacts = true, .islands = true, .phases = {"total"}});
  const float profile[1] = {1};
  for (int step = 0; step < 4; ++step) {
    if (step > 0) world.step(1.0f / 60);
    if (step == 2) world.destroy_body(b);
    writer.capture(world, step, profile);
  }
  const std::string valid = writer.take_bytes();
  ASSERT_NO_THROW(read_recording(valid, "ok.rec"));
  int refused = 0, read = 0;
  auto attempt = [&](const std::string& bytes) {
    try {
      read_recording(bytes, "x.rec");
      ++read;
    } catch (const RecordingError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("x.rec: ", 0), 0u) << e.what();
      ++refused;
    }
  };
  for (std::size_t cut = 0; cut < valid.size(); ++cut) attempt(valid.substr(0, cut));
  for (std::size_t i = 0; i < valid.size(); ++i) {
    for (const std::uint8_t flip : {0x01, 0x80, 0xff}) {
      std::string damaged = valid;
      damaged[i] = char(std::uint8_t(damaged[i]) ^ flip);
      attempt(damaged);
    }
  }
  EXPECT_GT(refused, int(valid.size()));  // most damage is caught, not read as something else
  EXPECT_GT(read, 0);                     // a flipped bit inside a pose is still a recording

  // Compressed, every cut is refused, and so is every changed byte but a few in the frame's
  // header that leave the content as it was (zstd's unused bit, a wider window): those read
  // back to the very same recording, since the frame ends with a checksum of its content.
  std::string packed;
  Compressor().add(valid, true, packed);
  const Recording original = read_recording(valid, "ok.rec");
  auto same = [&](const Recording& rec) {
    if (rec.frames.size() != original.frames.size()) return false;
    for (std::size_t f = 0; f < rec.frames.size(); ++f) {
      const Frame &a = rec.frames[f], &b = original.frames[f];
      if (a.step != b.step || a.bodies != b.bodies || a.contacts.size() != b.contacts.size() ||
          std::memcmp(a.poses.data(), b.poses.data(), a.poses.size() * sizeof(Transform)) != 0)
        return false;
    }
    return true;
  };
  int damaged_read = 0, damaged_refused = 0;
  auto attempt_packed = [&](const std::string& bytes) {
    try {
      EXPECT_TRUE(same(read_recording(bytes, "x.rec")));
      ++damaged_read;
    } catch (const RecordingError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("x.rec: ", 0), 0u) << e.what();
      ++damaged_refused;
    }
  };
  for (std::size_t cut = 0; cut < packed.size(); ++cut) attempt_packed(packed.substr(0, cut));
  EXPECT_EQ(damaged_read, 0);
  for (std::size_t i = 0; i < packed.size(); ++i) {
    for (const std::uint8_t flip : {0x01, 0x80, 0xff}) {
      std::string damaged = packed;
      damaged[i] = char(std::uint8_t(damaged[i]) ^ flip);
      attempt_packed(damaged);
    }
  }
  // Magic number (4 bytes), frame header descriptor and window descriptor: at most 3 bytes x 3
  // changes can leave the content as it was.
  EXPECT_LE(damaged_read, 9);
  EXPECT_EQ(damaged_read + damaged_refused, int(4 * packed.size()));
}

}  // namespace
}  // namespace strut::record
