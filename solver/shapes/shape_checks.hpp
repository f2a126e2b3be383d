// Field checks shared by the shape kinds and body validation. Each throws strut::Error with a
// message "<field>: <problem>", naming the limit from strut/limits.hpp where one applies.
#pragma once

#include <string>

#include "strut/math.hpp"

namespace strut::shapes {

// A number for an error message: %g, with as many more digits as it takes to be exact.
std::string number_text(double v);
void check_finite(float v, const std::string& field);
void check_finite(Vec2 v, const std::string& field);
// A step's dt within [limits::kMinDt, limits::kMaxDt] (NaN refused): "<call>: dt must be in
// [...] s (strut/limits.hpp), got <dt>".
void check_step_dt(float dt, const std::string& call);
// |v| <= limit.
void check_at_most(float v, float limit, const std::string& field, const char* unit);
// A length in [kMinSize, kMaxSize].
void check_size(float v, const std::string& field);
// Both components within +-kMaxSize (points of a shape in its own frame).
void check_extent(Vec2 v, const std::string& field);
// Both components within +-kMaxCoordinate.
void check_coordinate(Vec2 v, const std::string& field);

}  // namespace strut::shapes
