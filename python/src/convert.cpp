#include "python/src/convert.hpp"

#include <cmath>
#include <cstdio>

#include "strut/limits.hpp"

namespace strut::python {

std::string hash_text(std::uint64_t hash) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

void check_threads(int threads, const char* call) {
  if (threads < 0 || threads > limits::kMaxThreads)
    throw Error(std::string(call) + ": threads must be in [0, " +
                std::to_string(limits::kMaxThreads) + "] (0 = all cores), got " +
                std::to_string(threads));
}

const float* checked_rows(const Rows& a, std::size_t n, int columns, const char* call,
                          const char* what) {
  const bool shaped = columns == 1
                          ? a.ndim() == 1 && std::size_t(a.shape(0)) == n
                          : a.ndim() == 2 && std::size_t(a.shape(0)) == n && a.shape(1) == columns;
  if (!shaped)
    throw Error(std::string(call) + ": " + what + " must have shape (" + std::to_string(n) +
                (columns == 1 ? ",)" : ", " + std::to_string(columns) + ")"));
  for (std::size_t k = 0; k < n * std::size_t(columns); ++k)
    if (!std::isfinite(a.data()[k]))
      throw Error(std::string(call) + ": " + what + "[" + std::to_string(k / columns) +
                  "] is not finite");
  return a.data();
}

}  // namespace strut::python
