// The plain data joint rows are written with (joint_rows.hpp): a joint's two bodies with their
// inverse masses, and the gradient of one row. Apart from the arithmetic so that the step's
// stored rows (solver/joints/joint.hpp) can hold them.
#pragma once

#include <cstdint>

#include "strut/math.hpp"

namespace strut {

// The two bodies of a joint (dense indices) and their inverse masses (0 for static and
// kinematic bodies, which the rows never write: a colour's joints may share them).
// A mouse joint has no body a (has_a false, a == b, a's inverse masses 0).
struct JointBodies {
  std::uint32_t a = 0, b = 0;
  float ma = 0, mb = 0, ia = 0, ib = 0;
  bool has_a = true;
};

// Gradient of a row: with respect to a's pose (-n, ang_a), to b's pose (n, ang_b).
struct Row {
  Vec2 n;
  float ang_a = 0, ang_b = 0;
};

// A row held by a damped spring instead of rigidly (hertz > 0): its value c is pulled toward 0
// with stiffness m (2 pi hertz)^2 and damping 2 damping_ratio m (2 pi hertz), m the row's
// effective mass (as strut/joint.hpp's JointSpring). hertz 0: the row is rigid.
struct RowSpring {
  float hertz = 0, damping_ratio = 0;
  float c = 0;
};

// The linear impulse and the two bodies' angular impulses of impulses dl[i] along rows[i].
struct RowImpulse {
  Vec2 p;
  float ta = 0, tb = 0;
};
inline RowImpulse sum_rows(const Row* rows, const float* dl, int count) {
  RowImpulse r;
  for (int i = 0; i < count; ++i) {
    r.p += dl[i] * rows[i].n;
    r.ta += dl[i] * rows[i].ang_a;
    r.tb += dl[i] * rows[i].ang_b;
  }
  return r;
}

}  // namespace strut
