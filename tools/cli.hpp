// The `strut` command-line program: shared pieces of its commands (tools/cmd_*.cpp).
#pragma once

#include <cstdio>
#include <functional>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "strut/scene.hpp"

namespace strut::cli {

// Bad arguments: main prints the message and exits with status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Something went wrong inside strut (non-finite state, I/O after the run): status 1.
class InternalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parsed arguments of one command: options with values ("--steps 5" or "--steps=5"), flags
// ("--quiet") and positional arguments, in order.
struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string, std::less<>> values;
  std::vector<std::string> flags;

  bool has(std::string_view option) const;
  // The option's value as a whole number in [min, max]; `fallback` when not given.
  long long integer(std::string_view option, long long fallback, long long min,
                    long long max) const;
  std::string text(std::string_view option, std::string fallback) const;
};

// Splits `args` (after the command name) into an Args. Throws UsageError for an option not in
// `with_value` or `flags`, or a value-taking option at the end.
Args parse_args(std::string_view command, std::span<const std::string> args,
                std::initializer_list<std::string_view> with_value,
                std::initializer_list<std::string_view> flags);

// SCENE on the command line: an existing file is loaded, otherwise the name of a built-in scene
// (with `size`); neither is a UsageError. Bad files throw SceneError.
Scene resolve_scene(const std::string& scene, float size = 1.0f);
// Whether SCENE names a snapshot file (strut run --snapshot-out, World::snapshot).
bool is_snapshot_file(const std::string& scene);
// SCENE built on `threads`: a snapshot file loaded (load_scene_snapshot), else resolve_scene's
// scene built with `edit` applied to it first.
SceneInstance load_instance(const std::string& scene, int threads,
                            const std::function<void(Scene&)>& edit = {});

// Opens a file for writing before a long run, so a bad path fails at once (UsageError).
class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const std::string& option, const std::string& path);
  ~OutputFile();
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  explicit operator bool() const { return !path_.empty(); }
  // Writes `text` and closes; an I/O failure is an InternalError.
  void write(const std::string& text);
  // Writes `bytes` and keeps the file open (streamed output); an I/O failure is an
  // InternalError.
  void append(std::string_view bytes);

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
};

int run_command(std::span<const std::string> args);
int scale_command(std::span<const std::string> args);
int robustness_command(std::span<const std::string> args);
int view_command(std::span<const std::string> args);
int render_command(std::span<const std::string> args);

}  // namespace strut::cli
