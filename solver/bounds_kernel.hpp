// The bounds kernel of the collide phase: every body's tight box swept along its displacement
// this step, grown on every side by the rest of its motion (turning, gravity) and half the
// contact slop, so two boxes overlap whenever the bodies may touch this step. SoA in, SoA out;
// the xsimd version must match the scalar one bit for bit.
#pragma once

namespace strut {

struct BoundsSpans {
  const float* lx;  // tight boxes
  const float* ly;
  const float* ux;
  const float* uy;
  const float* sweep_x;  // displacement this step
  const float* sweep_y;
  const float* spread;  // motion that may go any way
  float* out_lx;        // fattened boxes
  float* out_ly;
  float* out_ux;
  float* out_uy;
};

void fatten_bounds_scalar(const BoundsSpans& s, int begin, int end, float half_slop);
void fatten_bounds_simd(const BoundsSpans& s, int begin, int end, float half_slop);

}  // namespace strut
