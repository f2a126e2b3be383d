// Sorting soft bodies into lane groups by topology (see strut_lanes.hpp).
#include "solver/soft/strut_batching.hpp"

#include <algorithm>
#include <vector>

#include "solver/bodies/body_store.hpp"
#include "solver/core/stores.hpp"
#include "solver/soft/soft_store.hpp"

namespace strut {
namespace {

// Whether body k's struts can run in a lane: a small soft body whose struts stay within its own
// particles (never from one to itself), none of which (particles and struts) a lane body
// claimed before. Bodies made through the API always pass the last two checks; they guard the
// kernel's assumptions (lane bodies' groups run in parallel, so their particles must be
// disjoint; each strut is solved once) against hand-built worlds.
bool fits_a_lane(Stores<ReadsBodies, ReadsParticles, ReadsSoft> w, std::uint32_t k,
                 const std::vector<std::uint8_t>& claimed,
                 const std::vector<std::uint8_t>& batched) {
  const auto& b = w.bodies;
  if ((b.flags[k] & (kSoft | kDead)) != kSoft) return false;
  const std::uint32_t p0 = b.particle_begin[k], pc = b.particle_count[k];
  const std::uint32_t s0 = b.strut_begin[k], sc = b.strut_count[k];
  if (sc == 0 || sc > std::uint32_t(kMaxLaneStruts) || pc > std::uint32_t(kMaxLaneSlots))
    return false;
  if (std::size_t(s0) + sc > w.soft.struts.size() || std::size_t(p0) + pc > w.particles.size())
    return false;
  for (std::uint32_t i = s0; i < s0 + sc; ++i) {
    const Strut& s = w.soft.struts[i];
    if (s.a < p0 || s.a >= p0 + pc || s.b < p0 || s.b >= p0 + pc || s.a == s.b) return false;
    if (batched[i]) return false;
  }
  for (std::uint32_t i = p0; i < p0 + pc; ++i)
    if (claimed[i]) return false;
  return true;
}

// Whether body k (which fits a lane) has topology t: the same particle count and the same
// struts, slot for slot, in the same order.
bool has_topology(Stores<ReadsBodies, ReadsSoft> w, std::uint32_t k, const StrutLanes& L,
                  std::uint32_t t) {
  const auto& b = w.bodies;
  const LaneTopology& top = L.topologies[t];
  if (top.slots != b.particle_count[k] || top.strut_count != b.strut_count[k]) return false;
  const std::uint32_t p0 = b.particle_begin[k];
  for (std::uint32_t i = 0; i < top.strut_count; ++i) {
    const Strut& s = w.soft.struts[b.strut_begin[k] + i];
    const LaneEnds e = L.ends[top.end_begin + i];
    if (s.a - p0 != e.a || s.b - p0 != e.b) return false;
  }
  return true;
}

// Body k's topology, added if new. Bodies of one kind tend to come in runs, so the topology of
// the body before is tried first.
std::uint32_t topology_of(Stores<ReadsBodies, ReadsSoft> w, std::uint32_t k, StrutLanes& L,
                          std::uint32_t hint) {
  if (hint < L.topologies.size() && has_topology(w, k, L, hint)) return hint;
  for (std::uint32_t t = 0; t < L.topologies.size(); ++t)
    if (has_topology(w, k, L, t)) return t;
  const auto& b = w.bodies;
  LaneTopology top;
  top.slots = b.particle_count[k];
  top.end_begin = std::uint32_t(L.ends.size());
  top.strut_count = b.strut_count[k];
  for (std::uint32_t i = b.strut_begin[k]; i < b.strut_begin[k] + b.strut_count[k]; ++i) {
    const Strut& s = w.soft.struts[i];
    const std::uint32_t p0 = b.particle_begin[k];
    L.ends.push_back({std::uint8_t(s.a - p0), std::uint8_t(s.b - p0)});
  }
  L.topologies.push_back(top);
  return std::uint32_t(L.topologies.size() - 1);
}

}  // namespace

void update_strut_lanes(Stores<ReadsBodies, ReadsParticles, WritesSoft> w) {
  StrutLanes& L = w.soft.lanes;
  if (!L.dirty) return;
  L.topologies.clear(), L.ends.clear(), L.groups.clear(), L.rows.clear(), L.other.clear();
  const auto& b = w.bodies;
  std::vector<std::uint8_t> batched(w.soft.struts.size(), 0);
  // Without struts there is nothing to lay out: no pass over the bodies and particles (a world
  // destroying bodies every step would pay it every step).
  if (!w.soft.struts.empty()) {
    // Topologies in order of their first body, each with its bodies in creation order.
    std::vector<std::vector<std::uint32_t>> members;
    std::vector<std::uint8_t> claimed(w.particles.size(), 0);
    std::uint32_t hint = 0;
    for (std::uint32_t k = 0; k < b.size(); ++k) {
      if (!fits_a_lane(w, k, claimed, batched)) continue;
      for (std::uint32_t i = 0; i < b.particle_count[k]; ++i) claimed[b.particle_begin[k] + i] = 1;
      for (std::uint32_t i = 0; i < b.strut_count[k]; ++i) batched[b.strut_begin[k] + i] = 1;
      hint = topology_of(w, k, L, hint);
      if (hint == members.size()) members.emplace_back();
      members[hint].push_back(k);
    }
    for (std::uint32_t t = 0; t < members.size(); ++t) {
      const std::vector<std::uint32_t>& m = members[t];
      const std::uint32_t sc = L.topologies[t].strut_count;
      for (std::size_t g0 = 0; g0 < m.size(); g0 += kLaneBodies) {
        LaneGroup g;
        g.topology = t;
        g.strut_row = std::uint32_t(L.rows.size());
        g.lanes = std::uint32_t(std::min<std::size_t>(kLaneBodies, m.size() - g0));
        L.rows.resize(L.rows.size() + sc);
        LaneStrut* rows = L.rows.data() + g.strut_row;
        for (std::uint32_t l = 0; l < std::uint32_t(kLaneBodies); ++l) {
          const bool used = l < g.lanes;
          const std::uint32_t k = used ? m[g0 + l] : ~0u;
          g.first[l] = used ? std::int32_t(b.particle_begin[k]) : kLanePadding;
          g.body[l] = k;
          for (std::uint32_t i = 0; i < sc; ++i) {
            const Strut* s = used ? &w.soft.struts[b.strut_begin[k] + i] : nullptr;
            rows[i].rest[l] = s ? s->rest : 0.0f;
            rows[i].compliance[l] = s ? s->compliance : 0.0f;
            rows[i].lambda[l] = 0.0f;
          }
        }
        L.groups.push_back(g);
      }
    }
  }
  L.other_count = 0;
  for (std::uint32_t i = 0; i < batched.size(); ++i) {
    if (batched[i]) continue;
    if (!L.other.empty() && L.other.back().end == i)
      ++L.other.back().end;
    else
      L.other.push_back({i, i + 1});
    ++L.other_count;
  }
  L.dirty = false;
  ++L.builds;
}

}  // namespace strut
