// The colours of every strut picture: the HTML viewer (which gets them as JSON) and the PNG
// frames of `strut render` share this one table, so a body looks the same in both.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "strut/debug_draw.hpp"

namespace strut::view {

struct Rgb {
  std::uint8_t r, g, b;
};

inline constexpr Rgb kBackground{250, 250, 250};
// By BodyDrawState: awake, asleep, static, kinematic, sensor.
inline constexpr std::array<Rgb, 5> kStateColours = {
    Rgb{230, 159, 0}, Rgb{86, 140, 200}, Rgb{150, 150, 150}, Rgb{0, 158, 115}, Rgb{204, 121, 167}};
inline constexpr Rgb kJointColour{200, 40, 160};
inline constexpr Rgb kContactColour{213, 30, 30};
inline constexpr Rgb kNormalColour{30, 30, 30};
inline constexpr Rgb kAabbColour{60, 60, 230};
// Speed buckets of 2 m/s, slow to fast.
inline constexpr std::array<Rgb, 8> kSpeedColours = {
    Rgb{49, 54, 149},   Rgb{69, 117, 180}, Rgb{116, 173, 209}, Rgb{171, 217, 233},
    Rgb{254, 224, 144}, Rgb{253, 174, 97}, Rgb{244, 109, 67},  Rgb{215, 48, 39}};
// Islands take these in turn (by the island's root record id).
inline constexpr std::array<Rgb, 10> kIslandColours = {
    Rgb{31, 119, 180},  Rgb{255, 127, 14}, Rgb{44, 160, 44},   Rgb{214, 39, 40},
    Rgb{148, 103, 189}, Rgb{140, 86, 75},  Rgb{227, 119, 194}, Rgb{127, 127, 127},
    Rgb{188, 189, 34},  Rgb{23, 190, 207}};
// Profile phases in the chart, in the recording's phase order.
inline constexpr std::array<Rgb, 7> kPhaseColours = {
    Rgb{141, 211, 199}, Rgb{255, 237, 111}, Rgb{190, 186, 218}, Rgb{251, 128, 114},
    Rgb{128, 177, 211}, Rgb{253, 180, 98},  Rgb{179, 222, 105}};

inline Rgb state_colour(BodyDrawState s) { return kStateColours[std::size_t(s)]; }

// The table as the JSON object the viewer page reads.
std::string palette_json();

}  // namespace strut::view
