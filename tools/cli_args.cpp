#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>

#include "strut/scenes.hpp"
#include "tools/cli.hpp"

namespace strut::cli {

bool Args::has(std::string_view option) const {
  return values.count(option) || std::find(flags.begin(), flags.end(), option) != flags.end();
}

long long Args::integer(std::string_view option, long long fallback, long long min,
                        long long max) const {
  const auto it = values.find(option);
  if (it == values.end()) return fallback;
  const std::string& s = it->second;
  long long v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty())
    throw UsageError(std::string(option) + ": expected a whole number, got '" + s + "'");
  if (v < min || v > max)
    throw UsageError(std::string(option) + ": " + s + " is out of range [" + std::to_string(min) +
                     ", " + std::to_string(max) + "]");
  return v;
}

std::string Args::text(std::string_view option, std::string fallback) const {
  const auto it = values.find(option);
  return it == values.end() ? fallback : it->second;
}

Args parse_args(std::string_view command, std::span<const std::string> args,
                std::initializer_list<std::string_view> with_value,
                std::initializer_list<std::string_view> flags) {
  Args out;
  auto known = [](std::initializer_list<std::string_view> list, std::string_view s) {
    return std::find(list.begin(), list.end(), s) != list.end();
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() < 2 || a[0] != '-') {
      out.positional.push_back(a);
      continue;
    }
    const std::size_t eq = a.find('=');
    const std::string name = a.substr(0, eq);
    if (known(with_value, name)) {
      if (eq != std::string::npos) {
        out.values[name] = a.substr(eq + 1);
      } else {
        if (i + 1 >= args.size())
          throw UsageError(std::string(command) + ": option " + name + " needs a value");
        out.values[name] = args[++i];
      }
    } else if (known(flags, name) && eq == std::string::npos) {
      out.flags.push_back(name);
    } else {
      throw UsageError(std::string(command) + ": unknown option '" + a + "' (see strut --help)");
    }
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
