// Small worlds as learning environments and sweeps build them, shared by the benchmarks
// (bench/bench_small_worlds.cpp) and the tests: a lander, a pile of 30 boxes, a cart-pole. The
// same worlds as ../shared/smallworlds' probe, so its figures and the benchmarks' agree.
#pragma once

#include <array>
#include <cmath>

#include "strut/world.hpp"

namespace strut::worlds {

// The lander's terrain height at chain point k (x = -10 + 2k, k = 0..10).
inline float terrain_y(int k) {
  return 1.0f + 0.8f * std::sin(1.7f * float(k)) + 0.4f * std::sin(0.6f * float(k) + 1.0f);
}

struct Lander {
  BodyId hull;
  std::array<BodyId, 2> legs;
  std::array<JointId, 2> hips;  // revolute, limited to +-0.4 rad, motored
};

// A hexagonal hull (density 5) on two box legs held by limited, motored revolute joints, 8 m
// over a bumpy chain terrain; copy i starts sliding sideways at 0.3 (i % 7 - 3) m/s.
inline Lander build_lander(World& w, int i) {
  BodyDef ground;
  ground.is_static = true;
  ChainShape chain;
  for (int k = 0; k < 11; ++k) chain.points.push_back({-10.0f + 2.0f * float(k), terrain_y(k)});
  ground.shapes = {ShapeDef{chain}};
  w.create_body(ground);
  Lander l;
  BodyDef hull;
  hull.center = {0, 8};
  hull.velocity = {0.3f * float(i % 7 - 3), 0};
  hull.shapes = {ShapeDef{
      .shape =
          PolygonShape{
              {{-0.9f, 0}, {-0.7f, -0.5f}, {0.7f, -0.5f}, {0.9f, 0}, {0.7f, 0.8f}, {-0.7f, 0.8f}}},
      .material = {.density = 5}}};
  l.hull = w.create_body(hull);
  for (int s = 0; s < 2; ++s) {
    const float side = s == 0 ? -1.0f : 1.0f;
    BodyDef leg;
    leg.center = {0.9f * side, 7.3f};
    leg.angle = 0.4f * side;
    leg.shapes = {ShapeDef{BoxShape{{0.1f, 0.4f}}}};
    leg.velocity = hull.velocity;
    l.legs[std::size_t(s)] = w.create_body(leg);
    RevoluteJointDef j;
    j.a = l.hull;
    j.b = l.legs[std::size_t(s)];
    j.anchor = {0.7f * side, 7.7f};
    j.limit = {true, -0.4f, 0.4f};
    j.motor = {true, 0.3f * side, 40.0f};
    l.hips[std::size_t(s)] = w.create_joint(j);
  }
  return l;
}

// The lander's engine: 120 N up for 30 steps, off for 30 (so it never sleeps).
inline Vec2 lander_thrust(int step) { return {0, (step / 30) % 2 == 0 ? 120.0f : 0.0f}; }

// 30 unit boxes in 5 rows of 6, dropped onto a 40 m ground box; copy i shifted 1 cm x (i % 5).
inline void build_pile30(World& w, int i) {
  BodyDef ground;
  ground.is_static = true;
  ground.shapes = {ShapeDef{BoxShape{{20, 1}}}};
  ground.center = {0, -1};
  w.create_body(ground);
  for (int k = 0; k < 30; ++k) {
    BodyDef b;
    b.shapes = {ShapeDef{BoxShape{{0.5f, 0.5f}}}};
    b.center = {-3.0f + 1.2f * float(k % 6) + 0.01f * float(i % 5), 1.0f + 1.2f * float(k / 6)};
    w.create_body(b);
  }
}

struct CartPole {
  BodyId cart, pole;
  JointId slider, hinge;
};

// A cart on a horizontal prismatic joint to a static anchor and a pole on a revolute joint,
// released 0.1 rad from upright: two bodies, two joints, no contacts.
inline CartPole build_cart_pole(World& w) {
  BodyDef anchor;
  anchor.is_static = true;
  anchor.shapes = {ShapeDef{BoxShape{{0.1f, 0.1f}}}};
  const BodyId rail = w.create_body(anchor);
  CartPole c;
  BodyDef cart;
  cart.shapes = {ShapeDef{BoxShape{{0.5f, 0.25f}}}};
  cart.center = {0, 1};
  c.cart = w.create_body(cart);
  BodyDef pole;
  pole.shapes = {ShapeDef{.shape = BoxShape{{0.05f, 0.5f}}, .material = {.density = 0.5f}}};
  pole.center = {0.05f, 1.5f};
  pole.angle = -0.1f;
  c.pole = w.create_body(pole);
  PrismaticJointDef slider;
  slider.a = rail;
  slider.b = c.cart;
  slider.anchor = {0, 1};
  slider.axis = {1, 0};
  slider.limit = {true, -2.4f, 2.4f};
  c.slider = w.create_joint(slider);
  RevoluteJointDef hinge;
  hinge.a = c.cart;
  hinge.b = c.pole;
  hinge.anchor = {0, 1};
  c.hinge = w.create_joint(hinge);
  return c;
}

}  // namespace strut::worlds
