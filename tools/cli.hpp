// The `strut` command-line program: shared pieces of its commands (tools/cmd_*.cpp).
#pragma once

#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "strut/scene.hpp"

namespace CLI {  // CLI11, included by the files that build the parser
class App;
class Option;
}  // namespace CLI

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

// A command of `strut`: adds its subcommand, with its options bound to its own state, to the
// program's parser (CLI11), and returns what runs it once the arguments are parsed.
using Command = std::function<int()>;
Command add_run_command(CLI::App& strut);
Command add_scale_command(CLI::App& strut);
Command add_robustness_command(CLI::App& strut);
Command add_view_command(CLI::App& strut);
Command add_render_command(CLI::App& strut);

// An option taking a whole number in [min, max] into `value`, shown as `--name PLACEHOLDER`
// with `help` and the range.
// A bad value stops the parse with "<name>: expected a whole number, got 'x'" or
// "<name>: x is out of range [min, max]".
CLI::Option* add_whole_number(CLI::App& command, const std::string& name, int& value, int min,
                              int max, const std::string& placeholder, const std::string& help);

// What a command's parser left: an argument that looks like an option is a UsageError
// "<command>: unknown option '<argument>' (see strut --help)"; the rest are positional
// arguments beyond the ones the command declares, in order, for the command to refuse.
std::vector<std::string> surplus_arguments(const CLI::App& command);

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

}  // namespace strut::cli
