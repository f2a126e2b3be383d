// `strut render` as a user runs it: PNG frames whose pixels match the scene's geometry and
// motion (free fall, a kinematic body's turn), the same picture from a scene and from its
// recording, and bad requests refused.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "png_pixels.hpp"
#include "state_scene.hpp"
#include "strut/debug_draw.hpp"
#include "test_util.hpp"
#include "tools/view/palette.hpp"

namespace strut {
namespace {

namespace fs = std::filesystem;

const std::string kStrut = std::string(STRUT_BINARY_DIR) + "/strut";

class Render : public ::testing::Test {
 protected:
  void SetUp() override {
    // One directory per test: ctest runs the tests of a fixture at the same time.
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) / (std::string("strut_render_test_") + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "scene.json") << test::kStateScene;
  }
  void TearDown() override { fs::remove_all(dir_); }
  int strut(const std::string& args) {
    const std::string cmd =
        "cd " + dir_.string() + " && " + kStrut + " " + args + " >out.txt 2>err.txt";
    return test::exit_status(cmd);
  }
  fs::path dir_;
};

// The view -10..10 x -5..10 m in 400 x 300 pixels: 20 pixels a metre, (0, 2.5) at the centre.
constexpr const char* kView = "--view -10,-5,10,10 --size 400x300";
view::Rgb pixel(const test::PngPixels& png, Vec2 p) {
  return png.at(int(std::floor(200 + 20 * p.x)), int(std::floor(150 - 20 * (p.y - 2.5f))));
}

TEST_F(Render, FramesShowTheBodiesWhereThePhysicsPutsThem) {
  ASSERT_EQ(strut(std::string("render scene.json --steps 0,30 -o shot ") + kView), 0)
      << test::read_file(dir_ / "err.txt");
  EXPECT_EQ(test::read_file(dir_ / "out.txt"), "shot-0.png\nshot-30.png\n");
  const test::PngPixels first((dir_ / "shot-0.png").string());
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first.width(), 400);
  EXPECT_EQ(first.height(), 300);
  using S = BodyDrawState;
  EXPECT_TRUE(test::near(pixel(first, {0, -1}), view::state_colour(S::Static), 0));
  EXPECT_TRUE(test::near(pixel(first, {9.5f, -1.5f}), view::state_colour(S::Static), 0));
  EXPECT_TRUE(test::near(pixel(first, {-5, 1}), view::state_colour(S::Awake), 0));
  EXPECT_TRUE(test::near(pixel(first, {5, 4}), view::state_colour(S::Kinematic), 0));
  EXPECT_TRUE(test::near(pixel(first, {0.5f, 7.5f}), view::state_colour(S::Awake), 0));
  EXPECT_TRUE(test::near(pixel(first, {0, 3}), view::kBackground, 0));      // between the bodies
  EXPECT_TRUE(test::near(pixel(first, {0, 0.3f}), view::kBackground, 0));   // above the ground
  EXPECT_TRUE(test::near(pixel(first, {-7.5f, 1}), view::kBackground, 0));  // beside the crate

  // Half a second later: the ball has fallen g t^2 / 2 = 1.25 m (to 6.75) and the paddle has
  // turned 0.5 rad. Points 0.7 m inside the ball's new rim are ball, the old centre (1.25 m
  // above the new one) is not; the paddle's tip 1.3 m along its turned axis is paddle.
  const test::PngPixels later((dir_ / "shot-30.png").string());
  ASSERT_TRUE(later.ok());
  const Vec2 ball{0, 6.75f};
  EXPECT_TRUE(test::near(pixel(later, ball + Vec2{0.3f, -0.6f}), view::state_colour(S::Awake), 0));
  EXPECT_TRUE(test::near(pixel(later, ball + Vec2{0.3f, 0.6f}), view::state_colour(S::Awake), 0));
  EXPECT_TRUE(test::near(pixel(later, {0, 8}), view::kBackground, 0));
  const Rot q = make_rot(0.5f);
  EXPECT_TRUE(test::near(pixel(later, Vec2{5, 4} + rotate(q, {1.3f, 0})),
                         view::state_colour(S::Kinematic), 0));
  EXPECT_TRUE(test::near(pixel(later, Vec2{5, 4} + rotate(q, {0, 0.8f})), view::kBackground, 0));
}

TEST_F(Render, ARecordingRendersTheSamePictureAsItsScene) {
  ASSERT_EQ(strut("run scene.json --steps 40 --quiet --record run.rec --record-every 10"), 0);
  ASSERT_EQ(strut(std::string("render run.rec --steps 20,40 -o rec ") + kView), 0)
      << test::read_file(dir_ / "err.txt");
  ASSERT_EQ(strut(std::string("render scene.json --steps 20,40 -o scene ") + kView), 0);
  for (const char* step : {"20", "40"}) {
    const std::string from_recording =
        test::read_file(dir_ / (std::string("rec-") + step + ".png"));
    EXPECT_FALSE(from_recording.empty());
    EXPECT_EQ(from_recording, test::read_file(dir_ / (std::string("scene-") + step + ".png")))
        << step;
  }
  // Step 25 was not recorded (every 10th step was).
  EXPECT_EQ(strut("render run.rec --steps 25"), 2);
  EXPECT_EQ(test::read_file(dir_ / "err.txt"),
            "strut: --steps: run.rec has no frame at step 25 (its frames are 0 to 40, every 10 "
            "steps)\n");
  EXPECT_EQ(strut("render run.rec --size 10x10"), 2);
  EXPECT_EQ(test::read_file(dir_ / "err.txt"),
            "strut: --size: expected WxH, each 16 to 8192 pixels, got '10x10'\n");
  EXPECT_EQ(strut("render run.rec --contacts"), 2);
  EXPECT_EQ(test::read_file(dir_ / "err.txt"),
            "strut: --contacts: run.rec was recorded without --record-contacts\n");
}

}  // namespace
}  // namespace strut
