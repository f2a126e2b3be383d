// `strut view RECORDING -o PAGE.html`: checks a recording and writes the self-contained viewer
// page that plays it.
#include <cstdio>

#include "tools/cli.hpp"
#include "tools/record/recording.hpp"
#include "tools/view/viewer_page.hpp"

namespace strut::cli {

int view_command(std::span<const std::string> argv) {
  const Args args = parse_args("view", argv, {"-o", "--out"}, {});
  if (args.positional.size() != 1) throw UsageError("view: expected one RECORDING file");
  if (!args.has("-o") && !args.has("--out")) throw UsageError("view: expected -o PAGE.html");
  const std::string& path = args.positional[0];
  const std::string out_path = args.text("-o", args.text("--out", ""));
  const std::string bytes = record::read_file_bytes(path);
  // The page would fail on a damaged file; refuse it here with the reader's message instead.
  const record::Recording rec = record::read_recording(bytes, path);
  OutputFile out("-o", out_path);
  out.write(view::viewer_page(bytes, rec.scene));
  std::printf("%s: %zu frames of %s, %zu bytes\n", out_path.c_str(), rec.frames.size(),
              rec.scene.c_str(), bytes.size());
  return 0;
}

}  // namespace strut::cli
