#include "tools/record/msgpack.hpp"

#include <bit>
#include <cstring>

namespace strut::msgpack {

void Writer::be(std::uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out_->push_back(char((v >> (8 * i)) & 0xFF));
}

void Writer::map(std::uint32_t entries) {
  if (entries < 16) {
    out_->push_back(char(0x80 | entries));
  } else if (entries <= 0xFFFF) {
    out_->push_back(char(0xde));
    be(entries, 2);
  } else {
    out_->push_back(char(0xdf));
    be(entries, 4);
  }
}

void Writer::array(std::uint32_t items) {
  if (items < 16) {
    out_->push_back(char(0x90 | items));
  } else if (items <= 0xFFFF) {
    out_->push_back(char(0xdc));
    be(items, 2);
  } else {
    out_->push_back(char(0xdd));
    be(items, 4);
  }
}

void Writer::str(std::string_view s) {
  const std::size_t n = s.size();
  if (n < 32) {
    out_->push_back(char(0xa0 | n));
  } else if (n <= 0xFF) {
    out_->push_back(char(0xd9));
    be(n, 1);
  } else if (n <= 0xFFFF) {
    out_->push_back(char(0xda));
    be(n, 2);
  } else {
    out_->push_back(char(0xdb));
    be(n, 4);
  }
  out_->append(s);
}

void Writer::bin(std::span<const std::uint8_t> bytes) {
  const std::size_t n = bytes.size();
  if (n <= 0xFF) {
    out_->push_back(char(0xc4));
    be(n, 1);
  } else if (n <= 0xFFFF) {
    out_->push_back(char(0xc5));
    be(n, 2);
  } else {
    out_->push_back(char(0xc6));
    be(n, 4);
  }
  out_->append(reinterpret_cast<const char*>(bytes.data()), n);
}

void Writer::uint(std::uint64_t v) {
  if (v < 128) {
    out_->push_back(char(v));
  } else if (v <= 0xFF) {
    out_->push_back(char(0xcc));
    be(v, 1);
  } else if (v <= 0xFFFF) {
    out_->push_back(char(0xcd));
    be(v, 2);
  } else if (v <= 0xFFFFFFFFu) {
    out_->push_back(char(0xce));
    be(v, 4);
  } else {
    out_->push_back(char(0xcf));
    be(v, 8);
  }
}

void Writer::f32(float v) {
  out_->push_back(char(0xca));
  be(std::bit_cast<std::uint32_t>(v), 4);
}

void Writer::f64(double v) {
  out_->push_back(char(0xcb));
  be(std::bit_cast<std::uint64_t>(v), 8);
}

void Writer::boolean(bool v) { out_->push_back(char(v ? 0xc3 : 0xc2)); }

const Value* Value::find(std::string_view key) const {
  if (type != Type::Map) return nullptr;
  for (std::size_t i = 0; i + 1 < items.size(); i += 2)
    if (items[i].type == Type::Str && items[i].bytes == key) return &items[i + 1];
  return nullptr;
}

const char* type_name(Value::Type t) {
  switch (t) {
    case Value::Type::Nil:
      return "nil";
    case Value::Type::Bool:
      return "a boolean";
    case Value::Type::Int:
      return "an integer";
    case Value::Type::Float:
      return "a number";
    case Value::Type::Str:
      return "a string";
    case Value::Type::Bin:
      return "binary data";
    case Value::Type::Array:
      return "an array";
    case Value::Type::Map:
      return "a map";
  }
  return "?";
}

namespace {

// Nesting deeper than any recording needs is refused rather than followed down the stack.
constexpr int kMaxDepth = 16;

class Decoder {
 public:
  Decoder(std::string_view data, std::size_t& pos) : data_(data), pos_(pos) {}

  Value value(int depth) {
    if (depth > kMaxDepth) fail("values nested more than 16 deep");
    const std::size_t at = pos_;
    const std::uint8_t c = byte();
    Value v;
    if (c < 0x80) return integer(c);
    if (c >= 0xe0) return integer(std::int8_t(c));
    if ((c & 0xf0) == 0x80) return container(Value::Type::Map, c & 0x0f, depth);
    if ((c & 0xf0) == 0x90) return container(Value::Type::Array, c & 0x0f, depth);
    if ((c & 0xe0) == 0xa0) return blob(Value::Type::Str, c & 0x1f);
    switch (c) {
      case 0xc0:
        return v;
      case 0xc2:
      case 0xc3:
        v.type = Value::Type::Bool;
        v.boolean = c == 0xc3;
        return v;
      case 0xc4:
        return blob(Value::Type::Bin, be(1));
      case 0xc5:
        return blob(Value::Type::Bin, be(2));
      case 0xc6:
        return blob(Value::Type::Bin, be(4));
      case 0xca:
        v.type = Value::Type::Float;
        v.number = std::bit_cast<float>(std::uint32_t(be(4)));
        return v;
      case 0xcb:
        v.type = Value::Type::Float;
        v.number = std::bit_cast<double>(be(8));
        return v;
      case 0xcc:
        return integer(std::int64_t(be(1)));
      case 0xcd:
        return integer(std::int64_t(be(2)));
      case 0xce:
        return integer(std::int64_t(be(4)));
      case 0xcf: {
        const std::uint64_t u = be(8);
        if (u > std::uint64_t(INT64_MAX)) fail("integer too large", at);
        return integer(std::int64_t(u));
      }
      case 0xd0:
        return integer(std::int8_t(be(1)));
      case 0xd1:
        return integer(std::int16_t(be(2)));
      case 0xd2:
        return integer(std::int32_t(be(4)));
      case 0xd3:
        return integer(std::int64_t(be(8)));
      case 0xd9:
        return blob(Value::Type::Str, be(1));
      case 0xda:
        return blob(Value::Type::Str, be(2));
      case 0xdb:
        return blob(Value::Type::Str, be(4));
      case 0xdc:
        return container(Value::Type::Array, be(2), depth);
      case 0xdd:
        return container(Value::Type::Array, be(4), depth);
      case 0xde:
        return container(Value::Type::Map, be(2), depth);
      case 0xdf:
        return container(Value::Type::Map, be(4), depth);
      default:
        fail("unsupported MessagePack type byte " + std::to_string(c), at);
    }
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what, std::size_t at = std::string::npos) {
    throw DecodeError(what + " at byte " + std::to_string(at == std::string::npos ? pos_ : at));
  }
  std::uint8_t byte() {
    if (pos_ >= data_.size()) fail("truncated: the data ends inside a value");
    return std::uint8_t(data_[pos_++]);
  }
  std::uint64_t be(int bytes) {
    if (data_.size() - pos_ < std::size_t(bytes)) fail("truncated: the data ends inside a value");
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v = (v << 8) | std::uint8_t(data_[pos_++]);
    return v;
  }
  static Value integer(std::int64_t i) {
    Value v;
    v.type = Value::Type::Int;
    v.integer = i;
    return v;
  }
  Value blob(Value::Type t, std::uint64_t n) {
    if (data_.size() - pos_ < n) fail("truncated: a string or binary field runs past the end");
    Value v;
    v.type = t;
    v.bytes = data_.substr(pos_, n);
    pos_ += n;
    return v;
  }
  Value container(Value::Type t, std::uint64_t n, int depth) {
    const std::uint64_t count = t == Value::Type::Map ? 2 * n : n;
    // Every item takes at least a byte, so a count beyond the remaining bytes is corrupt (and
    // must not reserve memory for it).
    if (count > data_.size() - pos_)
      fail("truncated: a container holds more items than bytes left");
    Value v;
    v.type = t;
    v.items.reserve(count);
    for (std::uint64_t i = 0; i < count; ++i) v.items.push_back(value(depth + 1));
    return v;
  }

  std::string_view data_;
  std::size_t& pos_;
};

}  // namespace

Value decode(std::string_view data, std::size_t& pos) { return Decoder(data, pos).value(0); }

}  // namespace strut::msgpack
