// Fuzz target: the bytes are a scene file. It must either be rejected with strut::Error (the
// scene reader's SceneError is one) or load, build and step with every state finite.
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_check.hpp"
#include "strut/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  strut::Scene scene;
  try {
    scene = strut::parse_scene(text, "fuzz.json");
  } catch (const strut::Error&) {
    return 0;  // rejected: fine, as long as nothing else was thrown or crashed
  }
  // Bounded work per input: a few hundred bodies for a few steps.
  if (scene.bodies.size() > 500) return 0;
  try {
    strut::SceneInstance instance = strut::build_scene(scene, 1);
    for (int i = 0; i < 5; ++i) {
      instance.step();
      strut::fuzz::require_finite_state(instance.world);
    }
  } catch (const strut::Error&) {
    // build_scene may reject what the reader let through (as SceneError); never a crash.
  }
  return 0;
}
