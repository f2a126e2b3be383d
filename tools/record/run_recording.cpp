#include "tools/record/run_recording.hpp"

#include <time.h>

#include <chrono>

namespace strut::cli {
namespace {

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// The profile phases a recording carries (their sum is the step's time).
constexpr std::array<double StepProfile::*, 7> kFields = {
    &StepProfile::integrate, &StepProfile::broad_phase, &StepProfile::narrow_phase,
    &StepProfile::islands,   &StepProfile::solve,       &StepProfile::velocity,
    &StepProfile::sleep};
const std::vector<std::string> kPhaseNames = {"integrate", "broad_phase", "narrow_phase", "islands",
                                              "solve",     "velocity",    "sleep"};

record::RecordingOptions options_of(const std::string& scene_name, const SceneInstance& inst,
                                    int every, bool contacts, bool islands) {
  record::RecordingOptions o;
  o.scene = scene_name;
  o.dt = inst.dt;
  o.every = every;
  o.contacts = contacts;
  o.islands = islands;
  o.phases = kPhaseNames;
  return o;
}

}  // namespace

RunRecording::RunRecording(const std::string& path, const std::string& scene_name,
                           const SceneInstance& inst, int every, bool contacts, bool islands)
    : file_("--record", path),
      writer_(options_of(scene_name, inst, every, contacts, islands)),
      every_(every) {
  capture(inst, 0, false);
}

void RunRecording::after_step(const SceneInstance& inst, int steps_done, bool last) {
  // Never the same step twice (`--steps 0` ends at the step already captured).
  if (steps_done != last_captured_ && (steps_done % every_ == 0 || last))
    capture(inst, steps_done, last);
  else if (last)
    write({}, true);
  if (last) file_.write(std::string());
}

// Compresses `bytes` onto the file; `last` ends the compressed frame.
void RunRecording::write(std::string_view bytes, bool last) {
  compressed_.clear();
  compressor_.add(bytes, last, compressed_);
  file_.append(compressed_);
  bytes_ += compressed_.size();
}

void RunRecording::capture(const SceneInstance& inst, int steps_done, bool last) {
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = thread_cpu_seconds();
  // The world keeps means since its profile was reset; the frame gets the mean of the steps
  // since the previous frame, from the difference of the sums.
  const StepProfile& p = inst.world.profile();
  std::array<float, 7> profile{};
  const std::uint64_t steps = p.steps - profile_steps_;
  for (std::size_t i = 0; i < kFields.size(); ++i) {
    const double sum = p.*kFields[i] * double(p.steps);
    profile[i] = steps > 0 ? float((sum - sums_[i]) / double(steps)) : 0.0f;
    sums_[i] = sum;
  }
  profile_steps_ = p.steps;
  writer_.capture(inst.world, steps_done, profile);
  write(writer_.take_bytes(), last);
  ++frames_;
  last_captured_ = steps_done;
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  cpu_seconds_ += thread_cpu_seconds() - cpu_start;
}

}  // namespace strut::cli
