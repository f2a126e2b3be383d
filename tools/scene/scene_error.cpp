#include "strut/scene.hpp"

namespace strut {

// One line, so a command-line tool can print it as is: "<file>: <path>: <problem>", or
// "<file>: <problem>" when the problem is the file itself (cannot be opened).
SceneError::SceneError(std::string file, std::string path, std::string problem)
    : Error(file + ": " + (path.empty() ? "" : path + ": ") + problem),
      file_(std::move(file)),
      path_(std::move(path)),
      problem_(std::move(problem)) {}

}  // namespace strut
