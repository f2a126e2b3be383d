#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <span>
#include <utility>

#include "strut/scenes.hpp"
#include "tools/cli.hpp"

namespace strut::cli {

CLI::Option* add_whole_number(CLI::App& command, const std::string& name, int& value, int min,
                              int max, const std::string& placeholder, const std::string& help) {
  auto check = [name, min, max](std::string& text) -> std::string {
    long long v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
      return "expected a whole number, got '" + text + "'";
    if (v < min || v > max)
      return text + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]";
    // Decimal from here on: CLI11 itself would read "010" as octal.
    text = std::to_string(v);
    return "";
  };
  return command
      .add_option(name, value,
                  help + " (" + std::to_string(min) + " to " + std::to_string(max) + ")")
      ->transform(CLI::Validator(check, ""))
      ->type_name(placeholder);
}

std::vector<std::string> surplus_arguments(const CLI::App& command) {
  std::vector<std::string> out;
  for (const std::string& a : command.remaining()) {
    if (a.size() >= 2 && a[0] == '-')
      throw UsageError(command.get_name() + ": unknown option '" + a + "' (see strut --help)");
    out.push_back(a);
  }
  return out;
}

Scene resolve_scene(const std::string& scene, float size) {
  std::error_code ec;
  if (std::filesystem::exists(scene, ec)) {
    if (std::filesystem::is_directory(scene, ec))
      throw SceneError(scene, "", "is a directory, not a scene file");
    if (size != 1.0f) throw UsageError("--sizes applies to built-in scenes only");
    return load_scene_file(scene);
  }
  if (is_builtin_scene(scene)) return builtin_scene(scene, size);
  throw UsageError("no scene file or built-in scene named '" + scene +
                   "' (strut list names the built-in scenes)");
}

bool is_snapshot_file(const std::string& scene) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(scene, ec)) return false;
  std::FILE* f = std::fopen(scene.c_str(), "rb");
  if (!f) return false;
  std::uint8_t head[8] = {};
  const std::size_t n = std::fread(head, 1, sizeof head, f);
  std::fclose(f);
  return is_snapshot(std::span<const std::uint8_t>(head, n));
}

SceneInstance load_instance(const std::string& scene, int threads,
                            const std::function<void(Scene&)>& edit) {
  if (!is_snapshot_file(scene)) {
    Scene s = resolve_scene(scene);
    if (edit) edit(s);
    return build_scene(s, threads);
  }
  std::FILE* f = std::fopen(scene.c_str(), "rb");
  if (!f) throw SceneError(scene, "", "cannot be opened");
  std::vector<std::uint8_t> bytes;
  std::uint8_t chunk[1 << 16];
  for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, f)) > 0;)
    bytes.insert(bytes.end(), chunk, chunk + n);
  const bool failed = std::ferror(f);
  std::fclose(f);
  if (failed) throw SceneError(scene, "", "cannot be read");
  return load_scene_snapshot(bytes, scene, threads);
}

OutputFile::OutputFile(const std::string& option, const std::string& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) throw UsageError(option + ": cannot write '" + path + "': " + std::strerror(errno));
}

OutputFile::~OutputFile() {
  if (file_) std::fclose(file_);
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : path_(std::move(other.path_)), file_(std::exchange(other.file_, nullptr)) {}

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  if (this != &other) {
    if (file_) std::fclose(file_);
    path_ = std::move(other.path_);
    file_ = std::exchange(other.file_, nullptr);
  }
  return *this;
}

void OutputFile::append(std::string_view bytes) {
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
    throw InternalError("cannot write '" + path_ + "'");
}

void OutputFile::write(const std::string& text) {
  const bool ok = std::fwrite(text.data(), 1, text.size(), file_) == text.size();
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!ok || !closed) throw InternalError("cannot write '" + path_ + "'");
}

}  // namespace strut::cli
