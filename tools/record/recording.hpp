// Recordings of a run (docs/recording_format.md): the shapes once, then frames of poses,
// body states and optionally contacts, islands and the step profile, as a stream of
// MessagePack maps, stored compressed. This header is the decoded form; RecordingWriter makes
// the stream.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "strut/debug_draw.hpp"
#include "strut/math.hpp"

namespace strut::record {

inline constexpr std::string_view kFormatName = "strut-recording";
// Version 2 files may be compressed (docs/recording_format.md); the stream inside is version
// 1's, whose files are read too.
inline constexpr int kFormatVersion = 2;
inline constexpr int kOldestFormatVersion = 1;
inline constexpr std::uint32_t kNoIsland = 0xFFFFFFFFu;

// Shape kinds as the format names them. strut makes only polygons and circles today.
enum class RecordedKind : std::uint8_t { Polygon, Circle, Capsule, Segment };
const char* kind_name(RecordedKind kind);

// One shape in its body's frame (relative to the centre of mass, unrotated).
struct RecordedShape {
  RecordedKind kind = RecordedKind::Polygon;
  // Polygon: the hull, counter-clockwise; circle: its centre; capsule, segment: the two ends.
  std::vector<Vec2> vertices;
  float radius = 0.0f;  // circle or capsule radius, polygon rounding
};

// A body as first recorded: its shapes (one today; several for a compound body).
struct RecordedBody {
  std::vector<RecordedShape> shapes;
};

// A joint: its two bodies (record ids) and its anchors in their frames.
struct RecordedJoint {
  std::uint32_t body_a = 0, body_b = 0;
  Vec2 local_a, local_b;
  JointType type = JointType::Distance;
};

struct RecordedContact {
  Vec2 point, normal;
};

// One frame, decoded in full: every live body's pose and state, in the frame's live order.
struct Frame {
  std::int64_t step = 0;              // steps done when the frame was taken
  std::vector<std::uint32_t> bodies;  // record ids
  std::vector<Transform> poses;
  std::vector<BodyDrawState> states;
  std::vector<std::uint32_t> islands;  // record id of the island's root (kNoIsland); may be empty
  std::vector<std::uint32_t> joints;   // live joint record ids
  std::vector<RecordedContact> contacts;
  std::vector<float> profile;  // ms per step of each header phase, since the previous frame
};

struct Recording {
  std::string scene;
  float dt = 0.0f;
  int every = 1;
  std::vector<std::string> phases;  // profile phase names; empty when no profile was recorded
  bool has_contacts = false, has_islands = false;
  std::vector<RecordedBody> bodies;  // indexed by record id
  std::vector<RecordedJoint> joints;
  std::vector<Frame> frames;
};

// A recording that cannot be read; the message is "<label>: <where>: <problem>".
class RecordingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Decodes and checks a whole recording, compressed or not; `label` names it in error messages.
Recording read_recording(std::string_view bytes, std::string_view label);
// Reads a file and decodes it (RecordingError if it cannot be opened).
Recording load_recording(const std::string& path);
// The file's bytes (RecordingError if it cannot be read).
std::string read_file_bytes(const std::string& path);

}  // namespace strut::record
