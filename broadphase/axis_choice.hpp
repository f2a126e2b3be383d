// Chooses the sweep axis (x or y) from the spread of the moving boxes' centres relative to
// their size: a sweep along axis a scans about n * extent_a / spread_a candidates per box.
//
// The broad phase's output order depends on the axis, so the choice must be a pure function of
// the current boxes: the sample is a fixed subset of keys (by a hash of the key), and the
// statistics are summed exactly, in fixed-point integers, so the order in which boxes are
// visited (last step's sweep order) cannot change a rounding and tip a close decision. For the
// same reason there is no hysteresis; instead x is kept unless y is clearly better.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace strut::broadphase {

class AxisChoice {
 public:
  // About this many boxes are sampled.
  static constexpr std::size_t kSamples = 256;
  // y only when its spread / extent is 1.25x that of x (1.5625x in squares). Square-ish
  // scenes then stay on x instead of flipping (an axis change costs a radix sort).
  static constexpr double kBias = 1.5625;

  // Starts a new choice among `population` boxes.
  explicit AxisChoice(std::size_t population) : rate_bits_(std::bit_width(population / kSamples)) {}

  // Whether the box with this key belongs to the sample: its Fibonacci hash has the top
  // rate_bits_ bits clear.
  bool sampled(std::uint32_t key) const {
    return rate_bits_ == 0 || ((key * 0x9E3779B1u) >> (32 - rate_bits_)) == 0;
  }

  void add(float min_x, float min_y, float max_x, float max_y) {
    const std::int64_t lx = fixed(min_x), ux = fixed(max_x);
    const std::int64_t ly = fixed(min_y), uy = fixed(max_y);
    const std::int64_t cx = lx + ux, cy = ly + uy;  // twice the centre
    ++count_;
    sum_cx_ += cx;
    sum_cy_ += cy;
    sum_cx2_ += Int128{cx} * cx;
    sum_cy2_ += Int128{cy} * cy;
    sum_ex_ += ux - lx;
    sum_ey_ += uy - ly;
  }

  // Mean extent of the sampled boxes along `axis` (0 = x, 1 = y), or 0 without samples.
  double mean_extent(int axis) const {
    if (count_ == 0) return 0.0;
    return static_cast<double>(axis == 0 ? sum_ex_ : sum_ey_) /
           (1024.0 * static_cast<double>(count_));
  }

  // Standard deviation of the sampled boxes' centres along `axis`, or 0 without samples.
  double centre_stddev(int axis) const {
    if (count_ == 0) return 0.0;
    const Int128 sum = axis == 0 ? sum_cx_ : sum_cy_;
    const Int128 sum2 = axis == 0 ? sum_cx2_ : sum_cy2_;
    const auto var = static_cast<double>(Int128{count_} * sum2 - sum * sum);  // count^2 var(2c)
    return std::sqrt(std::max(var, 0.0)) / (2048.0 * static_cast<double>(count_));
  }

  // 0 = x, 1 = y, or -1 without samples.
  int axis() const {
    if (count_ == 0) return -1;
    // count^2 * variance, exactly; then var_y / ey^2 > bias * var_x / ex^2, cross-multiplied
    // so that zero extents need no special case.
    const auto var_x = static_cast<double>(Int128{count_} * sum_cx2_ - Int128{sum_cx_} * sum_cx_);
    const auto var_y = static_cast<double>(Int128{count_} * sum_cy2_ - Int128{sum_cy_} * sum_cy_);
    const auto ex = static_cast<double>(sum_ex_), ey = static_cast<double>(sum_ey_);
    return var_y * (ex * ex) > kBias * var_x * (ey * ey) ? 1 : 0;
  }

 private:
  __extension__ using Int128 = __int128;

  // 1/1024 units, clamped to +-2^40 (only the decision depends on it); NaN counts as 0.
  static std::int64_t fixed(float v) {
    const double d = static_cast<double>(v) * 1024.0;
    return d == d ? static_cast<std::int64_t>(std::clamp(d, -0x1p40, 0x1p40)) : 0;
  }

  int rate_bits_;
  std::int64_t count_ = 0, sum_cx_ = 0, sum_cy_ = 0, sum_ex_ = 0, sum_ey_ = 0;
  Int128 sum_cx2_ = 0, sum_cy2_ = 0;
};

}  // namespace strut::broadphase
