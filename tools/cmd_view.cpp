// `strut view RECORDING -o PAGE.html`: checks a recording and writes the self-contained viewer
// page that plays it.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "tools/cli.hpp"
#include "tools/record/compression.hpp"
#include "tools/record/recording.hpp"
#include "tools/view/viewer_page.hpp"

namespace strut::cli {
namespace {

struct ViewOptions {
  std::string recording, page;
};

int view(const ViewOptions& o, const CLI::App& command) {
  if (o.recording.empty() || !surplus_arguments(command).empty())
    throw UsageError("view: expected one RECORDING file");
  if (!command.count("--out")) throw UsageError("view: expected -o PAGE.html");
  const std::string& path = o.recording;
  std::string bytes = record::read_file_bytes(path);
  // The page reads the bare MessagePack stream (a browser has no zstd).
  if (record::is_compressed(bytes)) bytes = record::decompress(bytes, path);
  // The page would fail on a damaged file; refuse it here with the reader's message instead.
  const record::Recording rec = record::read_recording(bytes, path);
  OutputFile out("-o", o.page);
  out.write(view::viewer_page(bytes, rec.scene));
  std::printf("%s: %zu frames of %s, %zu bytes\n", o.page.c_str(), rec.frames.size(),
              rec.scene.c_str(), bytes.size());
  return 0;
}

}  // namespace

Command add_view_command(CLI::App& strut) {
  auto o = std::make_shared<ViewOptions>();
  CLI::App* command = strut.add_subcommand(
      "view",
      "Checks RECORDING and writes one page that plays it in a browser, with no network and no "
      "server (docs/scene_format.md, \"strut view\").");
  command->add_option("RECORDING", o->recording, "a recording (strut run --record)")->type_name("");
  command->add_option("-o,--out", o->page, "the page to write")->type_name("PAGE.html");
  return [o, command] { return view(*o, *command); };
}

}  // namespace strut::cli
