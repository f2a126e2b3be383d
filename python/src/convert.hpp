// What the module's files share: pybind11 and NumPy, points as (x, y) tuples, the hash as text,
// checked float rows from NumPy, and structured arrays filled from records.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "strut/error.hpp"
#include "strut/math.hpp"

namespace strut::python {

namespace py = pybind11;

using Point = std::pair<float, float>;  // (x, y) from Python
inline Vec2 vec2_of(Point p) { return {p.first, p.second}; }
inline py::tuple tuple_of(Vec2 v) { return py::make_tuple(v.x, v.y); }

std::string hash_text(std::uint64_t hash);  // the 16 hex digits `strut run` prints

// Throws "<call>: threads must be in [0, 256] (0 = all cores), got N" beyond
// limits::kMaxThreads, as WorldConfig does.
void check_threads(int threads, const char* call);

// Runs a world call whose strut::Error is re-thrown after `what`, less the C++ call's own
// prefix ("create_body: "), which `what` replaces.
template <class Call>
auto named_errors(const std::string& what, std::string_view cxx_call, Call&& call) {
  try {
    return call();
  } catch (const Error& e) {
    std::string_view message = e.what();
    if (message.starts_with(cxx_call) && message.substr(cxx_call.size()).starts_with(": "))
      message.remove_prefix(cxx_call.size() + 2);
    throw Error(what + ": " + std::string(message));
  }
}

// An (n, columns) or (n,) float32 array's rows, checked for shape and finiteness; throws naming
// the call and `what`.
using Rows = py::array_t<float, py::array::c_style | py::array::forcecast>;
const float* checked_rows(const Rows& a, std::size_t n, int columns, const char* call,
                          const char* what);

// An array of n records (a dtype registered with PYBIND11_NUMPY_DTYPE), and its rows.
template <class Record>
py::array records(std::size_t n, Record*& rows) {
  py::array_t<Record> a({py::ssize_t(n)});
  rows = a.mutable_data();
  return a;
}
template <class Record>
py::array records_of(const std::vector<Record>& list) {
  Record* rows = nullptr;
  py::array a = records(list.size(), rows);
  std::copy(list.begin(), list.end(), rows);
  return a;
}

}  // namespace strut::python
