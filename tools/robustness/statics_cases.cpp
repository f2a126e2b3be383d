// Robustness cases whose answer statics decides: friction on a ramp (hold or slide, and how
// fast), stacks that lean (stand or topple by where their centre of mass is), Solver2D's
// vertical stack and circle stack. Every scene runs at the default settings (dt 1/60,
// 4 substeps, gravity (0, -10)) unless its description says otherwise.
#include <cmath>
#include <string>

#include "tools/robustness/case_building.hpp"

namespace strut::robustness {
namespace {

// --- friction on a ramp ------------------------------------------------------------------------

// The ramp rises at atan(1/2): a block stays where friction mu >= tan = 0.5 and otherwise slides
// with a = g (sin - mu cos). Friction mixes as the geometric mean, so on a ramp of friction 1 a
// block of friction f has mu = sqrt(f).
constexpr float kRampSin = 0.4472136f;  // 1 / sqrt(5)
constexpr float kRampCos = 0.8944272f;  // 2 / sqrt(5)
constexpr float kGripMu = 0.55f, kSlipMu = 0.45f;

Scene friction_ramp() {
  Scene s = base("friction_ramp",
                 "two unit blocks at rest on a static ramp rising at atan(1/2) (friction 1): one "
                 "of friction 0.3025 (mixed 0.55, it holds), one of 0.2025 (mixed 0.45, it "
                 "slides), sleep off (Solver2D's Friction Ramp, made exact)",
                 300, false);
  const float angle = std::atan2(kRampSin, kRampCos);
  const Vec2 along{kRampCos, kRampSin}, up{-kRampSin, kRampCos};
  BodyDef ramp = ground_box({0, 0}, {60, 0.5f});
  ramp.angle = angle;
  ramp.shapes[0].material.friction = 1.0f;
  add(s, ramp, "ramp");
  const auto block = [&](float at, float mu, const char* name) {
    BodyDef d = box(at * along + 1.0f * up, {0.5f, 0.5f});
    d.angle = angle;
    d.shapes[0].material.friction = mu * mu;
    add(s, d, name);
  };
  block(-30.0f, kGripMu, "holds");
  block(30.0f, kSlipMu, "slides");
  return s;
}

double distance_moved(Engine& e, int body, int steps) {
  const Vec2 start = e.position(body);
  for (int i = 0; i < steps; ++i) e.step();
  return double(length(e.position(body) - start));
}

// |travel / (a t^2 / 2) - 1| for the sliding block after `steps` steps.
double slide_error(Engine& e, int steps) {
  const double t = steps * double(kDt);
  const double a = 10.0 * (double(kRampSin) - double(kSlipMu) * double(kRampCos));
  return std::fabs(distance_moved(e, 2, steps) / (0.5 * a * t * t) - 1.0);
}

// --- leaning stacks ----------------------------------------------------------------------------

// Ten boxes each `step` to the right of the one below. The boxes above box k have their centre
// of mass (n + 1) step / 2 right of box k's centre (n of them): past the half width, they topple.
Scene tilted_stack(std::string name, std::string description, float half, float radius, float step,
                   float friction) {
  Scene s = base(std::move(name), std::move(description), 1200, false);
  add(s, ground_box({0, -1}, {100, 1}));
  for (int i = 0; i < 10; ++i) {
    BodyDef d;
    d.shapes = {
        ShapeDef{.shape = BoxShape{{half, half}, radius}, .material = {.friction = friction}}};
    d.center = {step * float(i), (half + radius) * float(2 * i + 1)};
    add(s, d);
  }
  return s;
}

Scene tilted_stack_stands() {
  return tilted_stack("tilted_stack",
                      "10 unit boxes, each 0.09 m right of the one below: the nine above the "
                      "bottom box have their centre of mass 0.45 m off its centre, inside its "
                      "0.5 m half width, so it stands; friction 0.3, sleep off",
                      0.5f, 0.0f, 0.09f, 0.3f);
}

Scene tilted_stack_topples() {
  return tilted_stack("tilted_stack_topples",
                      "Box2D's Tilted Stack (one column): 10 boxes rounded by 0.05 m (0.5 m half "
                      "width, 0.45 m flat), each 0.2 m right of the one below; the four above "
                      "box 5 have their centre of mass 0.5 m off its centre, past its flat top, "
                      "so the stack topples; friction 0.3, sleep off",
                      0.45f, 0.05f, 0.2f, 0.3f);
}

// --- Solver2D's stacks -------------------------------------------------------------------------

// Solver2D's Vertical Stack: 15 unit boxes (friction 0.3) dropped from 0.1 m gaps, alternately
// 0.01 m left and right.
Scene vertical_stack() {
  Scene s = base("vertical_stack",
                 "15 unit boxes (friction 0.3) 0.1 m apart, alternately 0.01 m left and right, "
                 "falling into a column (Solver2D's Vertical Stack), sleep off",
                 1200, false);
  add(s, ground_box({0, -1}, {100, 1}));
  for (int i = 0; i < 15; ++i) {
    BodyDef d = box({i % 2 == 0 ? -0.01f : 0.01f, 0.55f + 1.1f * float(i)}, {0.5f, 0.5f});
    d.shapes[0].material.friction = 0.3f;
    add(s, d);
  }
  return s;
}

// Solver2D's Circle Stack: 10 circles of radius 1 dropped 1 m apart onto the ground, on one
// vertical line.
Scene circle_stack() {
  Scene s = base("circle_stack",
                 "10 circles of radius 1 dropped one above the other with 1 m between them "
                 "(Solver2D's Circle Stack), sleep off",
                 600, false);
  add(s, ground_box({0, -1}, {40, 1}));
  for (int i = 0; i < 10; ++i) {
    BodyDef d;
    d.shapes = {ShapeDef{CircleShape{1.0f}}};
    d.center = {0, 4.0f + 3.0f * float(i)};
    add(s, d);
  }
  return s;
}

double largest_sideways(Engine& e, int steps, int first, int last) {
  double start[16] = {};
  for (int k = first; k < last; ++k) start[k - first] = e.position(k).x;
  return max_over(e, steps, [&] {
    double m = 0;
    for (int k = first; k < last; ++k)
      m = std::max(m, std::fabs(double(e.position(k).x) - start[k - first]));
    return m;
  });
}

}  // namespace

void add_statics_cases(std::vector<Case>& c) {
  c.push_back({"friction_ramp_hold", "distance the mu = 0.55 block moves in 5 s (m)", 0.01, true,
               "static friction 0.55 above the ramp's tangent 0.5 holds the block", friction_ramp,
               [](Engine& e) { return distance_moved(e, 1, 300); }});
  c.push_back({"friction_ramp_slide",
               "error of the mu = 0.45 block's travel in 2 s against g (sin - mu cos) t^2 / 2 "
               "(share)",
               0.02, true, "kinetic friction 0.45 below the tangent: it slides at a known rate",
               friction_ramp, [](Engine& e) { return slide_error(e, 120); }});
  // Open: the column stands, but its contacts' give leans it (the top sways to 0.42 m and
  // settles 0.13 m over by 15 s). Box2D v3 at 4 substeps topples (9.96 m).
  c.push_back({"tilted_stack", "largest sideways move of the top box in 20 s (m)", 0.02, true,
               "every box's load has its centre of mass over the box below: it stands",
               tilted_stack_stands, [](Engine& e) { return largest_sideways(e, 1200, 10, 11); },
               true, 0.5});
  c.push_back({"tilted_stack_topples", "height of the top box's centre after 20 s (m)", 5.0, true,
               "its top four overhang their support: the stack falls (from 9.5 m), friction "
               "cannot hold it",
               tilted_stack_topples, [](Engine& e) {
                 for (int i = 0; i < 1200; ++i) e.step();
                 return double(e.position(10).y);
               }});
  // Open: the landings sway the column (0.023 m, settling at 0.015 m). Box2D v3: 0.061 m.
  c.push_back({"vertical_stack", "largest sideways move of a box in 20 s (m)", 0.02, true,
               "dropped 0.1 m each into a column, the boxes stand where they land", vertical_stack,
               [](Engine& e) { return largest_sideways(e, 1200, 1, 16); }, true, 0.03});
  c.push_back({"circle_stack", "largest sideways move of a circle in 10 s (m)", 0.01, true,
               "on one vertical line every contact normal is vertical: nothing pushes sideways",
               circle_stack, [](Engine& e) { return largest_sideways(e, 600, 1, 11); }});
}

}  // namespace strut::robustness
