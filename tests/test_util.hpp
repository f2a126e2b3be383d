// Small helpers shared by the tests.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "strut/world.hpp"

namespace strut::test {

// Runs fn and returns the strut::Error message it threw ("" and a test failure if none).
template <class F>
std::string error_of(F&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected strut::Error";
  return "";
}

inline BodyDef box_def(Vec2 center, Vec2 half = {0.5f, 0.5f}) {
  BodyDef d;
  d.shape = BoxShape{half};
  d.center = center;
  return d;
}

inline BodyDef ground_def(float half_width = 50.0f, float top = 0.0f) {
  BodyDef d;
  d.shape = BoxShape{{half_width, 1.0f}};
  d.center = {0.0f, top - 1.0f};
  d.is_static = true;
  return d;
}

}  // namespace strut::test
