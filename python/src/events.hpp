// The rows of World.events()' structured arrays (PYBIND11_NUMPY_DTYPE gives their dtypes), kept
// for every step of the last step(n): `step` is the world's step count before that step (0 for
// its first), bodies and joints their scene indices, shapes their index on their body (-1: removed
// since).
#pragma once

#include <cstdint>
#include <vector>

namespace strut::python {

struct ContactRecord {
  std::int32_t step, a, b, shape_a, shape_b;
  float normal[2];
  std::int32_t point_count;
  float points[2][2];
};
struct HitRecord {
  std::int32_t step, a, b;
  float point[2], normal[2];
  float approach_speed;
};
struct SensorRecord {
  std::int32_t step, sensor, visitor, sensor_shape, visitor_shape;
};
struct JointRecord {
  std::int32_t step, joint;
  float force[2];
  float torque;
};

struct EventLog {
  std::vector<ContactRecord> contact_begin, contact_end;
  std::vector<HitRecord> contact_hit;
  std::vector<SensorRecord> sensor_begin, sensor_end;
  std::vector<JointRecord> joint;
  void clear() {
    contact_begin.clear(), contact_end.clear(), contact_hit.clear();
    sensor_begin.clear(), sensor_end.clear(), joint.clear();
  }
};

}  // namespace strut::python
