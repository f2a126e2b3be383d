// The self-contained viewer page of a recording (tools/view/viewer.html with the palette and
// the recording filled in).
#pragma once

#include <string>
#include <string_view>

namespace strut::view {

// `recording` is the recording's bytes as stored (they are embedded as base64).
std::string viewer_page(std::string_view recording, std::string_view title);

std::string base64(std::string_view bytes);

}  // namespace strut::view
