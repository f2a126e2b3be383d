// `strut run --record`: takes a frame every K steps (and the last step) while a scene runs,
// streams it compressed to the file, and keeps count of the bytes and of the time recording
// costs.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "strut/scene.hpp"
#include "tools/cli.hpp"
#include "tools/record/compression.hpp"
#include "tools/record/recording_writer.hpp"

namespace strut::cli {

class RunRecording {
 public:
  RunRecording(const std::string& path, const std::string& scene_name, const SceneInstance& inst,
               int every, bool contacts, bool islands);
  // Call after each step, with the number of steps done so far; `last` marks the run's end.
  void after_step(const SceneInstance& inst, int steps_done, bool last);
  std::size_t bytes() const { return bytes_; }  // written to the file (compressed)
  int frames() const { return frames_; }
  double seconds() const { return seconds_; }  // wall time spent capturing and writing
  // CPU time of the thread capturing and writing: what recording costs, without the waits a
  // busy machine adds to wall time.
  double cpu_seconds() const { return cpu_seconds_; }

 private:
  void capture(const SceneInstance& inst, int steps_done, bool last);
  void write(std::string_view bytes, bool last);

  OutputFile file_;
  record::RecordingWriter writer_;
  record::Compressor compressor_;
  std::string compressed_;
  int every_;
  int last_captured_ = -1;
  std::array<double, 7> sums_{};  // profile sums (ms) at the last frame
  std::uint64_t profile_steps_ = 0;
  std::size_t bytes_ = 0;
  int frames_ = 0;
  double seconds_ = 0, cpu_seconds_ = 0;
};

}  // namespace strut::cli
