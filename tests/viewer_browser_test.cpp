// The viewer page as a user sees it: `strut run --record` and `strut view` make the page, a
// real headless Chromium opens it, plays it and takes a screenshot, and the test checks that
// the frame counter advances, nothing went to the error console, and the pixels where the
// recording puts each body have that body's colour.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "png_pixels.hpp"
#include "state_scene.hpp"
#include "test_util.hpp"
#include "tools/record/recording.hpp"
#include "tools/view/palette.hpp"

namespace strut {
namespace {

namespace fs = std::filesystem;

const std::string kStrut = std::string(STRUT_BINARY_DIR) + "/strut";
const std::string kChromium = "/usr/bin/chromium";

// The #status element's data-NAME attribute in a dumped DOM.
double status_value(const std::string& dom, const std::string& name) {
  std::smatch m;
  if (!std::regex_search(dom, m, std::regex("data-" + name + "=\"([^\"]*)\""))) return std::nan("");
  return std::stod(m[1].str());
}

class ViewerBrowser : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kChromium))
      GTEST_SKIP() << kChromium << " is missing: tools/install_deps.sh installs chromium";
    // One directory per test: ctest runs the tests of a fixture at the same time.
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) / (std::string("strut_viewer_browser_") + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "scene.json") << test::kStateScene;
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // Headless Chromium on the page with `hash`, doing `action` (--dump-dom or --screenshot=F).
  // Its own profile directory, so tests running at once do not share one; 1 CSS px = 1 px.
  std::string chromium(const std::string& hash, const std::string& action, int budget_ms) {
    // `timeout`: a browser that hangs fails the test instead of stalling the suite.
    const std::string cmd = "timeout 60 " + kChromium +
                            " --headless --no-sandbox --disable-gpu --hide-scrollbars"
                            " --force-device-scale-factor=1 --window-size=1000,700"
                            " --user-data-dir=" +
                            (dir_ / "profile").string() +
                            " --virtual-time-budget=" + std::to_string(budget_ms) + " " + action +
                            " 'file://" + (dir_ / "page.html").string() + "#" + hash + "'" + " >" +
                            (dir_ / "dom.html").string() + " 2>" + (dir_ / "chromium.err").string();
    EXPECT_EQ(test::exit_status(cmd), 0) << test::read_file(dir_ / "chromium.err");
    return test::read_file(dir_ / "dom.html");
  }

  fs::path dir_;
};

TEST_F(ViewerBrowser, PlaysTheRecordingAndDrawsEachBodyWhereItIs) {
  const std::string rec_path = (dir_ / "run.rec").string();
  ASSERT_EQ(test::exit_status(kStrut + " run " + (dir_ / "scene.json").string() +
                              " --steps 60 --quiet --record " + rec_path + " >/dev/null"),
            0);
  ASSERT_EQ(test::exit_status(kStrut + " view " + rec_path + " -o " +
                              (dir_ / "page.html").string() + " >/dev/null"),
            0);
  const record::Recording rec = record::load_recording(rec_path);
  ASSERT_EQ(rec.frames.size(), 61u);

  // Playing from frame 0 (1 s of recording; the page's clock runs on the browser's virtual
  // time): the counter reaches the last frame and nothing was reported to the console.
  const std::string played = chromium("play", "--dump-dom", 2500);
  EXPECT_EQ(status_value(played, "errors"), 0.0) << played.substr(0, 2000);
  EXPECT_EQ(status_value(played, "frames"), 61.0);
  EXPECT_EQ(status_value(played, "frame"), 60.0);
  EXPECT_EQ(status_value(played, "step"), 60.0);

  // Frame 45, 0.75 s in: the crate has fallen asleep, the ball has fallen 2.8 m, the paddle has
  // turned 0.75 rad. The ground (x from -10 to 10, y from -2 to 0) is found in the screenshot
  // by its colour, which gives the page's scale and offset; at every other body's recorded
  // centre the screenshot then has the colour of the body's state, and beyond the ball's rim
  // the background.
  const int frame = 45;
  const std::string dom = chromium("frame=" + std::to_string(frame),
                                   "--dump-dom --screenshot=" + (dir_ / "shot.png").string(), 500);
  EXPECT_EQ(status_value(dom, "errors"), 0.0);
  EXPECT_EQ(status_value(dom, "frame"), double(frame));
  const test::PngPixels shot((dir_ / "shot.png").string());
  ASSERT_TRUE(shot.ok());
  // Rows with a long run of the static colour are the ground's (the legend's swatch of that
  // colour is 10 pixels wide).
  int x0 = shot.width(), x1 = -1, y0 = shot.height(), y1 = -1;
  for (int y = 0; y < shot.height(); ++y) {
    int first = -1, last = -1, count = 0;
    for (int x = 0; x < shot.width(); ++x) {
      if (!test::near(shot.at(x, y), view::state_colour(BodyDrawState::Static), 0)) continue;
      first = first < 0 ? x : first, last = x, ++count;
    }
    if (count < 100) continue;
    x0 = std::min(x0, first), x1 = std::max(x1, last), y0 = std::min(y0, y), y1 = std::max(y1, y);
  }
  ASSERT_GT(x1, x0) << "no ground in the screenshot";
  // The fill lies inside a one-pixel outline, so each extent is short by about two pixels.
  const double scale = (x1 - x0 + 2) / 20.0;
  EXPECT_NEAR((y1 - y0 + 2) / 2.0, scale, 1.5);  // square pixels: the ground is 10 x 1 m
  EXPECT_GT(scale, 15.0);                        // the scene fills the view
  auto pixel = [&](Vec2 p) {
    return shot.at(int(std::lround(x0 - 1 + scale * (p.x + 10))),
                   int(std::lround(y0 - 1 - scale * p.y)));
  };
  const record::Frame& f = rec.frames[frame];
  const BodyDrawState want[4] = {BodyDrawState::Static, BodyDrawState::Asleep,
                                 BodyDrawState::Kinematic, BodyDrawState::Awake};
  ASSERT_EQ(f.bodies.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(f.states[i], want[i]) << "body " << i;
    const view::Rgb seen = pixel(f.poses[i].position);
    EXPECT_TRUE(test::near(seen, view::state_colour(want[i])))
        << "body " << i << " at (" << f.poses[i].position.x << ", " << f.poses[i].position.y
        << ") is drawn " << test::text_of(seen);
  }
  const Vec2 ball = f.poses[3].position;
  EXPECT_NEAR(ball.y, 8.0f - 0.5f * 10.0f * 0.75f * 0.75f, 0.05f);  // free fall, 5 cm
  EXPECT_TRUE(test::near(pixel(ball + Vec2{1.3f, 0}), view::kBackground));
  EXPECT_TRUE(test::near(pixel(ball + Vec2{0, 1.3f}), view::kBackground));
  EXPECT_TRUE(
      test::near(pixel(ball + Vec2{0.6f, -0.4f}), view::state_colour(BodyDrawState::Awake)));
  // The paddle (3 x 1 m) has turned 0.75 rad: a point 1.2 m along its long axis is inside it,
  // the same distance across it is outside.
  const Vec2 paddle = f.poses[2].position;
  const Rot q = make_rot(f.poses[2].angle);
  EXPECT_NEAR(f.poses[2].angle, 0.75f, 1e-3f);
  EXPECT_TRUE(test::near(pixel(paddle + rotate(q, {1.2f, 0})),
                         view::state_colour(BodyDrawState::Kinematic)));
  EXPECT_TRUE(test::near(pixel(paddle + rotate(q, {0, 1.2f})), view::kBackground));
}

TEST_F(ViewerBrowser, ViewRefusesABadRecording) {
  std::ofstream(dir_ / "bad.rec") << "not a recording";
  const std::string err = (dir_ / "err.txt").string();
  EXPECT_EQ(test::exit_status(kStrut + " view " + (dir_ / "bad.rec").string() + " -o " +
                              (dir_ / "page.html").string() + " 2>" + err),
            2);
  EXPECT_EQ(test::read_file(err), (dir_ / "bad.rec").string() +
                                      ": header: expected a map, got an integer\n");  // 'n' is 0x6e
}

}  // namespace
}  // namespace strut
