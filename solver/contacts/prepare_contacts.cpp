// Once per step, before the substeps: every point between two rigid bodies gets its anchors,
// normal and effective masses at the step's start poses, kContactLanes points at a time through the
// prepare kernel (contact_prepare.hpp), and the constraints go into their SIMD lanes.
#include <algorithm>
#include <array>

#include "solver/bodies/body_store.hpp"
#include "solver/bodies/collider_store.hpp"
#include "solver/contacts/contact_kernel_table.hpp"
#include "solver/contacts/contact_prepare.hpp"
#include "solver/contacts/contact_solver.hpp"
#include "solver/contacts/contact_store.hpp"
#include "solver/contacts/soft_contacts.hpp"
#include "solver/core/step_timing.hpp"
#include "solver/core/stores.hpp"
#include "solver/core/task_system.hpp"
#include "solver/step/step_scratch.hpp"
#include "solver/step/visited_bodies.hpp"

namespace strut {

namespace {

// Gathers the features of a point between two rigid bodies into lane `lane` of f, in their
// bodies' frames (the particles' local positions, which stay put while the body is rigid).
void gather_features(Stores<ReadsBodies, ReadsParticles> w, const ContactPoint &cp, FeatureRows &f,
                     int lane) {
  const auto &b = w.bodies;
  const auto &q = w.particles;
  const std::uint32_t iv = b.particle_begin[cp.body_v] + cp.vertex;
  const std::uint32_t i = b.particle_begin[cp.body_o] + cp.other;
  const std::uint32_t j = cp.kind == ContactKind::VertexVertex ? i : i + q.next[i];
  f.vlx[lane] = q.lx[iv], f.vly[lane] = q.ly[iv];
  f.l1x[lane] = q.lx[i], f.l1y[lane] = q.ly[i], f.l2x[lane] = q.lx[j], f.l2y[lane] = q.ly[j];
  f.edge[lane] = cp.kind == ContactKind::VertexEdge ? 1.0f : 0.0f;
  f.rv[lane] = cp.radius_v, f.ro[lane] = cp.radius_o;
  f.fnx[lane] = cp.nx, f.fny[lane] = cp.ny;
  f.present[lane] = 1.0f;
}

// The rotations lane `lane`'s arms are taken at (WideFeatures::arm_ac...), for the lane's bodies
// a and the other of cp's two: for a face against a face (a pair of two points) those of
// `cache`, its pair's when the features were chosen; otherwise, and for a pair that collides
// afresh every step (no cache), the current ones, (0, 0).
//
// Why faces only: held still while the features are kept (Box2D v3 holds a recycled
// manifold's), the arms of a face contact give a stack no turning push from its own tilt, and
// a column of 20 boxes stands; turned with the bodies it leaned further every step and fell in
// 15 s. Held still under a single corner they would prop a box balanced on that corner, which
// must tip over (Box2D's recycling holds it there).
void gather_arms(const ContactPoint &cp, std::uint32_t a, const PairCache &cache, bool face,
                 WideFeatures &f, int lane) {
  Rot ra{0, 0}, rb{0, 0};
  if (face && cache.margin >= 0) {
    const Rot lower{cache.lower_c, cache.lower_s}, higher = cache.higher();
    const std::uint32_t lower_body = cp.vertex_on_lower ? cp.body_v : cp.body_o;
    ra = a == lower_body ? lower : higher, rb = a == lower_body ? higher : lower;
  }
  f.arm_ac[lane] = ra.c, f.arm_as[lane] = ra.s, f.arm_bc[lane] = rb.c, f.arm_bs[lane] = rb.s;
}

// A lane without a point (padding, or a constraint's missing second point): zero features.
void clear_features(FeatureRows &f, int lane) {
  for (float *row : {f.vlx, f.vly, f.l1x, f.l1y, f.l2x, f.l2y, f.edge, f.rv, f.ro, f.fnx, f.fny,
                     f.present, f.flip})
    row[lane] = 0.0f;
}

PrepareBody prepare_body(Stores<ReadsBodies> w, std::uint32_t k) {
  const auto &b = w.bodies;
  return PrepareBody{b.qc[k], b.qs[k],       b.dx[k],          b.dy[k],
                     b.da[k], b.inv_mass[k], b.inv_inertia[k], 1.0f};
}

// A PrepareBody's eight fields in order, as the rows put_bodies takes.
std::array<float, 8> fields(const PrepareBody &b) {
  return {b.qc, b.qs, b.dx, b.dy, b.da, b.inv_mass, b.inv_inertia, b.push_scale};
}

}  // namespace

PreparedPoint prepare_point(const WorldState &w, const ContactPoint &cp) {
  FeatureRows f;
  PrepareInput in;
  PrepareOutput out;
  gather_features(w, cp, f, 0);
  const auto &b = w.bodies;
  const auto v = fields(prepare_body(w, cp.body_v)), o = fields(prepare_body(w, cp.body_o));
  const float pv[2] = {b.px[cp.body_v], b.py[cp.body_v]};
  const float po[2] = {b.px[cp.body_o], b.py[cp.body_o]};
  wide::put_bodies<float>(v.data(), o.data(), pv, po, true, in, 0);
  in.avc[0] = in.avs[0] = in.aoc[0] = in.aos[0] = 0.0f;  // arms at the current rotations
  wide::prepare_points<float>(f, in, out, 0);
  return PreparedPoint{{out.nx[0], out.ny[0]},
                       {out.rax[0], out.ray[0]},
                       {out.rbx[0], out.rby[0]},
                       out.base[0],
                       out.normal_mass[0],
                       out.tangent_mass[0],
                       out.vn_pre[0]};
}

namespace {

// Fills wide constraint c, whose features are f, with the constraints ids[0 .. kContactLanes)
// of the pairs pairs[0 .. kContactLanes) (~0: an empty lane): gathers the lanes' features,
// prepares them in SIMD (the dispatched kernel, prepare_lanes) or through the scalar twin, then
// copies the accumulated impulses. Lane `lane` runs from body a = a_bodies[lane] (~0: the first
// point's edge body) to the other; a point whose vertex is on a is the same constraint seen from
// the other side: its anchors swap and its normal and tangent impulse change sign.
// `kept`: c and f hold last step's constraints of these lanes, between the same bodies
// (ContactSet::structure_kept), so their bodies, points and flips stand as they are; a lane
// whose pair the contact cache kept (pair_reused) also keeps its features, materials and
// impulses, and costs nothing here but its bodies' positions (a settled pile: nearly every lane;
// gathered afresh, the features' scattered reads were most of a settled pile's prepare).
// `relaid` (with kept): the points lie elsewhere than last step (ContactSet::points_relaid), so
// every lane takes its points' new places, and the lanes refilled are filled as afresh.
// `kernels`: contact_kernels(), asked once per chunk of constraints.
void fill_constraint(Stores<ReadsBodies, ReadsParticles, ReadsContacts, ReadsScratch> w,
                     WideConstraint &c, WideFeatures &f, const std::uint32_t *ids,
                     const std::uint32_t *pairs, const std::uint32_t *a_bodies, bool kept,
                     bool relaid, const ContactKernels &kernels) {
  const auto &set = w.contacts;
  const auto &b = w.bodies;
  const auto &s = w.scratch;
  bool refill[kContactLanes];
  if (!kept)
    for (int lane = 0; lane < kContactLanes; ++lane) f.pair[lane] = pairs[lane];
  bool any_refill = false;  // none: the per-lane loops over the points have nothing to do
  for (int lane = 0; lane < kContactLanes; ++lane) {
    refill[lane] = f.pair[lane] != ~0u && !(kept && set.pair_reused[f.pair[lane]]);
    any_refill |= refill[lane];
  }
  // The points to read lie anywhere in the point list (it is in pair order, lanes in colour
  // order): ask for all of them before reading any, so their cache misses overlap.
  for (int lane = 0; lane < kContactLanes && any_refill; ++lane)
    if (refill[lane]) {
      const char *first =
          reinterpret_cast<const char *>(&set.points[set.constraint_first[ids[lane]]]);
      __builtin_prefetch(first), __builtin_prefetch(first + sizeof(ContactPoint));
    }
  for (int lane = 0; lane < kContactLanes; ++lane) {
    const std::uint32_t id = ids[lane];
    if (id == ~0u) {
      c.a[lane] = c.b[lane] = std::uint32_t(b.size());  // the spare zero body
      if (kept) continue;
      c.friction[lane] = c.static_friction[lane] = f.restitution[lane] = 0;
      f.arm_ac[lane] = f.arm_as[lane] = f.arm_bc[lane] = f.arm_bs[lane] = 0;
      for (int k = 0; k < 2; ++k) {
        clear_features(f.p[k], lane);
        f.p[k].point[lane] = ~0u;
      }
      continue;
    }
    if (!refill[lane]) {
      // A reused pair keeps its count of points: only their places change.
      if (relaid)
        for (std::uint32_t k = 0; k < 2; ++k)
          f.p[k].point[lane] = k < set.constraint_count[id] ? set.constraint_first[id] + k : ~0u;
      continue;
    }
    const ContactPoint &cp = set.points[set.constraint_first[id]];
    c.friction[lane] = cp.friction, c.static_friction[lane] = cp.static_friction;
    f.restitution[lane] = cp.restitution;
    if (kept && !relaid) {
      for (int k = 0; k < 2; ++k) {
        const std::uint32_t point = f.p[k].point[lane];
        if (point == ~0u) continue;  // stays cleared
        // Collided afresh, a pair keeps its first point's bodies (ContactSet::same_layout), but
        // its second point's vertex may now lie on the other body.
        const ContactPoint &pk = set.points[point];
        gather_features(w, pk, f.p[k], lane);
        f.p[k].flip[lane] = pk.body_v == c.a[lane] ? 1.0f : 0.0f;
      }
      gather_arms(cp, c.a[lane], set.pair_cache[f.pair[lane]], set.constraint_count[id] == 2, f,
                  lane);
      continue;
    }
    const std::uint32_t k0 = set.constraint_first[id], n = set.constraint_count[id];
    const std::uint32_t a = a_bodies[lane] != ~0u ? a_bodies[lane] : cp.body_o;
    c.a[lane] = a, c.b[lane] = a == cp.body_o ? cp.body_v : cp.body_o;
    gather_arms(cp, a, set.pair_cache[f.pair[lane]], n == 2, f, int(lane));
    for (std::uint32_t k = 0; k < 2; ++k) {
      if (k < n) {
        const ContactPoint &pk = set.points[k0 + k];
        gather_features(w, pk, f.p[k], int(lane));
        f.p[k].flip[lane] = pk.body_v == a ? 1.0f : 0.0f;
        f.p[k].point[lane] = k0 + k;
      } else {
        clear_features(f.p[k], int(lane));
        f.p[k].point[lane] = ~0u;
      }
    }
  }
  // The bodies' positions at the step start (the spare zero body's: the origin).
  LanePositions positions;
  for (int lane = 0; lane < kContactLanes; ++lane) {
    const std::uint32_t a = c.a[lane], o = c.b[lane];
    positions.ax[lane] = s.p0x[a], positions.ay[lane] = s.p0y[a];
    positions.bx[lane] = s.p0x[o], positions.by[lane] = s.p0y[o];
  }
  const PrepareBody *bodies = s.prepare_bodies.data();
  kernels.prepare(bodies, positions, f, c);

  // Lane by lane straight into the constraint: staged in a scratch row and reloaded as one
  // vector, the 16 scalar stores could not be forwarded to the load (a sixth of this function).
  for (int k = 0; k < 2 && (!kept || any_refill); ++k) {
    WidePoint &p = c.p[k];
    const FeatureRows &rows = f.p[k];
    for (int lane = 0; lane < kContactLanes; ++lane) {
      if (kept && !refill[lane]) continue;
      const bool flipped = rows.flip[lane] != 0;
      if (rows.point[lane] == ~0u) {
        p.lambda_n[lane] = p.lambda_t[lane] = p.sliding[lane] = 0;
        continue;
      }
      const ContactPoint &cp = set.points[rows.point[lane]];
      p.lambda_n[lane] = cp.lambda_n;
      p.lambda_t[lane] = flipped ? -cp.lambda_t : cp.lambda_t;  // the mirrored row's sign
      p.sliding[lane] = cp.sliding ? 1.0f : 0.0f;
    }
  }
  // Restitution answers an impact: a point already pressed when the step begins (it carries a
  // normal impulse from the last step) is not one, whatever its approach, and gets no bounce
  // (its approach is set to 0). Otherwise, in a pile of elastic circles, pressed points that
  // others drove together faster than the restitution threshold bounce apart, and the pile gains
  // energy (Box2D v3, which bounces them too, gains some).
  // (As a select, without a branch, so that the compiler does the lanes in vectors.)
  for (int k = 0; k < 2; ++k)
    for (int lane = 0; lane < kContactLanes; ++lane)
      f.p[k].vn_pre[lane] = c.p[k].lambda_n[lane] > 0 ? 0.0f : f.p[k].vn_pre[lane];
}

// The surface rows of wide constraint c (WideSurface), from its lanes' pairs' colliders (the
// targets in displacement per substep); whether any lane has one. The rolling impulse starts
// from 0 every step: it is warm-started across the substeps only.
bool fill_surface(Stores<ReadsTiming, ReadsColliders, ReadsContacts> w, const WideConstraint &c,
                  const WideFeatures &f, WideSurface &s) {
  const auto &set = w.contacts;
  const auto &col = w.colliders;
  bool any = false;
  for (int lane = 0; lane < kContactLanes; ++lane) {
    s.tangent[lane] = s.rolling[lane] = s.rolling_mass[lane] = s.lambda_r[lane] = 0;
    const std::uint32_t pair = f.pair[lane];
    if (pair == ~0u) continue;
    const std::uint64_t key = set.pair_keys[pair];
    const std::uint32_t i = w.colliders.slots[std::uint32_t(key >> 32)].dense;
    const std::uint32_t j = w.colliders.slots[std::uint32_t(key & 0xFFFFFFFFu)].dense;
    const float speed = col.tangent_speed[i] + col.tangent_speed[j];
    const float rolling = std::max(col.rolling_resistance[i], col.rolling_resistance[j]) *
                          std::max(col.radius[i], col.radius[j]);
    if (speed == 0 && rolling == 0) continue;
    any = true;
    s.tangent[lane] = speed * w.timing.last_h;
    s.rolling[lane] = rolling;
    const float k = c.iia[lane] + c.iib[lane];
    s.rolling_mass[lane] = rolling > 0 && k > 0 ? 1.0f / k : 0.0f;
  }
  return any;
}

}  // namespace

namespace {

// The serial half of the prepare: decides where each constraint goes, colour by colour (a wide
// lane; lanes stacked in groups for pairs of several constraints; the generic list for pairs
// touching a soft body). Writes scratch.wide_lane_ids and wide_lane_a, the work items and the
// generic pairs.
void assign_lanes(Stores<WritesContacts, WritesScratch> w) {
  auto &s = w.scratch;
  auto &set = w.contacts;
  const Colouring &c = w.contacts.colours;
  auto &lanes = s.wide_lane_ids;  // constraint of each lane; ~0 pads a wide constraint
  auto &lane_a = s.wide_lane_a;   // body a of each lane (~0: the first point's edge body)
  auto &lane_pairs = s.wide_lane_pairs;
  lanes.clear();
  lane_a.clear();
  lane_pairs.clear();
  set.work.clear();
  set.generic_pairs.clear();
  // No constraint (every island asleep, or nothing touching): no lanes, every colour empty.
  if (c.begin[kOverflowColour + 1] == 0) {
    set.colour_work_begin.assign(kOverflowColour + 2, 0);
    return;
  }
  set.colour_work_begin.assign(1, 0);
  auto pad = [&] {
    while (lanes.size() % kContactLanes != 0) lanes.push_back(~0u), lane_pairs.push_back(~0u);
  };
  const auto wide_count = [&] { return std::uint32_t(lanes.size() / kContactLanes); };
  for (int colour = 0; colour <= kOverflowColour; ++colour) {
    // Pairs of one constraint, kContactLanes to a wide constraint solved in SIMD lanes.
    const std::uint32_t simd_first = wide_count();
    for (std::uint32_t i = c.begin[colour]; i < c.begin[colour + 1]; ++i) {
      const std::uint32_t p = c.order[i];
      const std::uint32_t first = set.pair_constraint_begin[p];
      if (set.constraint_count[first] == 0)
        set.generic_pairs.push_back(p);
      else if (set.pair_constraint_begin[p + 1] - first == 1)
        lanes.push_back(first), lane_pairs.push_back(p);
    }
    pad();
    lane_a.resize(lanes.size(), ~0u);
    for (std::uint32_t k = simd_first; k < wide_count(); ++k) set.work.push_back({k, 1});
    // Pairs of several constraints (fast pairs), kContactLanes at a time: wide constraint k of a
    // group holds constraint k of each of its pairs, and the group is one work item, so a pair's
    // constraints are solved in order in one lane. Sorted by count, a group pads little.
    auto &multi = s.multi_pairs;
    multi.clear();
    for (std::uint32_t i = c.begin[colour]; i < c.begin[colour + 1]; ++i) {
      const std::uint32_t p = c.order[i];
      const std::uint32_t first = set.pair_constraint_begin[p];
      if (set.pair_constraint_begin[p + 1] - first >= 2 && set.constraint_count[first] != 0)
        multi.push_back(p);
    }
    const auto constraints = [&](std::uint32_t p) {
      return set.pair_constraint_begin[p + 1] - set.pair_constraint_begin[p];
    };
    std::stable_sort(multi.begin(), multi.end(), [&](std::uint32_t x, std::uint32_t y) {
      return constraints(x) > constraints(y);
    });
    for (std::size_t g = 0; g < multi.size(); g += kContactLanes) {
      const std::size_t n = std::min<std::size_t>(kContactLanes, multi.size() - g);
      const std::uint32_t depth = constraints(multi[g]), at = wide_count();
      for (std::uint32_t k = 0; k < depth; ++k)
        for (std::size_t lane = 0; lane < std::size_t(kContactLanes); ++lane) {
          const std::uint32_t p = lane < n ? multi[g + lane] : ~0u;
          const bool here = p != ~0u && k < constraints(p);
          lanes.push_back(here ? set.pair_constraint_begin[p] + k : ~0u);
          lane_pairs.push_back(here ? p : ~0u);
          // Every layer of a lane runs between the same two bodies, in the same direction, so
          // the group gathers and scatters its bodies once.
          lane_a.push_back(p != ~0u ? set.points[set.pair_begin[p]].body_o : ~0u);
        }
      set.work.push_back({at, depth});
    }
    set.colour_work_begin.push_back(std::uint32_t(set.work.size()));
  }
  std::sort(set.generic_pairs.begin(), set.generic_pairs.end());
}

}  // namespace

// Box2D's prepare, in two parts: a serial pass over the pairs in colour order that only decides
// where each constraint goes (assign_lanes; skipped when the contact structure is last step's,
// colour_contacts), then a parallel pass that fills the lanes from the bodies' poses.
void prepare_contacts(Stores<RunsTasks, ReadsTiming, WritesBodies, ReadsColliders, ReadsParticles,
                             WritesContacts, WritesScratch>
                          w) {
  auto &b = w.bodies;
  auto &s = w.scratch;
  const std::size_t n = b.size();
  s.p0x.resize(n + 1), s.p0y.resize(n + 1), s.q0c.resize(n), s.q0s.resize(n);
  s.p0x[n] = s.p0y[n] = 0.0f;  // the spare zero body's position (padding lanes)
  s.solver_bodies.resize(n + 1);
  s.solver_bodies[n] = SolverBody{};  // the spare zero body that pads wide lanes
  s.prepare_bodies.resize(n + 1);
  s.prepare_bodies[n] = PrepareBody{};
  const bool crowded = !s.body_pushes.empty();  // else every body's push scale is 1
  const auto prepare = [&](int lo, int hi) {
    for (int k = lo; k < hi; ++k) {
      s.p0x[k] = b.px[k], s.p0y[k] = b.py[k], s.q0c[k] = b.qc[k], s.q0s[k] = b.qs[k];
      s.prepare_bodies[std::size_t(k)] = prepare_body(w, std::uint32_t(k));
      if (crowded)
        s.prepare_bodies[std::size_t(k)].push_scale = push_out_scale(s.body_pushes[std::size_t(k)]);
    }
  };
  // The visited bodies; an idle one keeps the rows of its last visit. Push scales other than 1
  // belong to the bodies raise_pushes listed (colour_contacts.cpp): last step's go back to 1 and
  // this step's get theirs, visited or not. Counted per body from the overflow colour
  // (dense_pushes, this step's or the last), any body may have one: every row then.
  if (s.dense_pushes || s.dense_pushes_left) {
    w.tasks.parallel_for(int(n), TaskSystem::even_grain(int(n)),
                         [&](int lo, int hi, int) { prepare(lo, hi); });
  } else {
    parallel_for_runs(w, s.body_runs, prepare);
    for (const std::uint32_t k : s.scaled_bodies)
      if (k < n) s.prepare_bodies[k].push_scale = 1.0f;
    if (crowded)
      for (const std::uint32_t k : s.pushed_bodies)
        s.prepare_bodies[k].push_scale = push_out_scale(s.body_pushes[k]);
    if (crowded)
      s.scaled_bodies = s.pushed_bodies;
    else
      s.scaled_bodies.clear();
  }
  s.dense_pushes_left = s.dense_pushes;
  auto &set = w.contacts;
  if (!set.structure_kept) assign_lanes(w);
  const auto &lanes = s.wide_lane_ids, &lane_a = s.wide_lane_a, &lane_pairs = s.wide_lane_pairs;
  // Rebuilt lanes start from the points: the reused ones take their impulses back from last
  // step's lanes first (the narrow phase pulled them already unless every pair kept its place).
  if (!set.structure_kept) pull_impulses(w, set.points, true);
  set.wide.resize(lanes.size() / kContactLanes);
  set.wide_features.resize(set.wide.size());
  set.wide_flags.resize(set.wide.size());
  const bool surfaces = w.colliders.surface_count != 0;
  if (surfaces)
    set.wide_surface.resize(set.wide.size());
  else
    set.wide_surface.clear();
  // Rebuilt lanes read the impulses from the points (pulled back above) and
  // record which lane holds each point; kept lanes hold the same points as before, at the same
  // places unless they were re-laid.
  const bool placed = !set.structure_kept || set.points_relaid;
  if (placed) set.point_lane.assign(set.points.size(), ~0u);
  w.tasks.parallel_for(int(set.wide.size()), 16, [&](int lo, int hi, int) {
    const ContactKernels &kernels = contact_kernels();
    for (int i = lo; i < hi; ++i) {
      const std::size_t at = std::size_t(i) * kContactLanes;
      WideFeatures &f = set.wide_features[std::size_t(i)];
      WideConstraint &c = set.wide[std::size_t(i)];
      fill_constraint(w, c, f, lanes.data() + at, lane_pairs.data() + at, lane_a.data() + at,
                      set.structure_kept, set.points_relaid, kernels);
      bool rounded = false;  // ContactSet::wide_flags
      for (int lane = 0; lane < kContactLanes; ++lane)
        rounded = rounded || c.radius_a[lane] != 0 || c.radius_b[lane] != 0;
      std::uint8_t flags = rounded ? kRoundedLanes : 0;
      if (surfaces && fill_surface(w, c, f, set.wide_surface[std::size_t(i)]))
        flags |= kSurfaceLanes;
      set.wide_flags[std::size_t(i)] = flags;
      if (!placed) continue;
      for (int k = 0; k < 2; ++k)
        for (int lane = 0; lane < kContactLanes; ++lane)
          if (f.p[k].point[lane] != ~0u)
            set.point_lane[f.p[k].point[lane]] = point_lane_code(std::uint32_t(i), k, lane);
    }
  });
  // Points touching a soft body are evaluated afresh by every pass; here only
  // their approach.
  for (std::uint32_t p : set.generic_pairs)
    for (std::uint32_t k = set.pair_begin[p]; k < set.pair_begin[p + 1]; ++k)
      prepare_soft_point(w, set.points[k]);
}

}  // namespace strut
