// The `strut` program: its parser (CLI11: a subcommand per command, each added by its
// tools/cmd_*.cpp), its help, and the exit-status contract (0 success, 2 bad input or
// arguments, 1 internal failure), each failure one line on stderr.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "strut/scenes.hpp"
#include "tools/cli.hpp"
#include "tools/record/recording.hpp"

namespace strut::cli {
namespace {

constexpr const char* kCommands = "run, list, scale, view, render or robustness";

constexpr const char* kAbout =
    "strut runs 2D physics scenes, measures how they scale with threads and bodies, records "
    "runs and plays or draws the recordings.";

constexpr const char* kFooter =
    "SCENE is a scene file (JSON) or the name of a built-in scene (an existing file wins). "
    "Options take their value as the next argument or after '=' (--steps=5). Exit status: 0, "
    "2 for bad input or arguments, 1 for an internal failure. See docs/scene_format.md "
    "(\"Command line\").";

// The help: CLI11's layout, with each command under its usage line instead of its bare name.
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_expanded(const CLI::App* command) const override {
    std::string usage = make_usage(command, "strut " + command->get_name());
    usage.erase(0, usage.find(':') + 2);  // "Usage: "
    const std::string text = CLI::Formatter::make_expanded(command);
    return usage + text.substr(text.find('\n') + 1);
  }
};

Command add_list_command(CLI::App& strut) {
  CLI::App* command =
      strut.add_subcommand("list", "Prints the names of the built-in scenes, one per line.");
  return [command] {
    if (!surplus_arguments(*command).empty()) throw UsageError("list: takes no arguments");
    for (const std::string& name : builtin_scene_names()) std::printf("%s\n", name.c_str());
    return 0;
  };
}

// Hidden: `strut export NAME FILE` writes a built-in scene as a scene file, and
// `strut export --all DIR` writes DIR/<name>.json for each; scenes/*.json are made this way.
Command add_export_command(CLI::App& strut) {
  struct Options {
    std::vector<std::string> names;
    std::string size = "1";
    bool all = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = strut.add_subcommand("export", "Writes built-in scenes as scene files.");
  command->group("");  // not in the help
  command->add_option("NAME FILE|DIR", o->names);
  command->add_option("--size", o->size);
  command->add_flag("--all", o->all);
  return [o, command] {
    surplus_arguments(*command);
    const std::vector<std::string>& names = o->names;
    if (o->all) {
      if (names.size() != 1) throw UsageError("export --all: expected a DIR");
      for (const std::string& name : builtin_scene_names())
        save_scene_file(builtin_scene(name), names[0] + "/" + name + ".json");
      return 0;
    }
    if (names.size() != 2) throw UsageError("export: expected NAME FILE");
    if (!is_builtin_scene(names[0]))
      throw UsageError("export: no built-in scene named '" + names[0] + "'");
    float size = 1;
    try {
      size = std::stof(o->size);
    } catch (const std::exception&) {
      throw UsageError("--size: expected a number");
    }
    save_scene_file(builtin_scene(names[0], size), names[1]);
    return 0;
  };
}

// A parse error in strut's words, naming the command and the option.
std::string problem_of(const CLI::ParseError& e, const CLI::App& strut,
                       const std::vector<std::string>& args) {
  // add_whole_number's messages: "<option>: <problem>".
  if (dynamic_cast<const CLI::ValidationError*>(&e)) return e.what();
  const std::vector<CLI::App*> chosen = strut.get_subcommands();
  if (chosen.empty()) return e.what();
  const CLI::App& command = *chosen[0];
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e)) {
    // A flag given a value, or a value missing: CLI11 takes the next argument as an option's
    // value whatever it is, so only the last argument can lack one.
    for (const std::string& a : args) {
      const std::string name = a.substr(0, a.find('='));
      const CLI::Option* flag = command.get_option_no_throw(name);
      if (name.size() < a.size() && flag && flag->get_expected_max() == 0)
        return command.get_name() + ": option " + name + " takes no value, got '" + a + "'";
    }
    if (command.get_option_no_throw(args.back()))
      return command.get_name() + ": option " + args.back() + " needs a value";
  }
  return command.get_name() + ": " + e.what();
}

int dispatch(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty())
    throw UsageError(std::string("expected a command: ") + kCommands + " (see strut --help)");
  CLI::App strut(kAbout, "strut");
  strut.formatter(std::make_shared<HelpFormatter>());
  strut.footer(kFooter);
  // Set before the commands are added, which take these settings from it. --help shows every
  // command's options; an argument of a command that names another command is an argument;
  // arguments CLI11 does not know are left for surplus_arguments to report in strut's words;
  // an option given twice takes its last value; a flag takes no value.
  strut.set_help_flag();
  strut.set_help_all_flag("-h,--help", "prints this help");
  strut.require_subcommand(0, 1);
  strut.allow_extras();
  strut.option_defaults()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast)
      ->disable_flag_override();
  // The chosen command's parser only (every command's for the help): building all of them was
  // most of `strut list`'s own work.
  const std::pair<const char*, Command (*)(CLI::App&)> all[] = {
      {"run", add_run_command},       {"list", add_list_command},
      {"scale", add_scale_command},   {"view", add_view_command},
      {"render", add_render_command}, {"robustness", add_robustness_command},
      {"export", add_export_command}};
  const bool help = args[0] == "help" || args[0] == "--help" || args[0] == "-h";
  std::map<std::string, Command> commands;
  for (const auto& [name, add] : all)
    if (help || args[0] == name) commands[name] = add(strut);
  if (args[0] == "help") {
    std::fputs(strut.help("", CLI::AppFormatMode::All).c_str(), stdout);
    return 0;
  }
  try {
    strut.parse(argc, argv);
  } catch (const CLI::CallForAllHelp&) {
    // The chosen command's help, or everything's.
    std::fputs(strut.help("", CLI::AppFormatMode::All).c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError& e) {
    throw UsageError(problem_of(e, strut, args));
  }
  const std::vector<CLI::App*> chosen = strut.get_subcommands();
  if (chosen.empty())
    throw UsageError("unknown command '" + args[0] + "' (expected " + kCommands + ")");
  // What follows "--" and no positional took is left to the program: refused like a surplus.
  if (!strut.remaining().empty())
    throw UsageError(chosen[0]->get_name() + ": unexpected argument '" + strut.remaining()[0] +
                     "' (see strut --help)");
  return commands.at(chosen[0]->get_name())();
}

}  // namespace
}  // namespace strut::cli

int main(int argc, char** argv) {
  using namespace strut;
  try {
    return cli::dispatch(argc, argv);
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
