// The per-kind entry points behind shape_table.cpp, one group per file of this folder. Validators
// take a field prefix ("shape." for a ShapeDef, "" for a body's own shape, whose messages name
// the bare field as they always have) and throw strut::Error "<prefix><field>: <problem>".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "solver/shapes/shape_ops.hpp"

namespace strut::shapes {

// Where a shape sits in its body: its definition's offset and angle.
struct Placement {
  Vec2 offset;
  Rot rot{1.0f, 0.0f};
  bool identity = true;  // offset 0 and angle 0: vertices are copied bit for bit
  Vec2 apply(Vec2 v) const { return identity ? v : offset + rotate(rot, v); }
};
Placement placement_of(const ShapeDef& def);

// circle.cpp
void validate_circle(const CircleShape& s, const std::string& prefix);
LocalCollider circle_collider(const CircleShape& s, const Placement& at);
MassData circle_mass(const LocalCollider& c, float density);
bool circle_contains(const collide::ShapeView& s, Vec2 p);
std::optional<RayResult> circle_ray_cast(const collide::ShapeView& s, Vec2 from, Vec2 to);

// capsule.cpp: capsules and segments (a segment is a capsule of radius 0 with no mass).
void validate_capsule(const CapsuleShape& s, const std::string& prefix);
void validate_segment(const SegmentShape& s, const std::string& prefix);
LocalCollider capsule_collider(const CapsuleShape& s, const Placement& at);
LocalCollider segment_collider(const SegmentShape& s, const Placement& at);
MassData capsule_mass(const LocalCollider& c, float density);
bool capsule_contains(const collide::ShapeView& s, Vec2 p);
std::optional<RayResult> capsule_ray_cast(const collide::ShapeView& s, Vec2 from, Vec2 to);

// polygon.cpp: boxes and convex polygons, rounded by their radius.
void validate_box(const BoxShape& s, const std::string& prefix);
void validate_polygon(const PolygonShape& s, const std::string& prefix);
LocalCollider box_collider(const BoxShape& s, const Placement& at);
LocalCollider polygon_collider(const PolygonShape& s, const Placement& at);
// Area of the rounded polygon (core plus its ring of width radius), for the mass limits.
double rounded_polygon_area(const LocalCollider& c);
MassData polygon_mass_of(const LocalCollider& c, float density);
bool polygon_contains_point(const collide::ShapeView& s, Vec2 p);
std::optional<RayResult> polygon_ray_cast(const collide::ShapeView& s, Vec2 from, Vec2 to);

// chain.cpp: one ChainSegment collider per link, with the neighbouring points as ghosts.
void validate_chain(const ChainShape& s, const std::string& prefix);
void chain_colliders(const ChainShape& s, const Placement& at, std::vector<LocalCollider>& out);

// rounded_queries.cpp: point test and ray cast of any vertex set (1..16 points, convex and
// counter-clockwise when 3 or more) grown by its radius, i.e. the Minkowski sum with a disc.
bool rounded_contains(const collide::ShapeView& s, Vec2 p);
std::optional<RayResult> rounded_ray_cast(const collide::ShapeView& s, Vec2 from, Vec2 to);
// The point of segment a-b nearest p, and its distance from p.
Vec2 point_segment_nearest(Vec2 p, Vec2 a, Vec2 b);
float point_segment_distance(Vec2 p, Vec2 a, Vec2 b);

}  // namespace strut::shapes
