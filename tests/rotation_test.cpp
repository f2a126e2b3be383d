// angle_of (solver/core/rotation.hpp): the joints' angle of a rotation, against double-precision
// atan2, and at the axes and quadrant edges.
#include "solver/core/rotation.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace strut {
namespace {

TEST(Rotation, AngleOfMatchesDoubleAtan2Everywhere) {
  // Two million angles over the whole circle, as unit rotations and scaled (the joints pass
  // products of unit rotations, whose length is 1 to float rounding).
  double worst = 0;
  constexpr int kAngles = 1 << 20;
  for (int i = 0; i < kAngles; ++i) {
    const double angle = -M_PI + 2.0 * M_PI * (i + 0.5) / kAngles;
    for (const float scale : {1.0f, 3.7e-3f}) {
      const float c = float(std::cos(angle)) * scale, s = float(std::sin(angle)) * scale;
      const double exact = std::atan2(double(s), double(c));
      worst = std::max(worst, std::fabs(double(angle_of(c, s)) - exact));
    }
  }
  EXPECT_LT(worst, 3e-7) << "radians (a float ulp at pi is 2.4e-7)";
}

TEST(Rotation, AngleOfAtTheAxesAndTheEdges) {
  EXPECT_EQ(angle_of(1.0f, 0.0f), 0.0f);
  EXPECT_FLOAT_EQ(angle_of(0.0f, 1.0f), float(M_PI / 2));
  EXPECT_FLOAT_EQ(angle_of(0.0f, -1.0f), float(-M_PI / 2));
  EXPECT_FLOAT_EQ(angle_of(-1.0f, 0.0f), float(M_PI));  // (-pi, pi]: the half turn is +pi
  EXPECT_FLOAT_EQ(angle_of(1.0f, 1.0f), float(M_PI / 4));
  EXPECT_FLOAT_EQ(angle_of(-1.0f, -1.0f), float(-3 * M_PI / 4));
  // Just either side of the half turn: continuous up to the jump at pi.
  EXPECT_NEAR(angle_of(-1.0f, 1e-6f), M_PI - 1e-6, 1e-6);
  EXPECT_NEAR(angle_of(-1.0f, -1e-6f), -M_PI + 1e-6, 1e-6);
  EXPECT_EQ(angle_of(0.0f, 0.0f), 0.0f);  // no rotation to measure
}

}  // namespace
}  // namespace strut
