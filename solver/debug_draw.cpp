// World::draw: walks the body, joint and contact arrays and reports them to a DebugDraw.
#include "strut/debug_draw.hpp"

#include <algorithm>
#include <vector>

#include "solver/contacts/contact_solver.hpp"
#include "solver/joints/joint_solver.hpp"
#include "solver/world_state.hpp"

namespace strut {
namespace {

bool overlaps(const Aabb& a, const Aabb& b) {
  return a.lower.x <= b.upper.x && b.lower.x <= a.upper.x && a.lower.y <= b.upper.y &&
         b.lower.y <= a.upper.y;
}

Aabb box_of_points(std::span<const Vec2> points, float radius) {
  Aabb box{points[0], points[0]};
  for (const Vec2 p : points) {
    box.lower = {std::min(box.lower.x, p.x), std::min(box.lower.y, p.y)};
    box.upper = {std::max(box.upper.x, p.x), std::max(box.upper.y, p.y)};
  }
  box.lower -= Vec2{radius, radius};
  box.upper += Vec2{radius, radius};
  return box;
}

BodyDrawState draw_state(std::uint8_t flags) {
  if (flags & kStatic) return BodyDrawState::Static;
  if (flags & kKinematic) return BodyDrawState::Kinematic;
  if (flags & kSleeping) return BodyDrawState::Asleep;
  return BodyDrawState::Awake;
}

BodyId live_body_of_slot(const WorldState& w, std::uint32_t slot) {
  if (slot >= w.bodies.slots.size() || !w.bodies.slots[slot].alive) return {};
  return w.bodies.slots.id_of<BodyId>(slot);
}

void draw_bodies(const World& world, const WorldState& w, DebugDraw& dd) {
  const BodyArrays& b = w.bodies;
  const ColliderArrays& c = w.colliders;
  std::vector<Vec2> vertices;
  for (std::uint32_t k = 0; k < b.size(); ++k) {
    if (b.flags[k] & kDead) continue;
    const Aabb box = b.aabb[k];
    if (dd.cull_to_view && !overlaps(box, dd.view)) continue;
    const Vec2 center{b.px[k], b.py[k]};
    DrawBody body;
    body.id = w.bodies.id_of_dense(k);
    body.state = draw_state(b.flags[k]);
    body.transform = {center, angle_of(Rot{b.qc[k], b.qs[k]})};
    body.velocity = world.linear_velocity(body.id);
    body.angular_velocity = world.angular_velocity(body.id);
    if (body.state == BodyDrawState::Awake || body.state == BodyDrawState::Asleep)
      body.island = live_body_of_slot(w, b.island[k]);
    if (dd.flags & kDrawShapes) {
      // One call per collider: a compound body draws each shape, a chain each link.
      for (std::uint32_t i = b.collider_begin[k]; i < b.collider_begin[k] + b.collider_count[k];
           ++i) {
        const std::uint32_t p0 = b.particle_begin[k] + c.vertex_begin[i];
        vertices.clear();
        for (std::uint32_t v = 0; v < c.count[i]; ++v)
          vertices.push_back({w.particles.x[p0 + v], w.particles.y[p0 + v]});
        switch (c.kind[i]) {
          case collide::ColliderKind::Circle:
            dd.draw_circle(body, vertices[0], c.radius[i]);
            break;
          case collide::ColliderKind::Capsule:
            if (c.radius[i] > 0)
              dd.draw_capsule(body, vertices[0], vertices[1], c.radius[i]);
            else
              dd.draw_segment(body, vertices[0], vertices[1]);
            break;
          case collide::ColliderKind::ChainSegment:
            dd.draw_segment(body, vertices[0], vertices[1]);
            break;
          case collide::ColliderKind::Polygon:
            dd.draw_polygon(body, vertices, c.radius[i]);
            break;
        }
      }
    }
    if (dd.flags & kDrawAabbs) dd.draw_aabb(body, box);
  }
}

// Joints are reported by their two bodies and world anchors only, which every joint type has.
void draw_joints(const WorldState& w, DebugDraw& dd) {
  for (const Joint& j : w.joints.dense) {
    if (j.dead) continue;
    const std::uint32_t ka = w.bodies.slots[j.slot_a].dense, kb = w.bodies.slots[j.slot_b].dense;
    DrawJoint d;
    d.id = w.joints.slots.id_of<JointId>(j.slot);
    d.type = j.type;
    d.a = w.bodies.id_of_dense(ka);
    d.b = w.bodies.id_of_dense(kb);
    d.center_a = {w.bodies.px[ka], w.bodies.py[ka]};
    d.center_b = {w.bodies.px[kb], w.bodies.py[kb]};
    d.anchor_a = point_now(w, anchor_ref(w, ka, j.anchor_a));
    d.anchor_b = point_now(w, anchor_ref(w, kb, j.anchor_b));
    const Vec2 ends[2] = {d.anchor_a, d.anchor_b};
    if (dd.cull_to_view && !overlaps(box_of_points(ends, 0.0f), dd.view)) continue;
    dd.draw_joint(d);
  }
}

void draw_contacts(const WorldState& w, DebugDraw& dd) {
  for (const ContactPoint& cp : w.contacts.points) {
    if ((w.bodies.flags[cp.body_v] | w.bodies.flags[cp.body_o]) & kDead) continue;
    const ContactGeometry g = evaluate_contact(w, cp);
    DrawContact c;
    c.a = w.bodies.id_of_dense(cp.body_o);
    c.b = w.bodies.id_of_dense(cp.body_v);
    c.point = point_now(w, g.v);
    c.normal = g.n;
    c.separation = g.c;
    if (dd.cull_to_view && !overlaps(Aabb{c.point, c.point}, dd.view)) continue;
    dd.draw_contact(c);
  }
}

}  // namespace

void World::draw(DebugDraw& dd) const {
  const WorldState& w = *state_;
  if (dd.flags & (kDrawShapes | kDrawAabbs)) draw_bodies(*this, w, dd);
  if (dd.flags & kDrawJoints) draw_joints(w, dd);
  if (dd.flags & kDrawContacts) draw_contacts(w, dd);
}

}  // namespace strut
