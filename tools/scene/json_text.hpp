// Writing JSON text by hand: the scene writer and the command-line program emit large, regular
// documents (one body per line), and keeping nlohmann_json out of them keeps compile times low.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "strut/math.hpp"

namespace strut::json_text {

// Shortest decimal that reads back as the same float ("0.1", "-10", "1e+20"); "null" for
// NaN or infinity, which JSON cannot hold.
void append_number(std::string& out, float v);
void append_number(std::string& out, double v);
// [x, y]
void append_vec2(std::string& out, Vec2 v);
// A quoted JSON string with ", \ and control characters escaped (UTF-8 passes through).
void append_string(std::string& out, std::string_view s);
// 16 lower-case hex digits.
std::string hex64(std::uint64_t v);

}  // namespace strut::json_text
