// Shared by the parts of the scene reader: scene_parse.cpp (the document, world, materials,
// joints), scene_parse_shapes.cpp (bodies and their shapes, versions 1 to 3) and
// scene_parse_tiles.cpp (tile maps). Internal to tools/scene; includes nlohmann_json, so only
// those files include it.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "solver/shapes/shape_checks.hpp"
#include "strut/scene.hpp"

namespace strut::scene_read {

using json = nlohmann::ordered_json;

// Where a value sits in the document ("bodies[3].vertices"). Built on the stack as the reader
// descends and only turned into text when there is an error to report.
struct Path {
  const Path* parent = nullptr;
  std::string_view key;  // member name, or empty for an array element
  int index = -1;

  Path operator/(std::string_view k) const { return {this, k, -1}; }
  Path at(int i) const { return {this, {}, i}; }
  std::string str() const;
};

// A value for an error message: "an object", "an array", or the value itself (shortened).
std::string describe(const json& j);

// Typed access to JSON values; every failure throws SceneError naming the file and the path.
class ValueReader {
 public:
  explicit ValueReader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& problem) const;
  [[noreturn]] void fail(const Path& p, const std::string& problem) const;

  void only_keys(const json& j, const Path& p, std::initializer_list<std::string_view> keys) const;
  const json& require(const json& j, const Path& p, const char* key) const;
  const json& array(const json& j, const Path& p) const;
  std::string string(const json& j, const Path& p) const;
  bool boolean(const json& j, const Path& p) const;
  float number(const json& j, const Path& p) const;  // finite and within a float's range
  float positive(const json& j, const Path& p) const;
  float non_negative(const json& j, const Path& p) const;
  long long integer(const json& j, const Path& p) const;  // whole numbers up to 2^53
  int positive_int(const json& j, const Path& p, long long max = 1000000000) const;
  float in_range(const json& j, const Path& p, float lo, float hi) const;
  std::uint32_t layer_bits(const json& j, const Path& p) const;
  Vec2 vec2(const json& j, const Path& p) const;

 protected:
  std::string file_;
};

// Reads `bodies[]` entries (scene_parse_shapes.cpp) and `tile_maps[]` entries
// (scene_parse_tiles.cpp), both of which name materials. The scene reader fills `materials_` and
// `version_` before them; the joints read `body_index_` and `centers_` after the bodies.
class BodyReader : public ValueReader {
 public:
  using ValueReader::ValueReader;

  SceneBody body(const json& j, const Path& p);
  TileMapDef tile_map(const json& j, const Path& p) const;

 protected:
  Material material(const std::string& name, const Path& p) const;

  int version_ = 1;
  std::map<std::string, Material, std::less<>> materials_;
  std::unordered_map<std::string, int> body_index_;  // name -> index in bodies[]
  std::vector<Vec2> centers_;                        // of every body, by index

 private:
  SceneBody single_shape_body(const json& j, const Path& p);
  SceneBody compound_body(const json& j, const Path& p);
  SceneBody name_and_center(const json& j, const Path& p);
  void body_options(const json& j, const Path& p, SceneBody& b);
  // Appends the item's shape to body.shapes (a concave_polygon: its pieces).
  void shape_item(const json& j, const Path& p, BodyDef& body);
  Shape shape_of(const std::string& kind, const json& j, const Path& p) const;
  PolygonShape polygon(const json& j, const Path& p) const;
  std::vector<PolygonShape> concave_pieces(const json& j, const Path& p) const;
  std::vector<Vec2> points(const std::string& kind, const json& j, const Path& p, bool loop) const;
  ShapeFilter filter(const json& j, const Path& p) const;
  void check_shape(const Shape& shape, const json& j, const Path& p, const BodyDef& body) const;
  // `where`: the key to blame (a single shape's size key, "vertices" or "shapes").
  void check_mass(const BodyDef& d, const Path& p, std::string_view where) const;
  // `whole`: d is a version-1 body with its one shape's keys in j, checked by the world whole.
  void engine_check(const BodyDef& d, const json& j, const Path& p, bool whole) const;
};

}  // namespace strut::scene_read
