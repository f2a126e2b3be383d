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

// One box of the kernel, in place (lower x, lower y, upper x, upper y): swept by (sweep_x,
// sweep_y), grown by spread + half_slop on every side. The scalar kernel and a single collider's
// broad-phase box (collider_broadphase_box) both call it, so they give the same bits.
inline void sweep_box(float box[4], float sweep_x, float sweep_y, float spread, float half_slop) {
  const float grow = half_slop + spread;
  box[0] -= grow + (sweep_x < 0.0f ? -sweep_x : 0.0f);
  box[1] -= grow + (sweep_y < 0.0f ? -sweep_y : 0.0f);
  box[2] += grow + (sweep_x > 0.0f ? sweep_x : 0.0f);
  box[3] += grow + (sweep_y > 0.0f ? sweep_y : 0.0f);
}

void fatten_bounds_scalar(const BoundsSpans& s, int begin, int end, float half_slop);
void fatten_bounds_simd(const BoundsSpans& s, int begin, int end, float half_slop);

}  // namespace strut
