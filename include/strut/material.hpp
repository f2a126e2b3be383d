// Materials: density and surface properties, combined per contact by a fixed rule
// (friction: geometric mean; restitution: maximum).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strut {

struct Material {
  float density = 1.0f;   // kg / m^2
  float friction = 0.6f;  // dynamic (kinetic) Coulomb coefficient
  // Static Coulomb coefficient (>= friction in practice). Unset, it equals `friction`, as in
  // scene files: Material{.friction = 0.1f} is slippery at rest too.
  std::optional<float> static_friction = std::nullopt;
  float restitution = 0.0f;  // 0 = no bounce, 1 = elastic
};

// The built-in table: rock, wood, metal, bouncy_ball, super_ball, pillow, static, default.
// Throws strut::Error naming the unknown name.
Material material_named(std::string_view name);
bool is_builtin_material(std::string_view name);
std::vector<std::string> builtin_material_names();

// The static coefficient a material has: static_friction if set, otherwise friction.
inline float static_friction_of(const Material& m) {
  return m.static_friction.value_or(m.friction);
}

// Throws strut::Error "<what>.<field>: <problem>" if a field is NaN, infinite or out of range.
void validate_material(const Material& m, std::string_view what);

}  // namespace strut
