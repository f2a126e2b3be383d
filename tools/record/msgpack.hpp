// The subset of MessagePack (https://msgpack.org) that recordings use: a writer that appends
// to a byte string and a reader that decodes one value at a time into a small tree whose
// strings and byte arrays point into the input (no copies of pose blocks).
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace strut::msgpack {

// Appends MessagePack values to `out`, each in its shortest form.
class Writer {
 public:
  explicit Writer(std::string& out) : out_(&out) {}
  void map(std::uint32_t entries);
  void array(std::uint32_t items);
  void str(std::string_view s);
  void bin(std::span<const std::uint8_t> bytes);
  void uint(std::uint64_t v);
  void f32(float v);
  void f64(double v);
  void boolean(bool v);

 private:
  void be(std::uint64_t v, int bytes);
  std::string* out_;
};

// A decoded value. Arrays and maps own their children; str and bin view the input bytes.
struct Value {
  enum class Type : std::uint8_t { Nil, Bool, Int, Float, Str, Bin, Array, Map };
  Type type = Type::Nil;
  bool boolean = false;
  std::int64_t integer = 0;  // Int (values above 2^63 - 1 are rejected)
  double number = 0;         // Float
  std::string_view bytes;    // Str and Bin
  std::vector<Value> items;  // Array items; Map keys and values alternating

  // A map's value for `key`, or nullptr.
  const Value* find(std::string_view key) const;
};

const char* type_name(Value::Type t);

// Thrown for bytes that are not a well-formed value; the message says what and at which byte.
class DecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Decodes the value starting at `pos` and moves `pos` past it.
Value decode(std::string_view data, std::size_t& pos);

}  // namespace strut::msgpack
