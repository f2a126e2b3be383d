#include "tools/view/viewer_page.hpp"

#include <stdexcept>

#include "tools/view/palette.hpp"
#include "tools/view/viewer_html.hpp"  // generated: kViewerHtml

namespace strut::view {
namespace {

// Replaces the one occurrence of `marker` in `page`.
void fill(std::string& page, std::string_view marker, std::string_view text) {
  const std::size_t at = page.find(marker);
  if (at == std::string::npos) throw std::logic_error("viewer.html lacks " + std::string(marker));
  page.replace(at, marker.size(), text);
}

std::string html_escape(std::string_view s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace

std::string base64(std::string_view bytes) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const std::uint32_t v = (std::uint8_t(bytes[i]) << 16) | (std::uint8_t(bytes[i + 1]) << 8) |
                            std::uint8_t(bytes[i + 2]);
    for (int k = 18; k >= 0; k -= 6) out += kDigits[(v >> k) & 63];
  }
  if (i < bytes.size()) {
    const bool two = i + 1 < bytes.size();
    const std::uint32_t v =
        (std::uint8_t(bytes[i]) << 16) | (two ? std::uint8_t(bytes[i + 1]) << 8 : 0);
    out += kDigits[(v >> 18) & 63];
    out += kDigits[(v >> 12) & 63];
    out += two ? kDigits[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string viewer_page(std::string_view recording, std::string_view title) {
  std::string page(kViewerHtml);
  fill(page, "<title>strut view</title>", "<title>strut view: " + html_escape(title) + "</title>");
  fill(page, "@@PALETTE@@", palette_json());
  fill(page, "@@RECORDING@@", base64(recording));
  return page;
}

}  // namespace strut::view
