// A contact callback's call inside a step (strut/contact_callbacks.hpp; custom_filter.cpp,
// pre_solve.cpp), on the stepping thread.
#pragma once

#include <exception>

namespace strut {

// Calls a callback; if it throws, keeps the step's first exception in `first_error` (World::
// CallbackStore::error, which World::step rethrows after the step) and answers true (the pair
// collides), setting `threw`.
template <class Callback, class Argument>
bool call_guarded(const Callback& callback, const Argument& argument,
                  std::exception_ptr& first_error, bool& threw) {
  try {
    return callback(argument);
  } catch (...) {
    if (!first_error) first_error = std::current_exception();
    threw = true;
    return true;
  }
}

}  // namespace strut
