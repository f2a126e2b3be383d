// A ground, a crate that falls asleep on it, a kinematic paddle turning in the air and a
// ball falling from 8 m: one body of each state, far enough apart to tell apart. The pictures'
// tests (render_test.cpp, viewer_browser_test.cpp) draw it and look for each body.
#pragma once

namespace strut::test {

inline constexpr const char* kStateScene = R"({
  "world": {"gravity": [0, -10], "dt": 0.016666668, "substeps": 4},
  "bodies": [
    {"name": "ground", "shape": "box", "center": [0, -1], "half_extents": [10, 1], "static": true},
    {"name": "crate", "shape": "box", "center": [-5, 1], "half_extents": [1, 1]},
    {"name": "paddle", "shape": "box", "center": [5, 4], "half_extents": [1.5, 0.5],
     "kinematic": true, "angular_velocity": 1},
    {"name": "ball", "shape": "circle", "center": [0, 8], "radius": 1}
  ]
})";

}  // namespace strut::test
