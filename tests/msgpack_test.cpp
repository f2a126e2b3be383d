// The MessagePack subset of recordings: every size class the writer picks reads back to the
// same value, the bytes are the standard's (checked against encodings from the specification),
// and malformed input is refused with its byte offset.
#include "tools/record/msgpack.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace strut::msgpack {
namespace {

std::string encode(auto&& write) {
  std::string out;
  Writer w(out);
  write(w);
  return out;
}

Value decode_all(const std::string& bytes) {
  std::size_t pos = 0;
  Value v = decode(bytes, pos);
  EXPECT_EQ(pos, bytes.size());
  return v;
}

TEST(Msgpack, IntegersTakeTheShortestStandardForm) {
  // (value, expected first byte, expected length) from the specification's formats.
  const struct {
    std::uint64_t value;
    std::uint8_t code;
    std::size_t size;
  } cases[] = {{0, 0x00, 1},        {127, 0x7f, 1},         {128, 0xcc, 2},
               {255, 0xcc, 2},      {256, 0xcd, 3},         {65535, 0xcd, 3},
               {65536, 0xce, 5},    {0xFFFFFFFFu, 0xce, 5}, {0x100000000u, 0xcf, 9},
               {INT64_MAX, 0xcf, 9}};
  for (const auto& c : cases) {
    const std::string bytes = encode([&](Writer& w) { w.uint(c.value); });
    ASSERT_EQ(bytes.size(), c.size) << c.value;
    EXPECT_EQ(std::uint8_t(bytes[0]), c.code) << c.value;
    const Value v = decode_all(bytes);
    EXPECT_EQ(v.type, Value::Type::Int);
    EXPECT_EQ(std::uint64_t(v.integer), c.value);
  }
  // Signed forms other writers use: negative fixint, int8..int64.
  EXPECT_EQ(decode_all("\xff").integer, -1);
  EXPECT_EQ(decode_all("\xe0").integer, -32);
  EXPECT_EQ(decode_all(std::string("\xd0\x80", 2)).integer, -128);
  EXPECT_EQ(decode_all(std::string("\xd1\x80\x00", 3)).integer, -32768);
  EXPECT_EQ(decode_all(std::string("\xd2\xff\xff\xff\xfe", 5)).integer, -2);
  EXPECT_EQ(decode_all(std::string("\xd3\xff\xff\xff\xff\xff\xff\xff\xfd", 9)).integer, -3);
}

TEST(Msgpack, StringsBinariesFloatsAndContainersRoundTrip) {
  for (const std::size_t n : {0u, 31u, 32u, 255u, 256u, 65535u, 65536u}) {
    const std::string text(n, 'x');
    // Decoded strings view the input, so the input must outlive them.
    const std::string str_bytes = encode([&](Writer& w) { w.str(text); });
    const Value s = decode_all(str_bytes);
    EXPECT_EQ(s.type, Value::Type::Str);
    EXPECT_EQ(s.bytes, text);
    const std::vector<std::uint8_t> data(n, 7);
    const std::string bin_bytes = encode([&](Writer& w) { w.bin(data); });
    const Value b = decode_all(bin_bytes);
    EXPECT_EQ(b.type, Value::Type::Bin);
    EXPECT_EQ(b.bytes.size(), n);
  }
  // Floats keep every bit, including -0 and the smallest subnormal.
  for (const float f : {0.0f, -0.0f, 1.5f, -3.25e-7f, 1e-45f, 3.4e38f}) {
    const std::string bytes = encode([&](Writer& w) { w.f32(f); });
    ASSERT_EQ(bytes.size(), 5u);
    EXPECT_EQ(std::uint8_t(bytes[0]), 0xca);
    const float back = float(decode_all(bytes).number);
    EXPECT_EQ(std::signbit(back), std::signbit(f));
    EXPECT_EQ(back, f);
  }
  EXPECT_EQ(decode_all(encode([](Writer& w) { w.f64(0.1); })).number, 0.1);
  // 1.5 as float32 is ca 3f c0 00 00 (big-endian), as the specification's example shows.
  EXPECT_EQ(encode([](Writer& w) { w.f32(1.5f); }), std::string("\xca\x3f\xc0\x00\x00", 5));
  for (const std::uint32_t n : {0u, 15u, 16u, 65535u, 65536u}) {
    const Value a = decode_all(encode([&](Writer& w) {
      w.array(n);
      for (std::uint32_t i = 0; i < n; ++i) w.boolean(i % 2 == 0);
    }));
    ASSERT_EQ(a.type, Value::Type::Array);
    ASSERT_EQ(a.items.size(), n);
    if (n > 1) {
      EXPECT_FALSE(a.items[1].boolean);
    }
  }
  const std::string map_bytes = encode([](Writer& w) {
    w.map(2);
    w.str("a"), w.uint(1);
    w.str("b"), w.str("two");
  });
  const Value m = decode_all(map_bytes);
  ASSERT_NE(m.find("b"), nullptr);
  EXPECT_EQ(m.find("b")->bytes, "two");
  EXPECT_EQ(m.find("a")->integer, 1);
  EXPECT_EQ(m.find("c"), nullptr);
}

TEST(Msgpack, MalformedInputIsRefusedWithItsOffset) {
  auto error = [](const std::string& bytes) {
    std::size_t pos = 0;
    try {
      decode(bytes, pos);
    } catch (const DecodeError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error(""), "truncated: the data ends inside a value at byte 0");
  EXPECT_EQ(error("\xc1"), "unsupported MessagePack type byte 193 at byte 0");
  EXPECT_EQ(error(std::string("\x92\x01", 2)),
            "truncated: a container holds more items than bytes left at byte 1");
  EXPECT_EQ(error(std::string("\xc4\x05\x01", 3)),
            "truncated: a string or binary field runs past the end at byte 2");
  EXPECT_EQ(error(std::string("\xcf\xff\xff\xff\xff\xff\xff\xff\xff", 9)),
            "integer too large at byte 0");
  // A map claiming four billion entries in five bytes is refused before anything is reserved.
  EXPECT_EQ(error(std::string("\xdf\xff\xff\xff\xff", 5)),
            "truncated: a container holds more items than bytes left at byte 5");
  // Nesting deeper than 16 is refused.
  EXPECT_EQ(error(std::string(20, '\x91') + "\x01"), "values nested more than 16 deep at byte 17");
}

}  // namespace
}  // namespace strut::msgpack
