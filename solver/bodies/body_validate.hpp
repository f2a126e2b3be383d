// Validation of body definitions (validate_body_def in strut/body.hpp is this with the body's own
// deprecated single shape).
#pragma once

#include "strut/body.hpp"

namespace strut {

// Checks `def` as validate_body_def does, with `own` as the body's single shape when def.shapes
// is empty (its shape, material, filter and sensor flag; ShapeDef{} otherwise). Throws
// strut::Error naming the field.
void validate_body_def(const BodyDef& def, const ShapeDef& own);

}  // namespace strut
