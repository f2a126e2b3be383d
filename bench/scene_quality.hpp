// Quality figures of a scene run, reported beside its timing so that speed is never bought with
// accuracy: how far the stack sagged, how deep bodies overlap, where the lead body ended up.
// Box2D's benchmark scenes are measured the same way on Box2D's side (README, Benchmarks).
#pragma once

#include <utility>
#include <vector>

#include "strut/scene.hpp"

namespace strut {

// The scene's bodies and their heights before the run, in scene order.
struct QualityStart {
  std::vector<std::pair<BodyId, float>> body_y;
};

struct SceneQuality {
  float max_drop = 0;     // m: largest fall of a dynamic body of the scene below its start height
  float max_overlap = 0;  // m: deepest overlap of any contact point of the last step
  float lead_x = 0;       // m: x of the scene's first dynamic body at the end (smash's box)
};

QualityStart quality_start(const SceneInstance& inst);
SceneQuality measure_quality(const SceneInstance& inst, const QualityStart& start);

}  // namespace strut
