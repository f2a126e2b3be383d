// The magnitudes strut accepts. Outside these ranges float arithmetic stops meaning physics:
// masses underflow to 0 or overflow to infinity, a step turns velocities into NaN, a body too
// small for the contact slop never settles. Every World call and the scene reader reject a value
// outside its range with strut::Error (scene files: exit 2), so whatever sequence of accepted
// calls a program makes, every body's state stays finite. docs/api.md states the same rule.
#pragma once

namespace strut::limits {

// Size of a shape: a box's half-extents, a circle's radius, and for a polygon the distance of
// every vertex from the body's `center` and the square root of its area.
inline constexpr float kMinSize = 1e-3f;  // m: 1 mm
inline constexpr float kMaxSize = 1e5f;   // m: 100 km
// Coordinates of centres, anchors and teleports. Positions are floats: at x the nearest other
// float is x / 2^23 away. A 3-box stack on a ground box, 10 s, sleep off, rests as at the origin
// up to 4,096 m (fastest point in the 10th second at most 0.008 m/s, below the sleep speed;
// boxes within 0.5 mm of their places at the origin) and jitters beyond it (0.11 m/s at 5 km,
// 0.12 at 10 km, 0.21 at 100 km, its boxes 1.5 cm off): from 4,096 m on, a position's step is
// 1 mm, coarser than the contacts' give. The limit stays below that, with room for a body's
// extent (tools/robustness, far_stack; docs/api.md).
inline constexpr float kMaxCoordinate = 4000.0f;  // m
// Mass of a dynamic body (density x area): below it the inverse mass and inertia lose their
// meaning, above it the inertia of a large body overflows.
inline constexpr float kMinMass = 1e-9f;  // kg
inline constexpr float kMaxMass = 1e15f;  // kg
// Speeds a body may be given, and that the integrator never exceeds: each component of the
// linear velocity is clamped to +-kMaxSpeed and the angular velocity to +-kMaxAngularSpeed in
// every substep (so no accepted input, force or contact can run away to infinity).
inline constexpr float kMaxSpeed = 1e4f;         // m/s
inline constexpr float kMaxAngularSpeed = 1e4f;  // rad/s (about 1,600 turns per second)
// Gravity and the acceleration any force gives a body (force / mass, torque / inertia).
inline constexpr float kMaxGravity = 1e4f;              // m/s^2, |gravity| per component
inline constexpr float kMaxGravityScale = 1e3f;         // |gravity_scale|
inline constexpr float kMaxAcceleration = 1e7f;         // m/s^2
inline constexpr float kMaxAngularAcceleration = 1e9f;  // rad/s^2
// World::step's dt, and the substep and iteration counts. Longer steps are not unstable but
// wrong: a resting box sinks into the ground by the contact softness of one substep, measured
// 1.7 cm at 0.1 s with one substep, and more the longer the step.
inline constexpr float kMinDt = 1e-5f;  // s
inline constexpr float kMaxDt = 0.1f;   // s
inline constexpr int kMaxSubsteps = 1000;
// Springs (joint springs, mouse joints, soft welds): a frequency of 0 (no spring) or from
// kMinHertz (a period of 1,000 s, no spring within any run) to kMaxHertz, and a damping ratio up
// to kMaxDampingRatio. Beyond them a soft row's 1 / (2 pi f h)^2 or its damping overflows a
// float and the row turns NaN (found by fuzz_api: 2.8e-29 Hz with a damping ratio of 3.7e22).
inline constexpr float kMinHertz = 1e-3f;
inline constexpr float kMaxHertz = 1e6f;
inline constexpr float kMaxDampingRatio = 1e3f;
inline constexpr int kMaxIterations = 100;
// XPBD compliance (m/N) of a soft body's struts and of a distance joint's length: 0 (rigid) up
// to kMaxCompliance. Beyond it compliance / h^2 overflows a float at short substeps and the
// constraint turns NaN (found by fuzz_api: a soft box of compliance 2.7e34 m/N, NaN in its first
// step). A metre of stretch per millinewton is softer than any use.
inline constexpr float kMaxCompliance = 1e3f;  // m/N
// Joint limits and motors (found by fuzz_api: revolute limits of [9.5e21, 1.7e22] rad and a motor
// speed of 1.1e22 rad/s were accepted, and the next correction turned both bodies into NaN).
// A revolute joint's angle is measured in (-pi, pi], so its limits lie within +-pi (beyond, a
// limit is never reached or always violated); translation limits (prismatic, wheel) obey the
// coordinate limit. Motor speeds obey the speed limits above (rad/s for revolute and wheel
// motors, m/s for prismatic ones).
inline constexpr float kMaxJointAngle = 3.14159274f;  // rad: float(pi), so +-pi is accepted
// A motor's maximum torque or force: 1e30 already means a motor that never gives, so larger
// values mean nothing more; the bound keeps effort x h^2 and the motor's readings far from
// overflow.
inline constexpr float kMaxMotorEffort = 1e30f;  // N m or N
// Threads a world, a batch or the CLI may be asked for (0 = all cores). Results are the same at
// any count, and a task system runs at most 8 a core (solver/core/task_system.hpp), so more only
// take turns at every stage's barrier and slow the step. 256 is 8 a core on a 32-core machine; a
// count beyond it is a mistake, refused rather than quietly cut.
inline constexpr int kMaxThreads = 256;

}  // namespace strut::limits
