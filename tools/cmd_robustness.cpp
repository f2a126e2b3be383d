// `strut robustness`: runs the robustness suite (tools/robustness/) and prints each case's
// figure beside its limit; `--write-scenes DIR` writes the cases' scenes as scene files
// (scenes/robustness/ is made this way); `--no-sleep` forces sleep off in every scene, so that
// the figures of rest show real rest (a case whose figure is a time to sleep is then left out).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <string>

#include "strut/limits.hpp"
#include "tools/cli.hpp"
#include "tools/robustness/robustness.hpp"

namespace strut::cli {

namespace {

struct RobustnessOptions {
  std::string only, scenes_dir;
  int threads = 1;
  bool sleep_off = false;
};

int robustness_run(const RobustnessOptions& o, const CLI::App& command) {
  if (!surplus_arguments(command).empty())
    throw UsageError("robustness: takes no positional arguments");
  const std::string& only = o.only;
  const int threads = o.threads;
  const bool sleep_off = o.sleep_off;
  const std::vector<robustness::Case> all = robustness::cases();
  bool found = only.empty();
  for (const auto& c : all) found = found || c.name == only;
  if (!found) throw UsageError("--case: no robustness case named '" + only + "'");
  if (command.count("--write-scenes")) {
    const std::string& dir = o.scenes_dir;
    for (const auto& c : all) {
      if (!only.empty() && c.name != only) continue;
      const Scene scene = c.scene();
      save_scene_file(scene, dir + "/" + scene.source + ".json");
    }
    return 0;
  }
  std::printf("%-24s %-12s %-10s %-5s %s\n", "case", "strut", "limit", "pass", "figure");
  int passed = 0, failed = 0, left_out = 0;
  for (const auto& c : all) {
    if (!only.empty() && c.name != only) continue;
    if (sleep_off && c.measures_sleep) {
      std::printf("%-24s %-12s %-10s %-5s %s\n", c.name.c_str(), "-", "-", "-",
                  "left out: a time to sleep, with sleep off");
      ++left_out;
      continue;
    }
    const auto engine = robustness::strut_engine(robustness::scene_of(c, sleep_off), threads);
    const double figure = c.measure(*engine);
    const bool ok = robustness::passes(c, figure);
    (ok ? passed : failed) += 1;
    std::printf("%-24s %-12.4g %s%-8.4g %-5s %s\n", c.name.c_str(), figure,
                c.at_most ? "<=" : ">=", c.limit,
                ok       ? "yes"
                : c.open ? "open"
                         : "NO",
                c.figure.c_str());
    std::fflush(stdout);
  }
  std::printf("robustness%s: %d passed, %d failed", sleep_off ? " (sleep off)" : "", passed,
              failed);
  if (left_out > 0) std::printf(", %d left out", left_out);
  std::printf("\n");
  return 0;
}

}  // namespace

Command add_robustness_command(CLI::App& strut) {
  auto o = std::make_shared<RobustnessOptions>();
  CLI::App* command = strut.add_subcommand(
      "robustness",
      "Runs the robustness suite (the field's stress cases, README \"Robustness\") and prints "
      "each case's figure beside its limit; its scenes are scenes/robustness/*.json.");
  command->add_option("--case", o->only, "runs that case only")->type_name("NAME");
  add_whole_number(*command, "--threads", o->threads, 0, limits::kMaxThreads, "T",
                   "worker threads; default 1");
  command->add_flag("--no-sleep", o->sleep_off,
                    "forces sleep off in every scene (a case timing sleep is then left out)");
  command
      ->add_option("--write-scenes", o->scenes_dir,
                   "writes each case's scene as DIR/<name>.json instead of running")
      ->type_name("DIR");
  return [o, command] { return robustness_run(*o, *command); };
}

}  // namespace strut::cli
