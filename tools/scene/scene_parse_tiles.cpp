// `tile_maps[]` entries of a version-2 scene file (docs/scene_format.md, "Tile maps") ->
// TileMapDef, with every check World::create_tile_map makes, so that a file that loads builds.
#include <cmath>
#include <string>

#include "strut/limits.hpp"
#include "tools/scene/scene_parse_internal.hpp"

namespace strut::scene_read {
namespace {

// One row of tile indices, each -1 (empty) or a material index below `materials`.
void read_tiles(const ValueReader& r, const json& row, const Path& p, std::size_t materials,
                std::vector<int>& out) {
  for (std::size_t i = 0; i < row.size(); ++i) {
    const Path tp = p.at(int(i));
    const long long t = r.integer(row[i], tp);
    if (t < -1) r.fail(tp, std::to_string(t) + " is neither -1 (empty) nor a material index");
    if (t >= (long long)materials)
      r.fail(tp, std::to_string(t) + " names no material (" + std::to_string(materials) +
                     " in materials)");
    out.push_back(int(t));
  }
}

}  // namespace

TileMapDef BodyReader::tile_map(const json& j, const Path& p) const {
  only_keys(j, p,
            {"origin", "tile_size", "materials", "rows", "cols", "tiles", "floor_gravity",
             "floor_stop_speed"});
  TileMapDef def;
  def.origin = vec2(require(j, p, "origin"), p / "origin");
  def.tile_size = in_range(require(j, p, "tile_size"), p / "tile_size", 2 * limits::kMinSize,
                           2 * limits::kMaxSize);
  if (j.contains("floor_gravity"))
    def.floor_gravity = in_range(j["floor_gravity"], p / "floor_gravity", 0, limits::kMaxGravity);
  if (j.contains("floor_stop_speed"))
    def.floor_stop_speed =
        in_range(j["floor_stop_speed"], p / "floor_stop_speed", 0, limits::kMaxSpeed);

  // Materials: a name (a solid tile) or {"material": name, "floor": bool}.
  const Path mp = p / "materials";
  const json& mats = array(require(j, p, "materials"), mp);
  if (mats.empty()) fail(mp, "must not be empty");
  for (std::size_t i = 0; i < mats.size(); ++i) {
    const Path ip = mp.at(int(i));
    TileMaterial m;
    if (mats[i].is_string()) {
      m.material = material(mats[i].get<std::string>(), ip);
    } else {
      only_keys(mats[i], ip, {"material", "floor"});
      m.material =
          material(string(require(mats[i], ip, "material"), ip / "material"), ip / "material");
      if (mats[i].contains("floor")) m.floor = boolean(mats[i]["floor"], ip / "floor");
    }
    def.materials.push_back(m);
  }

  // The grid: `rows` (arrays, row 0 at the top) or `tiles` (row-major) with `cols`.
  const bool has_rows = j.contains("rows"), has_tiles = j.contains("tiles");
  if (has_rows && (has_tiles || j.contains("cols")))
    fail(p / (has_tiles ? "tiles" : "cols"), "give either rows or tiles with cols, not both");
  if (has_rows) {
    const Path rp = p / "rows";
    const json& rows = array(j["rows"], rp);
    if (rows.empty()) fail(rp, "must not be empty");
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const Path row_path = rp.at(int(r));
      const json& row = array(rows[r], row_path);
      if (row.empty()) fail(row_path, "must not be empty");
      if (r > 0 && row.size() != rows[0].size())
        fail(row_path, "has " + std::to_string(row.size()) + " tiles, rows[0] has " +
                           std::to_string(rows[0].size()) + " (rows must be equally long)");
      read_tiles(*this, row, row_path, def.materials.size(), def.tiles);
    }
    def.rows = int(rows.size());
    def.cols = int(rows[0].size());
  } else {
    if (!has_tiles) fail(p, "missing key \"rows\" (or \"tiles\" with \"cols\")");
    def.cols = positive_int(require(j, p, "cols"), p / "cols");
    const Path tp = p / "tiles";
    const json& tiles = array(j["tiles"], tp);
    if (tiles.empty()) fail(tp, "must not be empty");
    if (tiles.size() % std::size_t(def.cols) != 0)
      fail(tp, "has " + std::to_string(tiles.size()) + " tiles, not a multiple of cols (" +
                   std::to_string(def.cols) + ")");
    def.rows = int(tiles.size() / std::size_t(def.cols));
    read_tiles(*this, tiles, tp, def.materials.size(), def.tiles);
  }

  const Vec2 far_corner{def.origin.x + float(def.cols) * def.tile_size,
                        def.origin.y - float(def.rows) * def.tile_size};
  for (const Vec2 corner : {def.origin, far_corner})
    if (!is_finite(corner) ||
        std::fmax(std::fabs(corner.x), std::fabs(corner.y)) > limits::kMaxCoordinate)
      fail(p / "origin", "the map reaches beyond the coordinate limit of " +
                             shapes::number_text(limits::kMaxCoordinate) + " m (strut/limits.hpp)");
  return def;
}

}  // namespace strut::scene_read
