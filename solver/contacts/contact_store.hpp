// Contacts: the pairs' points and constraints, their softness and colouring (part of the
// world's state, solver/world_state.hpp).
#pragma once

#include "solver/contacts/contact.hpp"
#include "solver/colouring/colouring.hpp"

namespace strut {

// Soft constraint coefficients (see make_softness).
struct Softness {
  float bias_rate = 0;
  float mass_scale = 1;
  float impulse_scale = 0;
};

// Contacts: the pairs' points and constraints (ContactSet), their softness and colouring.
struct ContactStore : ContactSet {
  Softness softness, static_softness;
  Colouring colours;  // of contact pairs
};

}  // namespace strut
