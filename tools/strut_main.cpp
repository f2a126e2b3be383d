// The `strut` program: command dispatch and the exit-status contract (0 success, 2 bad input
// or arguments, 1 internal failure), each failure one line on stderr.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "strut/scenes.hpp"
#include "tools/cli.hpp"
#include "tools/record/recording.hpp"

namespace strut::cli {
namespace {

constexpr const char* kUsage = R"(usage:
  strut run [SCENE] [--steps N] [--threads T] [--substeps S] [--no-contact-cache]
            [--state-out FILE] [--profile-out FILE] [--events-out FILE] [--quiet]
            [--snapshot-out FILE]
            [--record FILE [--record-every K] [--record-contacts] [--record-islands]]
  strut list
  strut scale SCENE [--threads-max N] [--sizes a,b,c] [--steps N] [--out PREFIX]
  strut view RECORDING -o PAGE.html
  strut render SCENE|RECORDING [--steps a,b,c] [-o PREFIX] [--size WxH] [--view x0,y0,x1,y1]
               [--contacts] [--threads T]
  strut robustness [--case NAME] [--threads T] [--no-sleep] [--write-scenes DIR]

SCENE is a scene file (JSON) or the name of a built-in scene; `strut run` without one runs
large_pyramid. --threads 0 (the default) uses all cores; at most 256 (every thread count gives
the same results). --no-contact-cache makes every pair collide afresh every step (the scene's
world.contact_cache). --record writes every K-th step (docs/recording_format.md); `strut view`
makes a page that plays it in a browser and `strut render` draws PNG frames. `strut robustness`
runs the robustness suite (the field's stress cases, README "Robustness") and prints each
figure beside its limit; its scenes are scenes/robustness/*.json. --snapshot-out writes the
world as it is after the run; such a file (or a World::snapshot) is accepted wherever a scene
is and continues exactly where it was.
See docs/scene_format.md.
)";

int list_command(std::span<const std::string> argv) {
  parse_args("list", argv, {}, {});
  if (!argv.empty()) throw UsageError("list: takes no arguments");
  for (const std::string& name : builtin_scene_names()) std::printf("%s\n", name.c_str());
  return 0;
}

// Hidden: `strut export NAME FILE` writes a built-in scene as a scene file, and
// `strut export --all DIR` writes DIR/<name>.json for each; scenes/*.json are made this way.
int export_command(std::span<const std::string> argv) {
  const Args args = parse_args("export", argv, {"--size"}, {"--all"});
  if (args.has("--all")) {
    if (args.positional.size() != 1) throw UsageError("export --all: expected a DIR");
    for (const std::string& name : builtin_scene_names())
      save_scene_file(builtin_scene(name), args.positional[0] + "/" + name + ".json");
    return 0;
  }
  if (args.positional.size() != 2) throw UsageError("export: expected NAME FILE");
  if (!is_builtin_scene(args.positional[0]))
    throw UsageError("export: no built-in scene named '" + args.positional[0] + "'");
  float size = 1;
  try {
    size = std::stof(args.text("--size", "1"));
  } catch (const std::exception&) {
    throw UsageError("--size: expected a number");
  }
  save_scene_file(builtin_scene(args.positional[0], size), args.positional[1]);
  return 0;
}

int dispatch(const std::vector<std::string>& argv) {
  if (argv.empty())
    throw UsageError(
        "expected a command: run, list, scale, view, render or robustness (see strut --help)");
  const std::string& command = argv[0];
  const std::span<const std::string> rest(argv.data() + 1, argv.size() - 1);
  for (const std::string& a : rest) {
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
  }
  if (command == "run") return run_command(rest);
  if (command == "list") return list_command(rest);
  if (command == "scale") return scale_command(rest);
  if (command == "export") return export_command(rest);
  if (command == "view") return view_command(rest);
  if (command == "render") return render_command(rest);
  if (command == "robustness") return robustness_command(rest);
  if (command == "help" || command == "--help" || command == "-h") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  throw UsageError("unknown command '" + command +
                   "' (expected run, list, scale, view, render or robustness)");
}

}  // namespace
}  // namespace strut::cli

int main(int argc, char** argv) {
  using namespace strut;
  try {
    return cli::dispatch(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const cli::UsageError& e) {
    std::fprintf(stderr, "strut: %s\n", e.what());
    return 2;
  } catch (const SceneError& e) {
    std::fprintf(stderr, "%s\n", e.what());  // already "<file>: <path>: <problem>"
    return 2;
  } catch (const record::RecordingError& e) {
    std::fprintf(stderr, "%s\n", e.what());  // already "<file>: <where>: <problem>"
    return 2;
  } catch (const Error& e) {  // bad input the engine refused, e.g. STRUT_SIMD=bogus
    std::fprintf(stderr, "strut: %s\n", e.what());
    return 2;
  } catch (const cli::InternalError& e) {
    std::fprintf(stderr, "strut: internal error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strut: internal error: %s\n", e.what());
    return 1;
  }
}
