// The module's parts, each registered by its file into strut._strut (module.cpp).
#pragma once

#include "python/src/convert.hpp"

namespace strut::python {

class PyWorld;

void def_world_state(py::module_& m, py::class_<PyWorld>& world);  // world.cpp
void def_world_queries(py::class_<PyWorld>& world);                // queries.cpp
void def_world_events(py::class_<PyWorld>& world);                 // events.cpp
void def_world_building(py::class_<PyWorld>& world);               // world_build.cpp
void def_world_contacts(py::class_<PyWorld>& world);               // contacts.cpp
void def_world_bodies(py::class_<PyWorld>& world);                 // bodies.cpp
void def_fixed_step_driver(py::module_& m);                        // driver.cpp
void def_world_batch(py::module_& m);                              // batch.cpp
void def_lander_env(py::module_& m);                               // lander_env.cpp
void def_geometry(py::module_& m);                                 // geometry.cpp

}  // namespace strut::python
