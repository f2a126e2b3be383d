// The robustness suite: the field's stress cases (Box2D's robustness samples, tall and tilted
// stacks, mass ratios, energy, joints at their limits), each a scene and one figure measured
// from how its bodies move. A figure is measured through Engine, which reads nothing but poses,
// velocities and joint coordinates, so a probe outside the project can measure the same figure
// for another engine stepping the same scene (README, "Robustness").
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "strut/scene.hpp"

namespace strut::robustness {

// A running engine as the figures read it. Bodies and joints are numbered in scene order.
class Engine {
 public:
  virtual ~Engine() = default;
  virtual void step() = 0;  // one step of the scene's dt with its substeps
  virtual int body_count() const = 0;
  virtual Vec2 position(int body) const = 0;  // centre of mass
  virtual float angle(int body) const = 0;
  virtual Vec2 velocity(int body) const = 0;  // of the centre of mass
  virtual float angular_velocity(int body) const = 0;
  virtual float mass(int body) const = 0;
  virtual float inertia(int body) const = 0;  // about the centre of mass
  virtual bool sleeping(int body) const = 0;
  // Revolute: b's angle relative to a's, 0 at load; prismatic: b's translation along the axis.
  virtual float joint_coordinate(int joint) const = 0;
};

struct Case {
  // The case's name; its scene (its setup, where it comes from, in its description) is the file
  // scenes/robustness/<scene().source>.json, which cases measuring one scene two ways share.
  std::string name;
  std::string figure;  // what is measured, with its unit
  double limit = 0;    // passes when the figure is at most this (or at least, if !at_most)
  bool at_most = true;
  std::string why;  // the tolerance against physics
  std::function<Scene()> scene;
  std::function<double(Engine&)> measure;  // steps the engine and returns the figure
  // Open: strut does not meet the limit yet. The test then holds the figure to `open_bound`
  // (today's figure with a margin, on the limit's side), so it cannot get worse unnoticed, and
  // the table marks the case open.
  bool open = false;
  double open_bound = 0;
  // The figure is about falling asleep (a time to sleep): it means nothing with sleep off.
  bool measures_sleep = false;
};

std::vector<Case> cases();

// The case's scene, with sleep forced off if asked (`strut robustness --no-sleep`): the figures
// of rest then show real rest, not sleep hiding a creep.
inline Scene scene_of(const Case& c, bool sleep_off) {
  Scene s = c.scene();
  if (sleep_off) s.config.enable_sleep = false;
  return s;
}
// Whether forcing sleep off changes the case: its scene sleeps and its figure is not about sleep.
inline bool differs_without_sleep(const Case& c) {
  return !c.measures_sleep && c.scene().config.enable_sleep;
}

// strut stepping a built scene (one thread unless told).
std::unique_ptr<Engine> strut_engine(const Scene& scene, int threads = 1);

inline bool passes(const Case& c, double figure) {
  return c.at_most ? figure <= c.limit : figure >= c.limit;
}
// What the test requires: the limit, or for an open case its bound.
inline bool holds(const Case& c, double figure) {
  const double bound = c.open ? c.open_bound : c.limit;
  return c.at_most ? figure <= bound : figure >= bound;
}

}  // namespace strut::robustness
