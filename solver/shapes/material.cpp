#include "strut/material.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "solver/shapes/shape_checks.hpp"
#include "strut/error.hpp"

namespace strut {
namespace {

struct NamedMaterial {
  const char* name;
  Material material;
};

// The classic table (density, restitution); friction 0.6, static friction equal to it.
constexpr std::array<NamedMaterial, 8> kBuiltins = {{
    {"rock", {0.6f, 0.6f, std::nullopt, 0.1f}},
    {"wood", {0.3f, 0.6f, std::nullopt, 0.2f}},
    {"metal", {1.2f, 0.6f, std::nullopt, 0.05f}},
    {"bouncy_ball", {0.3f, 0.6f, std::nullopt, 0.8f}},
    {"super_ball", {0.3f, 0.6f, std::nullopt, 0.95f}},
    {"pillow", {0.1f, 0.6f, std::nullopt, 0.2f}},
    {"static", {0.0f, 0.6f, std::nullopt, 0.4f}},
    {"default", {1.0f, 0.6f, std::nullopt, 0.0f}},
}};

constexpr std::array<const char*, kMixRuleCount> kMixRuleNames = {"default", "average", "min",
                                                                  "multiply", "max"};

// The rules other than Default, shared by friction and restitution.
float mix(float a, float b, MixRule rule) {
  switch (rule) {
    case MixRule::Average:
      return 0.5f * (a + b);
    case MixRule::Min:
      return std::min(a, b);
    case MixRule::Multiply:
      return a * b;
    case MixRule::Max:
    case MixRule::Default:
      break;
  }
  return std::max(a, b);
}

}  // namespace

float mix_friction(float a, float b, MixRule rule) {
  return rule == MixRule::Default ? std::sqrt(a * b) : mix(a, b, rule);
}

float mix_restitution(float a, float b, MixRule rule) { return mix(a, b, rule); }

const char* mix_rule_name(MixRule rule) {
  const auto i = std::size_t(rule);
  return i < kMixRuleNames.size() ? kMixRuleNames[i] : "unknown";
}

std::optional<MixRule> mix_rule_named(std::string_view name) {
  for (std::size_t i = 0; i < kMixRuleNames.size(); ++i)
    if (name == kMixRuleNames[i]) return MixRule(i);
  return std::nullopt;
}

Material material_named(std::string_view name) {
  for (const auto& m : kBuiltins)
    if (name == m.name) return m.material;
  throw Error("unknown material '" + std::string(name) + "'");
}

bool is_builtin_material(std::string_view name) {
  for (const auto& m : kBuiltins)
    if (name == m.name) return true;
  return false;
}

std::vector<std::string> builtin_material_names() {
  std::vector<std::string> names;
  for (const auto& m : kBuiltins) names.emplace_back(m.name);
  return names;
}

void validate_material(const Material& m, std::string_view what) {
  auto check = [&](float v, const char* field, float lo, float hi) {
    if (!std::isfinite(v)) throw Error(std::string(what) + "." + field + ": not a finite number");
    if (v < lo || v > hi)
      throw Error(std::string(what) + "." + field + ": " + shapes::number_text(v) +
                  " is out of range [" + shapes::number_text(lo) + ", " + shapes::number_text(hi) +
                  "]");
  };
  check(m.density, "density", 0.0f, 1e9f);
  check(m.friction, "friction", 0.0f, 1e3f);
  if (m.static_friction) check(*m.static_friction, "static_friction", 0.0f, 1e3f);
  check(m.restitution, "restitution", 0.0f, 1.0f);
  auto check_rule = [&](MixRule rule, const char* field) {
    if (int(rule) >= kMixRuleCount)
      throw Error(std::string(what) + "." + field + ": " + std::to_string(int(rule)) +
                  " is not a MixRule (0 to " + std::to_string(kMixRuleCount - 1) + ")");
  };
  check_rule(m.friction_mix, "friction_mix");
  check_rule(m.restitution_mix, "restitution_mix");
}

}  // namespace strut
