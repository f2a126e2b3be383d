// Makes a recording (docs/recording_format.md) from a world, frame by frame: the world reports
// itself through World::draw, new bodies and joints are written once with their shapes, and
// each frame holds the poses that changed since the previous frame.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "strut/world.hpp"
#include "tools/record/recording.hpp"

namespace strut::record {

struct RecordingOptions {
  std::string scene;
  float dt = 1.0f / 60.0f;
  int every = 1;
  bool contacts = false;
  bool islands = false;
  std::vector<std::string>
      phases{};  // names of the profile values passed to capture (may be empty)
};

class RecordingWriter {
 public:
  explicit RecordingWriter(RecordingOptions options);
  ~RecordingWriter();
  RecordingWriter(RecordingWriter&&) noexcept;
  RecordingWriter& operator=(RecordingWriter&&) noexcept;
  // Appends a frame of the world as it is now, `step` steps into the run; `profile` holds one
  // value per phase (ignored when the options name no phases).
  void capture(const World& world, std::int64_t step, std::span<const float> profile = {});
  // The bytes written since the last call (the header first), for the caller to store.
  std::string take_bytes();

 private:
  struct FrameSink;
  std::uint32_t body_record(BodyId id, bool& added);
  std::uint32_t joint_record(JointId id, bool& added);

  RecordingOptions options_;
  std::string out_;
  std::unordered_map<std::uint64_t, std::uint32_t> body_ids_, joint_ids_;
  std::uint32_t body_records_ = 0, joint_records_ = 0;
  bool first_frame_ = true;
  std::vector<std::uint32_t> live_bodies_, live_joints_;
  // Per body record id: the pose and state last written (for the changed-only encoding).
  std::vector<Transform> written_pose_;
  std::vector<BodyDrawState> written_state_;
  // Kept between frames so a frame reuses the last one's memory.
  std::unique_ptr<FrameSink> sink_;
  std::vector<Transform> pose_;
  std::vector<BodyDrawState> state_;
  std::vector<std::uint8_t> alive_, joint_alive_;
};

}  // namespace strut::record
