#include "tools/scene/json_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace strut::json_text {
namespace {

template <typename T>
void append_shortest(std::string& out, T v) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  char buf[64];
  // Without a precision std::to_chars gives the shortest text that round-trips exactly.
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

}  // namespace

void append_number(std::string& out, float v) { append_shortest(out, v); }
void append_number(std::string& out, double v) { append_shortest(out, v); }

void append_vec2(std::string& out, Vec2 v) {
  out += '[';
  append_number(out, v.x);
  out += ", ";
  append_number(out, v.y);
  out += ']';
}

void append_string(std::string& out, std::string_view s) {
  out += '"';
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  out += '"';
}

std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace strut::json_text
