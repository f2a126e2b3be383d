// The Python module strut._strut (python/strut/__init__.py re-exports it): scenes loaded and
// stepped as `strut run` does, state as NumPy arrays in scene order, batches of worlds stepped
// side by side. The GIL is released while strut steps. Each concept is a file of python/src/.
#include "python/src/bindings.hpp"
#include "python/src/world.hpp"

PYBIND11_MODULE(_strut, m) {
  using namespace strut::python;
  m.doc() =
      "strut, a 2D physics engine: scenes, worlds stepped as `strut run` steps them, state as "
      "NumPy arrays";
  // strut::Error (and SceneError, derived from it) as strut.Error, a ValueError.
  py::register_exception<strut::Error>(m, "Error", PyExc_ValueError);
  py::class_<PyWorld> world(
      m, "World",
      "A world, from a scene or built from Python; bodies and joints are in order of creation.");
  def_world_state(m, world);
  def_world_queries(world);
  def_world_events(world);
  def_world_building(world);
  def_world_contacts(world);
  def_world_bodies(world);
  def_fixed_step_driver(m);
  def_world_batch(m);
  def_lander_env(m);
  def_geometry(m);
}
