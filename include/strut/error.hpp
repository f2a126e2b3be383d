// The one exception type of the public API. Its message names what was wrong
// (which body or argument, which field, which value) so callers can show it as is.
#pragma once

#include <stdexcept>
#include <string>

namespace strut {

class Error : public std::invalid_argument {
 public:
  explicit Error(const std::string& what) : std::invalid_argument(what) {}
};

}  // namespace strut
