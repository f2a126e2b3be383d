// strut.FixedStepDriver: FixedStepDriver's loop over a World's own steps (its step hook and its
// events included): real elapsed time in, whole steps of the world's dt out, at most max_steps a
// call (a backlog beyond them is dropped, as the C++ driver drops it), and the interpolation
// factor between the last two poses.
#include "python/src/bindings.hpp"
#include "python/src/world.hpp"
#include "solver/shapes/shape_checks.hpp"

namespace strut::python {
namespace {

class PyFixedStepDriver {
 public:
  PyFixedStepDriver(py::object world, std::optional<float> dt, int max_steps)
      : owner_(std::move(world)),
        world_(owner_.cast<PyWorld*>()),
        clock_(dt.value_or(world_->dt()), max_steps) {
    if (clock_.dt() != world_->dt())
      throw Error("FixedStepDriver: dt " + shapes::number_text(clock_.dt()) +
                  " is not the world's " + shapes::number_text(world_->dt()) +
                  " (World.dt): the driver runs the world's own steps");
  }

  // The steps the clock makes due, run as World.step runs them; returns how many.
  int advance(float elapsed) {
    steps_last_ = clock_.take_due_steps(elapsed);
    world_->step(steps_last_);
    return steps_last_;
  }
  float alpha() const { return clock_.alpha(); }
  int steps_last_advance() const { return steps_last_; }
  float dt() const { return clock_.dt(); }
  py::tuple interpolated_poses() const { return world_->interpolated_poses(clock_.alpha()); }

 private:
  py::object owner_;  // keeps the world alive as long as the driver
  PyWorld* world_;
  StepClock clock_;
  int steps_last_ = 0;
};

}  // namespace

void def_fixed_step_driver(py::module_& m) {
  py::class_<PyFixedStepDriver>(
      m, "FixedStepDriver",
      "The fixed-step game loop (strut::FixedStepDriver) over a World: advance(elapsed) runs "
      "the whole steps of the world's dt that the elapsed time has made due, at most max_steps "
      "a call (the rest of a backlog is dropped), and leaves alpha, the fraction of a step "
      "left over, for interpolated poses.")
      .def(py::init<py::object, std::optional<float>, int>(), py::arg("world"),
           py::arg("dt") = py::none(), py::arg("max_steps") = 5,
           "dt: the world's dt (World.dt; another is refused, the steps are the world's).")
      .def("advance", &PyFixedStepDriver::advance, py::arg("elapsed"),
           "Adds `elapsed` seconds and runs the steps due (the GIL released); returns how many. "
           "World.events() then gives their events.")
      .def_property_readonly("alpha", &PyFixedStepDriver::alpha,
                             "The time left over after the last advance, in steps (0 to 1).")
      .def_property_readonly("steps_last_advance", &PyFixedStepDriver::steps_last_advance)
      .def_property_readonly("dt", &PyFixedStepDriver::dt)
      .def("interpolated_poses", &PyFixedStepDriver::interpolated_poses,
           "World.interpolated_poses(alpha): (positions (n, 2), angles (n,)) for drawing "
           "between the last two steps.");
}

}  // namespace strut::python
