// The examples' optional `--record FILE`: a recording of the run (docs/recording_format.md) made
// by the project's writer (tools/record/recording_writer.hpp, so an example that records links
// the strut_tools library), one frame a step, which `strut view FILE -o page.html` turns into a
// page that plays it in a browser. Without the argument nothing is recorded.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>

#include "tools/record/recording_writer.hpp"

namespace examples {

class ExampleRecording {
 public:
  // Reads the command line: nothing, or `--record FILE`. Anything else (or a file that cannot be
  // written) prints why, and ok() is false: the example should return 2, as `strut` does for a
  // bad argument.
  ExampleRecording(int argc, char** argv, const std::string& name, float dt) {
    if (argc == 1) return;
    if (argc != 3 || std::strcmp(argv[1], "--record") != 0) {
      std::fprintf(stderr, "usage: %s [--record FILE]\n", argv[0]);
      ok_ = false;
      return;
    }
    path_ = argv[2];
    file_.open(path_, std::ios::binary | std::ios::trunc);
    if (!file_) {
      std::fprintf(stderr, "%s: cannot write %s\n", argv[0], path_.c_str());
      ok_ = false;
      return;
    }
    writer_.emplace(strut::record::RecordingOptions{.scene = name, .dt = dt});
  }

  bool ok() const { return ok_; }

  // A frame of the world as it is `step` steps into the run (nothing when not recording).
  void capture(const strut::World& world, std::int64_t step) {
    if (!writer_) return;
    writer_->capture(world, step);
    const std::string bytes = writer_->take_bytes();
    file_.write(bytes.data(), std::streamsize(bytes.size()));
    ++frames_;
  }

  // Says where the recording went; false if writing it failed.
  bool finish() {
    if (!writer_) return true;
    file_.close();
    if (!file_) {
      std::fprintf(stderr, "writing %s failed\n", path_.c_str());
      return false;
    }
    std::printf("recorded %d frames to %s (strut view %s -o page.html)\n", frames_, path_.c_str(),
                path_.c_str());
    return true;
  }

 private:
  bool ok_ = true;
  std::string path_;
  std::ofstream file_;
  std::optional<strut::record::RecordingWriter> writer_;
  int frames_ = 0;
};

}  // namespace examples
