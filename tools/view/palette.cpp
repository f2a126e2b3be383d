#include "tools/view/palette.hpp"

#include <span>

namespace strut::view {
namespace {

std::string rgb(Rgb c) {
  std::string out = "[";
  for (const std::uint8_t v : {c.r, c.g, c.b}) (out += std::to_string(v)) += ',';
  out.back() = ']';
  return out;
}

std::string list(std::span<const Rgb> colours) {
  std::string out = "[";
  for (const Rgb c : colours) (out += rgb(c)) += ',';
  out.back() = ']';
  return out;
}

}  // namespace

std::string palette_json() {
  return "{\"background\":" + rgb(kBackground) + ",\"states\":" + list(kStateColours) +
         ",\"joint\":" + rgb(kJointColour) + ",\"contact\":" + rgb(kContactColour) +
         ",\"normal\":" + rgb(kNormalColour) + ",\"aabb\":" + rgb(kAabbColour) +
         ",\"speed\":" + list(kSpeedColours) + ",\"islands\":" + list(kIslandColours) +
         ",\"phases\":" + list(kPhaseColours) + "}";
}

}  // namespace strut::view
