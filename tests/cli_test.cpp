// The `strut` program as scripts see it: runs the real binary and checks exit statuses, the
// one-line error messages and the JSON it writes. The binary is ${STRUT_BINARY_DIR}/strut.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "strut/scene.hpp"
#include "strut/scenes.hpp"
#include "test_util.hpp"
#include "tests/scene_error_cases.hpp"
#include "tools/record/compression.hpp"
#include "tools/record/recording.hpp"

namespace strut {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const std::string kBinary = std::string(STRUT_BINARY_DIR) + "/strut";

struct Result {
  int status = -1;
  std::string out, err;
};

std::string quote(const std::string& s) {
  std::string q = "'";
  for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(kBinary)) << kBinary << " is missing: build the strut_cli target";
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    // The process id keeps two suites run at once (two worktrees, ctest -j) out of each other's
    // files.
    dir_ = fs::path(::testing::TempDir()) /
           ("strut_cli_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs `strut <args>` (args already shell-quoted where needed), stdin closed.
  Result run(const std::string& args) const {
    const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
    const std::string cmd =
        quote(kBinary) + " " + args + " </dev/null >" + quote(out) + " 2>" + quote(err);
    Result r;
    r.status = test::exit_status(cmd);
    r.out = test::read_file(out);
    r.err = test::read_file(err);
    return r;
  }
  std::string write(const std::string& name, const std::string& text) const {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }

  fs::path dir_;
};

constexpr const char* kSmallScene = R"({
  "format": "strut-scene", "version": 1,
  "world": {"gravity": [0, -10], "dt": 0.02, "substeps": 4},
  "bodies": [
    {"name": "ground", "shape": "box", "center": [0, -1], "half_extents": [20, 1], "static": true},
    {"name": "crate", "shape": "box", "center": [0, 0.5], "half_extents": [0.5, 0.5]},
    {"shape": "circle", "center": [3, 4], "radius": 0.25, "velocity": [1, 0]},
    {"name": "wedge", "shape": "polygon", "center": [-3, 2], "vertices": [[-0.5, 0], [0.5, 0], [0, 0.8]]}
  ]
})";

bool is_hash_line(const std::string& line) {
  return std::regex_match(line, std::regex("hash: [0-9a-f]{16}"));
}

std::string last_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return t.substr(t.rfind('\n') == std::string::npos ? 0 : t.rfind('\n') + 1);
}

TEST_F(Cli, ListNamesTheBuiltInScenesOnePerLine) {
  const Result r = run("list");
  EXPECT_EQ(r.status, 0);
  std::string expected;
  for (const std::string& name : builtin_scene_names()) expected += name + "\n";
  EXPECT_EQ(r.out, expected);
  EXPECT_EQ(r.err, "");
}

TEST_F(Cli, RunWritesTheDocumentedState) {
  const std::string scene = write("small.json", kSmallScene);
  const std::string state = (dir_ / "state.json").string();
  const std::string profile = (dir_ / "profile.json").string();
  const Result r = run("run " + quote(scene) + " --steps 5 --quiet --state-out " + quote(state) +
                       " --profile-out=" + quote(profile));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  ASSERT_TRUE(is_hash_line(last_line(r.out))) << r.out;
  const std::string hash = last_line(r.out).substr(6);

  const json s = json::parse(test::read_file(state));
  ASSERT_TRUE(s.is_object());
  EXPECT_EQ(s.at("steps"), 5);
  EXPECT_NEAR(s.at("time").get<double>(), 5 * 0.02, 1e-6);
  EXPECT_EQ(s.at("hash"), hash);
  const json& bodies = s.at("bodies");
  ASSERT_EQ(bodies.size(), 4u);  // static ground included, in scene order
  const char* names[] = {"ground", "crate", nullptr, "wedge"};
  for (std::size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    const json& b = bodies[i];
    EXPECT_EQ(b.size(), 6u) << b.dump();
    if (names[i])
      EXPECT_EQ(b.at("name"), names[i]);
    else
      EXPECT_TRUE(b.at("name").is_null());
    ASSERT_TRUE(b.at("center").is_array());
    EXPECT_EQ(b.at("center").size(), 2u);
    EXPECT_TRUE(b.at("center")[0].is_number());
    EXPECT_TRUE(b.at("angle").is_number());
    EXPECT_EQ(b.at("velocity").size(), 2u);
    EXPECT_TRUE(b.at("velocity")[1].is_number());
    EXPECT_TRUE(b.at("angular_velocity").is_number());
    EXPECT_TRUE(b.at("sleeping").is_boolean());
  }
  // The ground does not move; the crate rests on it; the ball flew on and fell.
  EXPECT_EQ(bodies[0].at("center")[0], 0.0);
  EXPECT_EQ(bodies[0].at("center")[1], -1.0);
  EXPECT_NEAR(bodies[1].at("center")[1].get<double>(), 0.5, 0.02);
  EXPECT_NEAR(bodies[2].at("center")[0].get<double>(), 3.0 + 5 * 0.02, 0.01);
  EXPECT_LT(bodies[2].at("velocity")[1].get<double>(), -0.5);
  EXPECT_NEAR(bodies[2].at("velocity")[0].get<double>(), 1.0, 1e-3);

  const json p = json::parse(test::read_file(profile));
  EXPECT_EQ(p.at("steps"), 5);
  EXPECT_EQ(p.at("bodies"), 4);
  EXPECT_EQ(p.at("hash"), hash);
  for (const char* phase : {"integrate", "broad_phase", "narrow_phase", "islands", "solve",
                            "velocity", "sleep", "total"})
    EXPECT_TRUE(p.at("ms_per_step").at(phase).is_number()) << phase;
}

TEST_F(Cli, RunPrintsTheProfileTableThenTheHash) {
  const std::string scene = write("small.json", kSmallScene);
  const Result r = run("run " + quote(scene) + " --steps 3 --threads 1");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* phase : {"integrate", "broad phase", "narrow phase", "islands", "solve",
                            "velocity", "sleep", "total", "steps/s"})
    EXPECT_NE(r.out.find(phase), std::string::npos) << phase << "\n" << r.out;
  EXPECT_TRUE(is_hash_line(last_line(r.out))) << r.out;
  EXPECT_EQ(r.err, "");  // stderr is not a terminal: no progress bar
}

TEST_F(Cli, HashIsTheSameForAnyThreadCount) {
  const Result one = run("run tumbler --steps 20 --quiet --threads 1");
  const Result two = run("run tumbler --steps 20 --quiet --threads 2");
  const Result all = run("run tumbler --steps 20 --quiet");
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.out, two.out);
  EXPECT_EQ(one.out, all.out);
}

TEST_F(Cli, BuiltInNameAndItsFileGiveTheSameHash) {
  const Result by_name = run("run smash --steps 3 --quiet");
  const Result by_file = run("run " + quote(std::string(STRUT_SOURCE_DIR) + "/scenes/smash.json") +
                             " --steps 3 --quiet");
  ASSERT_EQ(by_name.status, 0) << by_name.err;
  EXPECT_EQ(by_name.out, by_file.out);
}

// SCENE_FORMAT.md version 3: `run S --steps N --snapshot-out F` then `run F --steps M` ends
// with the hash and --state-out of `run S --steps N+M`, at other threads, for a scene whose
// step hook spawns bodies as it goes (rain) and for a scene file.
TEST_F(Cli, SnapshotOutContinuesExactly) {
  const std::string file = write("small.json", kSmallScene);
  for (const std::string& scene : {std::string("rain"), quote(file)}) {
    const std::string snap = (dir_ / "run.snap").string();
    const std::string whole = (dir_ / "whole.json").string();
    const std::string resumed = (dir_ / "resumed.json").string();
    const Result first =
        run("run " + scene + " --steps 30 --quiet --threads 2 --snapshot-out " + quote(snap));
    ASSERT_EQ(first.status, 0) << first.err;
    const Result rest =
        run("run " + quote(snap) + " --steps 25 --quiet --threads 1 --state-out " + quote(resumed));
    const Result all =
        run("run " + scene + " --steps 55 --quiet --threads 2 --state-out " + quote(whole));
    ASSERT_EQ(rest.status, 0) << rest.err;
    EXPECT_EQ(rest.out, all.out) << scene;
    EXPECT_EQ(test::read_file(resumed), test::read_file(whole)) << scene;
    EXPECT_EQ(json::parse(test::read_file(resumed))["steps"], 55);
  }
}

TEST_F(Cli, DamagedSnapshotExitsTwoNamingTheBytes) {
  const std::string snap = (dir_ / "run.snap").string();
  ASSERT_EQ(run("run tumbler --steps 2 --quiet --snapshot-out " + quote(snap)).status, 0);
  std::string bytes = test::read_file(snap);
  const std::string cut = write("cut.snap", bytes.substr(0, bytes.size() / 2));
  Result r = run("run " + quote(cut) + " --steps 1 --quiet");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.find(cut + ": bytes 16-24: header: payload length"), 0u) << r.err;
  bytes[bytes.size() - 3] ^= 0x10;  // in the scene's part
  const std::string flipped = write("flipped.snap", bytes);
  r = run("run " + quote(flipped) + " --steps 1 --quiet");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(": scene: checksum mismatch: the snapshot is damaged"), std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  r = run("run " + quote(snap) + " --steps 1 --no-contact-cache");
  EXPECT_EQ(r.status, 2);
}

TEST_F(Cli, SubstepsOverrideTheScene) {
  const std::string scene = write("small.json", kSmallScene);
  const Result four = run("run " + quote(scene) + " --steps 10 --quiet");
  const Result eight = run("run " + quote(scene) + " --steps 10 --quiet --substeps 8");
  ASSERT_EQ(eight.status, 0) << eight.err;
  EXPECT_NE(four.out, eight.out);
}

// The pyramid settles, so with the cache its pairs keep their features and the run differs
// (slightly) from one where every pair collides afresh.
TEST_F(Cli, NoContactCacheTurnsTheCacheOff) {
  const Result cached = run("run large_pyramid --steps 30 --quiet");
  const Result fresh = run("run large_pyramid --steps 30 --quiet --no-contact-cache");
  ASSERT_EQ(fresh.status, 0) << fresh.err;
  EXPECT_NE(cached.out, fresh.out);
}

TEST_F(Cli, ZeroStepsWritesTheInitialState) {
  const std::string scene = write("small.json", kSmallScene);
  const std::string state = (dir_ / "state.json").string();
  const Result r = run("run " + quote(scene) + " --steps 0 --quiet --state-out " + quote(state));
  ASSERT_EQ(r.status, 0) << r.err;
  const json s = json::parse(test::read_file(state));
  EXPECT_EQ(s.at("bodies")[2].at("center")[1], 4.0);
}

TEST_F(Cli, EveryBadSceneExitsTwoWithOneLine) {
  for (const test::SceneErrorCase& c : test::scene_error_cases()) {
    SCOPED_TRACE(c.name);
    const std::string path = write(std::string(c.name) + ".json", c.json);
    const Result r = run("run " + quote(path) + " --steps 1 --quiet");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    ASSERT_FALSE(r.err.empty());
    EXPECT_EQ(r.err.back(), '\n');
    const std::string line = r.err.substr(0, r.err.size() - 1);
    EXPECT_EQ(line.find('\n'), std::string::npos) << r.err;
    if (c.prefix)
      EXPECT_EQ(line.rfind(path + ": " + c.message, 0), 0u) << line;
    else
      EXPECT_EQ(line, path + ": " + c.message);
  }
}

TEST_F(Cli, BadArgumentsExitTwo) {
  const std::string scene = write("small.json", kSmallScene);
  const struct {
    std::string args, message;
  } cases[] = {
      {"",
       "strut: expected a command: run, list, scale, view, render or robustness (see strut "
       "--help)"},
      {"fly",
       "strut: unknown command 'fly' (expected run, list, scale, view, render or robustness)"},
      {"run --speed 3", "strut: run: unknown option '--speed' (see strut --help)"},
      {"run --steps", "strut: run: option --steps needs a value"},
      {"run --steps ten", "strut: --steps: expected a whole number, got 'ten'"},
      {"run --steps -5", "strut: --steps: -5 is out of range [0, 1000000000]"},
      {"run --steps 1.5", "strut: --steps: expected a whole number, got '1.5'"},
      {"run --threads -1", "strut: --threads: -1 is out of range [0, 256]"},
      // The bad --steps too, so that a --threads let through fails at once instead of running.
      {"run --threads 257 --steps -1", "strut: --threads: 257 is out of range [0, 256]"},
      {"scale rain --threads-max 257 --steps 0",
       "strut: --threads-max: 257 is out of range [1, 256]"},
      {"run --substeps 0", "strut: --substeps: 0 is out of range [1, 1000]"},
      {"run --quiet=yes", "strut: run: option --quiet takes no value, got '--quiet=yes'"},
      {"run " + quote(scene) + " -- rain",
       "strut: run: unexpected argument 'rain' (see strut --help)"},
      {"run no_such_scene",
       "strut: no scene file or built-in scene named 'no_such_scene' "
       "(strut list names the built-in scenes)"},
      {"run " + quote(scene) + " rain", "strut: run: expected at most one SCENE, got 'rain'"},
      {"run " + quote(scene) + " --state-out /nonexistent/dir/state.json",
       "strut: --state-out: cannot write '/nonexistent/dir/state.json': No such file or "
       "directory"},
      {"run " + quote(scene) + " --events-out /nonexistent/dir/events.jsonl",
       "strut: --events-out: cannot write '/nonexistent/dir/events.jsonl': No such file or "
       "directory"},
      {"run " + quote(scene) + " --events-out", "strut: run: option --events-out needs a value"},
      {"list extra", "strut: list: takes no arguments"},
      {"scale", "strut: scale: expected one SCENE (a file or a built-in name)"},
      {"scale rain --sizes 1,x",
       "strut: --sizes: expected positive numbers separated by "
       "commas, got '1,x'"},
      {"run " + quote(dir_.string()), dir_.string() + ": is a directory, not a scene file"},
      {"run " + quote(scene) + " --record-every 5",
       "strut: run: --record-every needs --record FILE"},
      {"run " + quote(scene) + " --record x.rec --record-every 0",
       "strut: --record-every: 0 is out of range [1, 1000000000]"},
      {"run " + quote(scene) + " --record /nonexistent/dir/x.rec",
       "strut: --record: cannot write '/nonexistent/dir/x.rec': No such file or directory"},
      {"view", "strut: view: expected one RECORDING file"},
      {"view x.rec", "strut: view: expected -o PAGE.html"},
      {"view /nonexistent.rec -o " + quote((dir_ / "page.html").string()),
       "/nonexistent.rec: cannot open: No such file or directory"},
      {"render", "strut: render: expected one SCENE or RECORDING"},
      {"render " + quote(scene) + " --steps 1,x", "strut: --steps: bad value 'x' in '1,x'"},
      {"render " + quote(scene) + " --view 1,1,0,2",
       "strut: --view: expected x0,y0,x1,y1 with x0 < x1 and y0 < y1"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args);
    const Result r = run(c.args);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, c.message + "\n");
    EXPECT_EQ(r.out, "");
  }
}

// An unknown STRUT_SIMD is bad input: exit 2 with the variable named (it was an internal error,
// exit 1).
TEST_F(Cli, UnknownSimdLevelExitsTwoNamingTheVariable) {
  const std::string scene = write("small.json", kSmallScene);
  setenv("STRUT_SIMD", "bogus", 1);
  const Result r = run("run " + quote(scene) + " --steps 1 --quiet");
  unsetenv("STRUT_SIMD");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(
      r.err,
      "strut: STRUT_SIMD: unknown level \"bogus\" (expected scalar, sse4.2, avx2 or avx512)\n");
}

// `strut --help` lists every command with its usage line and every option it takes, each
// followed by its placeholder or description; `strut COMMAND --help` the command's own.
TEST_F(Cli, HelpListsEveryOptionOfEveryCommand) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> commands = {
      {"strut run [OPTIONS] [SCENE]",
       {"--steps N", "--threads T", "--substeps S", "--no-contact-cache", "--state-out FILE",
        "--profile-out FILE", "--events-out FILE", "--snapshot-out FILE", "--quiet",
        "--record FILE", "--record-every K", "--record-contacts", "--record-islands"}},
      {"strut list", {}},
      {"strut scale [OPTIONS] [SCENE]",
       {"--threads-max N", "--sizes a,b,c", "--steps N", "--out PREFIX"}},
      {"strut view [OPTIONS] [RECORDING]", {"-o,--out PAGE.html"}},
      {"strut render [OPTIONS] [SCENE|RECORDING]",
       {"--steps a,b,c", "-o,--out PREFIX", "--size WxH", "--view x0,y0,x1,y1", "--contacts",
        "--threads T"}},
      {"strut robustness [OPTIONS]",
       {"--case NAME", "--threads T", "--no-sleep", "--write-scenes DIR"}}};
  const Result all = run("--help");
  ASSERT_EQ(all.status, 0);
  for (const auto& [usage, options] : commands) {
    const std::size_t at = all.out.find(usage);
    ASSERT_NE(at, std::string::npos) << usage << "\n" << all.out;
    const std::size_t next = all.out.find("\nstrut ", at + 1);
    const std::string section = all.out.substr(at, next - at);
    for (const std::string& option : options)
      EXPECT_NE(section.find("  " + option + " "), std::string::npos) << usage << ": " << option;
    // The command's own help lists the same options.
    const Result own = run(usage.substr(6, usage.find(' ', 6) - 6) + " --help");
    EXPECT_EQ(own.status, 0);
    for (const std::string& option : options)
      EXPECT_NE(own.out.find("  " + option + " "), std::string::npos) << usage << ": " << option;
  }
}

TEST_F(Cli, HelpExitsZero) {
  for (const char* args : {"--help", "-h", "help", "run --help", "run --steps 5 --help"}) {
    const Result r = run(args);
    EXPECT_EQ(r.status, 0) << args;
    EXPECT_NE(r.out.find("strut run [OPTIONS] [SCENE]"), std::string::npos) << args;
    EXPECT_EQ(r.err, "") << args;
  }
}

// Numbers are decimal ("010" is ten, not octal eight), and an option given twice takes its
// last value.
TEST_F(Cli, OptionsReadDecimalAndTheLastValueWins) {
  const std::string scene = write("small.json", kSmallScene);
  const std::string state = (dir_ / "state.json").string();
  ASSERT_EQ(run("run " + quote(scene) + " --quiet --steps 010 --state-out " + quote(state)).status,
            0);
  EXPECT_EQ(json::parse(test::read_file(state)).at("steps"), 10);
  ASSERT_EQ(run("run " + quote(scene) + " --quiet --steps=3 --steps 4 --state-out=" + quote(state))
                .status,
            0);
  EXPECT_EQ(json::parse(test::read_file(state)).at("steps"), 4);
}

// `--record` takes frames 0, K, 2K... and the last step; the final poses are the final
// state's, and each frame's profile (the mean of the steps since the previous frame) weighted
// by its steps adds up to the run's mean profile.
TEST_F(Cli, RecordingFollowsTheRunAndItsProfile) {
  const std::string scene = write("small.json", kSmallScene);
  const std::string rec_path = (dir_ / "run.rec").string();
  const std::string state = (dir_ / "state.json").string();
  const std::string profile = (dir_ / "profile.json").string();
  const Result r =
      run("run " + quote(scene) + " --steps 23 --threads 1 --record " + quote(rec_path) +
          " --record-every 5 --state-out " + quote(state) + " --profile-out " + quote(profile));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("recording    6 frames, "), std::string::npos) << r.out;
  const record::Recording rec = record::load_recording(rec_path);
  std::vector<std::int64_t> steps;
  for (const record::Frame& f : rec.frames) steps.push_back(f.step);
  EXPECT_EQ(steps, (std::vector<std::int64_t>{0, 5, 10, 15, 20, 23}));
  EXPECT_EQ(rec.every, 5);
  EXPECT_EQ(rec.dt, 0.02f);

  const json s = json::parse(test::read_file(state));
  const record::Frame& last = rec.frames.back();
  ASSERT_EQ(last.bodies.size(), s.at("bodies").size());
  for (std::size_t i = 0; i < last.bodies.size(); ++i) {
    // The state file prints floats in their shortest round-trip form: equal as floats.
    EXPECT_EQ(last.poses[i].position.x, s.at("bodies")[i].at("center")[0].get<float>()) << i;
    EXPECT_EQ(last.poses[i].angle, s.at("bodies")[i].at("angle").get<float>()) << i;
  }

  const json p = json::parse(test::read_file(profile));
  ASSERT_EQ(rec.phases.size(), 7u);
  for (std::size_t k = 0; k < rec.phases.size(); ++k) {
    double sum = 0;
    for (std::size_t f = 1; f < rec.frames.size(); ++f)
      sum += double(rec.frames[f].profile[k]) * double(rec.frames[f].step - rec.frames[f - 1].step);
    // Float32 frame means: relative rounding 1e-7 per frame, so 1e-6 of the sum.
    const double want = p.at("ms_per_step").at(rec.phases[k]).get<double>() * 23;
    EXPECT_NEAR(sum, want, 1e-6 * want + 1e-9) << rec.phases[k];
  }
}

// `--record` writes one zstd frame (docs/recording_format.md, "Compression"); `strut view` and
// `strut render` read it, and a bare stream as older strut wrote it, alike. `--steps 0` records
// its one step once.
TEST_F(Cli, RecordingsAreCompressedAndBareOnesStillRead) {
  const std::string packed = (dir_ / "run.rec").string();
  Result r = run("run tumbler --steps 40 --quiet --record " + quote(packed));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string packed_bytes = test::read_file(packed);
  ASSERT_TRUE(record::is_compressed(packed_bytes));
  const std::string stream = record::decompress(packed_bytes, packed);
  EXPECT_LT(packed_bytes.size(), stream.size());
  const std::string bare = write("bare.rec", stream);
  for (const std::string& rec : {packed, bare}) {
    SCOPED_TRACE(rec);
    r = run("view " + quote(rec) + " -o " + quote((dir_ / "page.html").string()));
    ASSERT_EQ(r.status, 0) << r.err;
    // The page embeds the bare stream whichever file it came from.
    EXPECT_NE(r.out.find("41 frames of tumbler, " + std::to_string(stream.size()) + " bytes"),
              std::string::npos)
        << r.out;
    r = run("render " + quote(rec) + " --steps 40 -o " + quote((dir_ / "t").string()));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, (dir_ / "t-40.png").string() + "\n");
  }
  EXPECT_EQ(record::load_recording(packed).frames.size(), 41u);

  r = run("run tumbler --steps 0 --quiet --record " + quote(packed));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(record::load_recording(packed).frames.size(), 1u);

  // Cut short, the compressed file is refused naming what is wrong.
  const std::string cut = write("cut.rec", packed_bytes.substr(0, packed_bytes.size() - 10));
  r = run("view " + quote(cut) + " -o " + quote((dir_ / "page.html").string()));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, cut + ": compressed stream: truncated: the file ends inside the zstd frame\n");
}

TEST_F(Cli, ScaleWritesCsvAndSvg) {
  const std::string prefix = (dir_ / "pyr").string();
  const Result r =
      run("scale large_pyramid --sizes 0.01,0.04 --threads-max 2 --steps 5 --out " + quote(prefix));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string csv = test::read_file(prefix + ".csv");
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "scene,size,bodies,threads,steps,ms_per_step,hash");
  int rows = 0;
  std::string hash_t1;
  while (std::getline(lines, line)) {
    ++rows;
    EXPECT_EQ(line.rfind("large_pyramid,", 0), 0u) << line;
  }
  EXPECT_EQ(rows, 4);  // 2 sizes x 2 thread counts
  const std::string svg = test::read_file(prefix + ".svg");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("threads"), std::string::npos);
  EXPECT_NE(svg.find("bodies"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST_F(Cli, ExportWritesTheCommittedFile) {
  const std::string out = (dir_ / "tumbler.json").string();
  const Result r = run("export tumbler " + quote(out));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(test::read_file(out),
            test::read_file(std::string(STRUT_SOURCE_DIR) + "/scenes/tumbler.json"));
}

}  // namespace
}  // namespace strut

namespace strut {
namespace {

// A version-2 scene: a named pendulum on a revolute joint (hanging at rest below its pin), an
// unnamed slider on a prismatic joint, and a wheel on its spring.
const char* kJointScene = R"({"format": "strut-scene", "version": 2,
 "world": {"gravity": [0, -10], "sleep": false},
 "bodies": [
  {"name": "top", "shape": "box", "center": [0, 0], "half_extents": [0.1, 0.1], "static": true,
   "mask": 0},
  {"name": "bob", "shape": "box", "center": [0, -1], "half_extents": [0.25, 0.25], "mask": 0},
  {"name": "rail", "shape": "box", "center": [5, 0], "half_extents": [0.1, 0.1], "static": true,
   "mask": 0},
  {"name": "cart", "shape": "box", "center": [5, 0], "half_extents": [0.5, 0.25], "mask": 0},
  {"name": "hub", "shape": "box", "center": [10, 0], "half_extents": [0.1, 0.1], "static": true,
   "mask": 0},
  {"name": "wheel", "shape": "circle", "center": [10, -1], "radius": 0.4, "mask": 0}],
 "joints": [
  {"type": "revolute", "name": "hinge", "a": "top", "b": "bob", "anchor": [0, 0]},
  {"type": "prismatic", "a": "rail", "b": "cart", "anchor": [5, 0], "axis": [1, 0],
   "lower": -1, "upper": 1},
  {"type": "wheel", "name": "axle", "a": "hub", "b": "wheel", "anchor": [10, -1], "axis": [0, 1],
   "spring_hertz": 2, "spring_damping": 1}]})";

// --state-out lists every joint in scene order with its measure and its reaction on b: the
// hinge carries the bob's weight (0.25 kg x 10, 0.1%), the wheel hangs g / (2 pi 2)^2 = 6.3 cm
// below its load-time position (1%).
TEST_F(Cli, StateListsJointsWithTheirReadings) {
  const std::string scene = write("joints.json", kJointScene);
  const std::string state = (dir_ / "state.json").string();
  const Result r = run("run " + quote(scene) + " --steps 240 --quiet --state-out " + quote(state));
  ASSERT_EQ(r.status, 0) << r.err;
  const json s = json::parse(test::read_file(state));
  const json& joints = s.at("joints");
  ASSERT_EQ(joints.size(), 3u);
  EXPECT_EQ(joints[0].at("name"), "hinge");
  EXPECT_EQ(joints[0].at("type"), "revolute");
  EXPECT_NEAR(joints[0].at("angle").get<double>(), 0.0, 1e-4);
  EXPECT_FALSE(joints[0].contains("translation"));
  EXPECT_NEAR(joints[0].at("force")[0].get<double>(), 0.0, 2.5e-3);
  EXPECT_NEAR(joints[0].at("force")[1].get<double>(), 2.5, 2.5e-3);
  EXPECT_NEAR(joints[0].at("torque").get<double>(), 0.0, 1e-6);
  EXPECT_TRUE(joints[1].at("name").is_null());
  EXPECT_EQ(joints[1].at("type"), "prismatic");
  EXPECT_FALSE(joints[1].contains("angle"));
  EXPECT_NEAR(joints[1].at("translation").get<double>(), 0.0, 1e-4);
  EXPECT_EQ(joints[2].at("type"), "wheel");
  const double sag = 10.0 / std::pow(2 * M_PI * 2, 2);
  EXPECT_NEAR(joints[2].at("translation").get<double>(), -sag, 0.01 * sag);
  EXPECT_TRUE(joints[2].at("angle").is_number());
}

// A box dropped 2 m onto the ground (unnamed: index 1 in `bodies`).
constexpr const char* kDropScene = R"({
  "format": "strut-scene", "version": 1, "world": {"gravity": [0, -10], "dt": 0.02, "substeps": 4},
  "bodies": [
    {"name": "ground", "shape": "box", "center": [0, -1], "half_extents": [20, 1], "static": true},
    {"shape": "box", "center": [0, 2.5], "half_extents": [0.5, 0.5]}]})";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// --events-out (scene format version 2, "Output"): JSON Lines, one for each step that had
// events. The box lands once and then rests (and sleeps, which ends no contact): exactly one
// line, a begin at the step it lands, and none for the 99 steps without events.
TEST_F(Cli, EventsOutWritesOneLineAtTheStepTheBoxLands) {
  const std::string scene = write("drop.json", kDropScene);
  const std::string events = (dir_ / "events.jsonl").string();
  const Result r =
      run("run " + quote(scene) + " --steps 100 --quiet --threads 1 --events-out " + quote(events));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = test::read_file(events);
  const std::vector<std::string> lines = lines_of(text);
  ASSERT_EQ(lines.size(), 1u) << text;
  EXPECT_EQ(text.back(), '\n');

  // The step the library reports the contact beginning in, reading its events after each step.
  SceneInstance inst = build_scene(parse_scene(kDropScene, "drop.json"), 1);
  int landed = 0;
  for (int step = 1; step <= 100 && landed == 0; ++step) {
    inst.step();
    if (!inst.world.contact_begin_events().empty()) landed = step;
  }
  // Free fall from 2 m takes sqrt(2 x 2 / 10) = 0.632 s, 31.6 steps of 0.02 s: the contact
  // begins within a step of that (speculatively, or at the substep it touches).
  EXPECT_GE(landed, 31);
  EXPECT_LE(landed, 33);
  EXPECT_EQ(lines[0], "{\"step\": " + std::to_string(landed) +
                          R"(, "begin": [["ground", 1]], "end": [], "sensor_begin": [], )"
                          R"("sensor_end": []})");
  const json line = json::parse(lines[0]);
  EXPECT_EQ(line.size(), 5u);
  EXPECT_EQ(line.at("step"), landed);
  EXPECT_EQ(line.at("begin"), json::parse(R"([["ground", 1]])"));

  // The same file for any thread count; none but the empty file without steps.
  const std::string events2 = (dir_ / "events2.jsonl").string();
  ASSERT_EQ(
      run("run " + quote(scene) + " --steps 100 --quiet --threads 2 --events-out " + quote(events2))
          .status,
      0);
  EXPECT_EQ(test::read_file(events2), text);
  ASSERT_EQ(run("run " + quote(scene) + " --steps 0 --quiet --events-out " + quote(events2)).status,
            0);
  EXPECT_TRUE(fs::exists(events2));
  EXPECT_EQ(test::read_file(events2), "");
}

// The lines are buffered: a write that fails when the file is closed (a full disk) must fail the
// run (status 1) rather than leave a silently truncated file.
TEST_F(Cli, EventsOutThatCannotBeWrittenFailsTheRun) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const std::string scene = write("drop.json", kDropScene);
  const Result r = run("run " + quote(scene) + " --steps 100 --quiet --events-out /dev/full");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "strut: internal error: cannot write '/dev/full'\n");
}

// A super ball bounces: begin and end alternate, each on its own step, the pair always the
// unnamed ground (index 0) and "ball", and the steps are those at which the library reports them.
TEST_F(Cli, EventsOutReportsEveryBeginAndEndOfABouncingBall) {
  const char* kBounce = R"({"format": "strut-scene", "version": 1, "world": {"dt": 0.02},
   "bodies": [
    {"shape": "box", "center": [0, -1], "half_extents": [20, 1], "static": true},
    {"name": "ball", "shape": "circle", "center": [0, 3], "radius": 0.25,
     "material": "super_ball"}]})";
  const std::string scene = write("bounce.json", kBounce);
  const std::string events = (dir_ / "events.jsonl").string();
  const Result r =
      run("run " + quote(scene) + " --steps 300 --quiet --events-out " + quote(events));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> lines = lines_of(test::read_file(events));

  SceneInstance inst = build_scene(parse_scene(kBounce, "bounce.json"), 0);
  std::vector<std::pair<int, bool>> expected;  // step, begin (true) or end
  for (int step = 1; step <= 300; ++step) {
    inst.step();
    for (std::size_t i = 0; i < inst.world.contact_begin_events().size(); ++i)
      expected.emplace_back(step, true);
    for (std::size_t i = 0; i < inst.world.contact_end_events().size(); ++i)
      expected.emplace_back(step, false);
  }
  ASSERT_GE(expected.size(), 6u);  // at least three bounces in 6 s
  ASSERT_EQ(lines.size(), expected.size());
  const json pair = json::parse(R"([[0, "ball"]])");
  for (std::size_t i = 0; i < lines.size(); ++i) {
    SCOPED_TRACE(lines[i]);
    const json e = json::parse(lines[i]);
    EXPECT_EQ(e.at("step"), expected[i].first);
    EXPECT_EQ(expected[i].second, i % 2 == 0);  // begin, end, begin, ...
    EXPECT_EQ(e.at(expected[i].second ? "begin" : "end"), pair);
    EXPECT_EQ(e.at(expected[i].second ? "end" : "begin"), json::array());
    EXPECT_EQ(e.at("sensor_begin"), json::array());
    EXPECT_EQ(e.at("sensor_end"), json::array());
    if (i > 0) {
      EXPECT_GT(e.at("step").get<int>(), json::parse(lines[i - 1]).at("step").get<int>());
    }
  }
}

}  // namespace
}  // namespace strut
