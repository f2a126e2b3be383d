// Materials: density and surface properties, combined per contact by a mixing rule
// (by default friction: geometric mean; restitution: maximum).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strut {

// How a touching pair combines two coefficients a and b (Rapier's CoefficientCombineRule, Box2D
// v3's friction and restitution callbacks). Default is the classic rule: the geometric mean
// sqrt(a b) for friction (a frictionless surface makes the pair frictionless), the maximum for
// restitution (a ball bounces on any floor). When the two materials name different rules, the
// one listed later here wins (Max over Multiply over Min over Average over Default), so one
// material can impose its rule on every pair it is part of; Default yields to any other.
enum class MixRule : std::uint8_t {
  Default = 0,
  Average = 1,   // (a + b) / 2
  Min = 2,       // min(a, b)
  Multiply = 3,  // a b
  Max = 4,       // max(a, b)
};
inline constexpr int kMixRuleCount = 5;

struct Material {
  float density = 1.0f;   // kg / m^2
  float friction = 0.6f;  // dynamic (kinetic) Coulomb coefficient
  // Static Coulomb coefficient (>= friction in practice). Unset, it equals `friction`, as in
  // scene files: Material{.friction = 0.1f} is slippery at rest too.
  std::optional<float> static_friction = std::nullopt;
  float restitution = 0.0f;  // 0 = no bounce, 1 = elastic
  // The rules this material asks for (MixRule): friction_mix combines both the dynamic and the
  // static coefficients.
  MixRule friction_mix = MixRule::Default;
  MixRule restitution_mix = MixRule::Default;
  friend bool operator==(const Material&, const Material&) = default;
};

// The rule a pair uses when its two materials ask for rules a and b: the later one of MixRule.
inline MixRule mix_rule_of_pair(MixRule a, MixRule b) { return a > b ? a : b; }
// The coefficient a pair gets from a and b under `rule`, friction (Default: geometric mean)
// or restitution (Default: maximum).
float mix_friction(float a, float b, MixRule rule);
float mix_restitution(float a, float b, MixRule rule);
// The rule's name in scene files and Python ("default", "average", "min", "multiply", "max"),
// and the rule of a name (nullopt for any other string).
const char* mix_rule_name(MixRule rule);
std::optional<MixRule> mix_rule_named(std::string_view name);

// The built-in table: rock, wood, metal, bouncy_ball, super_ball, pillow, static, default.
// Throws strut::Error naming the unknown name.
Material material_named(std::string_view name);
bool is_builtin_material(std::string_view name);
std::vector<std::string> builtin_material_names();

// The static coefficient a material has: static_friction if set, otherwise friction.
inline float static_friction_of(const Material& m) {
  return m.static_friction.value_or(m.friction);
}

// Throws strut::Error "<what>.<field>: <problem>" if a field is NaN, infinite or out of range
// (a rule outside MixRule included).
void validate_material(const Material& m, std::string_view what);

}  // namespace strut
