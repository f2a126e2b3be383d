// Every pair of collider kinds against a brute-force reference: circles, plain and rounded
// polygons, capsules, segments and chain segments placed at random. The reference works in
// double on the cores (the vertex sets without their radii): whether they intersect (edge
// crossings and containment), their exact distance when apart (every vertex against every edge),
// and their penetration depth when they overlap (projection overlap over every edge normal of
// both, the exact minimum for convex sets). The grown shapes then overlap by the radii more.
//
// Checked per pair: contact iff overlap (away from a rounding band), the depth and normal of the
// deepest point, every point re-evaluated from its features alone (the formulas the world uses
// every substep), and at most two points.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "solver/collide/manifold.hpp"
#include "solver/shapes/shape_ops.hpp"

namespace strut::collide {
namespace {

enum class Kind { Circle, Polygon, Rounded, Capsule, Segment, Chain };
constexpr Kind kKinds[] = {Kind::Circle,  Kind::Polygon, Kind::Rounded,
                           Kind::Capsule, Kind::Segment, Kind::Chain};
const char* name_of(Kind k) {
  switch (k) {
    case Kind::Circle:
      return "circle";
    case Kind::Polygon:
      return "polygon";
    case Kind::Rounded:
      return "rounded";
    case Kind::Capsule:
      return "capsule";
    case Kind::Segment:
      return "segment";
    case Kind::Chain:
      return "chain";
  }
  return "";
}

// Owns the arrays a ShapeView points into.
struct Collider {
  Kind kind = Kind::Polygon;
  std::vector<float> x, y;
  float radius = 0.0f;
  ShapeView view() const {
    ShapeView v;
    switch (kind) {
      case Kind::Circle:
        v.kind = ColliderKind::Circle;
        break;
      case Kind::Polygon:
      case Kind::Rounded:
        v.kind = ColliderKind::Polygon;
        break;
      case Kind::Capsule:
      case Kind::Segment:
        v.kind = ColliderKind::Capsule;
        break;
      case Kind::Chain:
        v.kind = ColliderKind::ChainSegment;
        break;
    }
    v.x = x.data();
    v.y = y.data();
    v.count = static_cast<int>(x.size());
    v.radius = radius;
    return v;
  }
  Vec2 at(int i) const { return {x[i], y[i]}; }
  int count() const { return static_cast<int>(x.size()); }
};

// Convex hull (monotone chain), counter-clockwise, collinear points dropped.
std::vector<Vec2> hull_of(std::vector<Vec2> pts) {
  std::sort(pts.begin(), pts.end(),
            [](Vec2 p, Vec2 q) { return p.x < q.x || (p.x == q.x && p.y < q.y); });
  std::vector<Vec2> h(2 * pts.size());
  std::size_t k = 0;
  auto turn = [](Vec2 o, Vec2 p, Vec2 q) {
    return (double(p.x) - o.x) * (double(q.y) - o.y) - (double(p.y) - o.y) * (double(q.x) - o.x);
  };
  for (std::size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && turn(h[k - 2], h[k - 1], pts[i]) <= 0) --k;
    h[k++] = pts[i];
  }
  for (std::size_t i = pts.size() - 1, t = k + 1; i-- > 0;) {
    while (k >= t && turn(h[k - 2], h[k - 1], pts[i]) <= 0) --k;
    h[k++] = pts[i];
  }
  h.resize(k > 0 ? k - 1 : 0);
  return h;
}

Collider random_collider(std::mt19937& rng, Kind kind, Vec2 centre) {
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_real_distribution<float> size(0.1f, 2.5f);
  std::uniform_real_distribution<float> rounding(0.02f, 0.6f);
  std::uniform_real_distribution<float> angle(0.0f, 2.0f * std::numbers::pi_v<float>);
  Collider c;
  c.kind = kind;
  const Rot q = make_rot(angle(rng));
  auto push = [&](Vec2 local) {
    const Vec2 w = centre + rotate(q, local);
    c.x.push_back(w.x);
    c.y.push_back(w.y);
  };
  switch (kind) {
    case Kind::Circle:
      push({0.0f, 0.0f});
      c.radius = size(rng) * 0.6f;
      break;
    case Kind::Capsule:
    case Kind::Segment:
    case Kind::Chain: {
      const float h = size(rng) * 0.8f;
      push({-h, 0.0f});
      push({h, 0.0f});
      c.radius = kind == Kind::Capsule ? rounding(rng) * 1.5f : 0.0f;
      break;
    }
    case Kind::Polygon:
    case Kind::Rounded:
      for (;;) {
        std::uniform_int_distribution<int> count(3, 12);
        const int n = count(rng);
        const float sx = size(rng), sy = size(rng);
        std::vector<Vec2> pts;
        for (int i = 0; i < n; ++i) pts.push_back({sx * unit(rng), sy * unit(rng)});
        const std::vector<Vec2> h = hull_of(pts);
        bool ok = h.size() >= 3;
        for (std::size_t i = 0; ok && i < h.size(); ++i)
          ok = length(h[(i + 1) % h.size()] - h[i]) > 1e-2f;
        if (!ok) continue;
        for (const Vec2 v : h) push(v);
        break;
      }
      c.radius = kind == Kind::Rounded ? rounding(rng) : 0.0f;
      break;
  }
  return c;
}

// --- the reference, in double --------------------------------------------------------------

struct D2 {
  double x, y;
};
D2 d2(Vec2 v) { return {v.x, v.y}; }
D2 sub(D2 a, D2 b) { return {a.x - b.x, a.y - b.y}; }
double dotd(D2 a, D2 b) { return a.x * b.x + a.y * b.y; }
double crossd(D2 a, D2 b) { return a.x * b.y - a.y * b.x; }

// Closest point of segment p-q to r.
D2 closest_on_segment(D2 r, D2 p, D2 q) {
  const D2 pq = sub(q, p);
  const double ll = dotd(pq, pq);
  const double t = ll > 0 ? std::clamp(dotd(sub(r, p), pq) / ll, 0.0, 1.0) : 0.0;
  return {p.x + t * pq.x, p.y + t * pq.y};
}

bool segments_cross(D2 a, D2 b, D2 c, D2 d) {
  const double o1 = crossd(sub(b, a), sub(c, a)), o2 = crossd(sub(b, a), sub(d, a));
  const double o3 = crossd(sub(d, c), sub(a, c)), o4 = crossd(sub(d, c), sub(b, c));
  return ((o1 > 0) != (o2 > 0)) && ((o3 > 0) != (o4 > 0)) && o1 != 0 && o2 != 0 && o3 != 0 &&
         o4 != 0;
}

bool inside_polygon(const Collider& p, D2 r) {
  if (p.count() < 3) return false;
  for (int e = 0; e < p.count(); ++e) {
    const D2 a = d2(p.at(e)), b = d2(p.at((e + 1) % p.count()));
    if (crossd(sub(b, a), sub(r, a)) < 0) return false;
  }
  return true;
}

struct Reference {
  bool cores_overlap = false;
  double separation = 0;  // between the grown surfaces, < 0 overlap
  D2 normal{0, 0};        // cores apart: from A's closest point to B's
};

// Edges of a core as vertex pairs (a two-vertex core: its one segment).
std::vector<std::pair<D2, D2>> edges_of(const Collider& c) {
  std::vector<std::pair<D2, D2>> out;
  if (c.count() == 2) out.push_back({d2(c.at(0)), d2(c.at(1))});
  if (c.count() >= 3)
    for (int e = 0; e < c.count(); ++e) out.push_back({d2(c.at(e)), d2(c.at((e + 1) % c.count()))});
  return out;
}

double longest_edge(const Collider& c) {
  double l = 0;
  for (const auto& [p, q] : edges_of(c)) l = std::max(l, std::hypot(q.x - p.x, q.y - p.y));
  return l;
}

double overlap_along(const Collider& a, const Collider& b, D2 n) {
  double alo = 1e300, ahi = -1e300, blo = 1e300, bhi = -1e300;
  for (int i = 0; i < a.count(); ++i) {
    const double s = dotd(d2(a.at(i)), n);
    alo = std::min(alo, s), ahi = std::max(ahi, s);
  }
  for (int i = 0; i < b.count(); ++i) {
    const double s = dotd(d2(b.at(i)), n);
    blo = std::min(blo, s), bhi = std::max(bhi, s);
  }
  return std::min(ahi - blo, bhi - alo);
}

Reference reference(const Collider& a, const Collider& b) {
  Reference ref;
  const double radii = double(a.radius) + b.radius;
  const auto ea = edges_of(a), eb = edges_of(b);
  bool overlap = false;
  for (const auto& [p, q] : ea)
    for (const auto& [r, s] : eb) overlap = overlap || segments_cross(p, q, r, s);
  for (int i = 0; i < a.count() && !overlap; ++i) overlap = inside_polygon(b, d2(a.at(i)));
  for (int i = 0; i < b.count() && !overlap; ++i) overlap = inside_polygon(a, d2(b.at(i)));
  ref.cores_overlap = overlap;
  if (overlap) {
    double depth = 1e300;
    for (const auto* edges : {&ea, &eb}) {
      for (const auto& [p, q] : *edges) {
        const D2 e = sub(q, p);
        const double len = std::hypot(e.x, e.y);
        depth = std::min(depth, overlap_along(a, b, {e.y / len, -e.x / len}));
      }
    }
    ref.separation = -depth - radii;
    return ref;
  }
  // Apart: the nearest pair is a vertex of one against an edge (or the vertex) of the other.
  double best = 1e300;
  auto consider = [&](D2 pa, D2 pb) {
    const double d = std::hypot(pb.x - pa.x, pb.y - pa.y);
    if (d < best) {
      best = d;
      ref.normal = {(pb.x - pa.x) / d, (pb.y - pa.y) / d};
    }
  };
  for (int i = 0; i < a.count(); ++i)
    for (int j = 0; j < b.count(); ++j) consider(d2(a.at(i)), d2(b.at(j)));
  for (int i = 0; i < a.count(); ++i)
    for (const auto& [p, q] : eb) consider(d2(a.at(i)), closest_on_segment(d2(a.at(i)), p, q));
  for (int j = 0; j < b.count(); ++j)
    for (const auto& [p, q] : ea) consider(closest_on_segment(d2(b.at(j)), p, q), d2(b.at(j)));
  ref.separation = best - radii;
  return ref;
}

// --- the feature forms ---------------------------------------------------------------------

Vec2 edge_normal_of(const Collider& c, int e) {
  const Vec2 p = c.at(e), q = c.at((e + 1) % c.count());
  const Vec2 d = q - p;
  const float len = length(d);
  return {d.y / len, -d.x / len};
}

// What the world computes from a feature alone; the narrow phase must have reported the same.
void expect_feature_form(const ContactFeature& f, const Collider& a, const Collider& b, double tol,
                         const std::string& what) {
  const Collider& vp = f.vertex_on_a ? a : b;
  const Collider& op = f.vertex_on_a ? b : a;
  ASSERT_LT(int(f.vertex), vp.count()) << what;
  ASSERT_LT(int(f.other), op.count() == 1 ? 1 : op.count()) << what;
  const float radii = a.radius + b.radius;
  const Vec2 v = vp.at(f.vertex);
  if (f.kind == FeatureKind::VertexEdge) {
    ASSERT_GE(op.count(), 2) << what << ": an edge needs two vertices";
    const Vec2 n = edge_normal_of(op, f.other);
    const float sep = dot(n, v - op.at(f.other)) - radii;
    EXPECT_NEAR(f.separation, sep, tol) << what;
    const Vec2 expected = f.vertex_on_a ? -n : n;
    EXPECT_NEAR(f.normal.x, expected.x, 1e-5) << what;
    EXPECT_NEAR(f.normal.y, expected.y, 1e-5) << what;
  } else {
    const Vec2 o = op.at(f.other);
    const float dist = length(v - o);
    EXPECT_NEAR(f.separation, dist - radii, tol) << what;
    if (dist > 1e-4f) {
      const Vec2 ab = f.vertex_on_a ? o - v : v - o;  // A to B
      EXPECT_NEAR(f.normal.x, ab.x / dist, 1e-4) << what;
      EXPECT_NEAR(f.normal.y, ab.y / dist, 1e-4) << what;
    }
  }
  EXPECT_NEAR(length(f.normal), 1.0f, 1e-5f) << what;
}

struct PairStats {
  int pairs = 0, overlapping = 0, apart = 0, borderline = 0, two_points = 0, vertex_pairs = 0;
  int depth_checked = 0;
  double worst_depth = 0;
};

// One placement of A (centred near `ca`) and B checked against the reference; false once a
// check has failed.
bool check_pair(const Collider& a, const Collider& b, Vec2 ca, const std::string& what,
                PairStats& st) {
  const Kind ka = a.kind, kb = b.kind;
  const bool chain_involved = ka == Kind::Chain || kb == Kind::Chain;
  const Reference ref = reference(a, b);
  const double tol = 3e-5 * (1.0 + std::max(std::fabs(ca.x), std::fabs(ca.y)));
  ++st.pairs;
  const Manifold m0 = collide(a.view(), b.view(), 0.0f);
  if (std::fabs(ref.separation) <= tol) {
    ++st.borderline;
  } else {
    EXPECT_EQ(m0.count > 0, ref.separation < 0)
        << what << ": reference separation " << ref.separation;
  }
  ref.separation < 0 ? ++st.overlapping : ++st.apart;

  // With a generous margin every pair within reach reports; check all points and the deepest.
  const float margin = 1.0f;
  const Manifold m = collide(a.view(), b.view(), margin);
  EXPECT_LE(m.count, 2) << what;
  st.two_points += m.count == 2;
  float deepest = INFINITY;
  int deepest_index = -1;
  for (int i = 0; i < m.count; ++i) {
    EXPECT_LT(m.points[i].separation, margin) << what;
    expect_feature_form(m.points[i], a, b, 2.0 * tol, what + " point " + std::to_string(i));
    st.vertex_pairs += m.points[i].kind == FeatureKind::VertexVertex;
    if (m.points[i].separation < deepest) deepest = m.points[i].separation, deepest_index = i;
  }
  const bool sharp =
      a.radius == 0.0f && b.radius == 0.0f && ka != Kind::Circle && kb != Kind::Circle;
  if (sharp && !ref.cores_overlap) {
    // Two sharp cores apart (polygons, segments): the SAT face gap, a lower bound on the
    // distance (corner to corner it is less), as the polygon path has always reported it.
    // (Clipping may also leave no point below the margin while the faces' gap is below it.)
    if (m.count > 0) {
      EXPECT_LE(double(deepest), ref.separation + 2.0 * tol) << what;
    }
  } else if (ref.separation < margin - 0.05 && !(chain_involved && ref.cores_overlap)) {
    // Within the margin: the deepest point is the exact separation. A chain segment picks the
    // side facing the other shape's centre, so through a crossed core its depth is the
    // one-sided one, checked below instead.
    EXPECT_GT(m.count, 0) << what << ": reference separation " << ref.separation;
    if (m.count > 0) {
      // Two faces whose gaps differ by less than 1e-3 of the shorter longest edge tie, and
      // the narrow phase keeps A's (so resting contacts do not swap roles): that much slack.
      const double slack = 2.0 * tol + 1e-3 * std::min(longest_edge(a), longest_edge(b));
      const ContactFeature& f = m.points[deepest_index];
      const double radii = double(a.radius) + b.radius;
      // A point never claims more gap than there is.
      EXPECT_LE(double(deepest), ref.separation + slack) << what;
      // Speculative points further apart than this may be measured along a clipped face's
      // normal (a lower bound, as the polygon path always has); touching, overlapping, and
      // corner to corner the deepest point is the exact separation.
      const bool exact = ref.separation < 0.02 || f.kind == FeatureKind::VertexVertex;
      if (!exact) return !::testing::Test::HasFailure();
      ++st.depth_checked;
      const double err = std::fabs(double(deepest) - ref.separation);
      st.worst_depth = std::max(st.worst_depth, err);
      EXPECT_LE(err, slack) << what << ": deepest " << deepest << " reference " << ref.separation;
      if (f.kind == FeatureKind::VertexVertex && !ref.cores_overlap &&
          ref.separation + radii > 1e-3) {
        // Corner to corner: the only direction of that separation is between the closest points.
        EXPECT_NEAR(f.normal.x, ref.normal.x, 2e-3) << what;
        EXPECT_NEAR(f.normal.y, ref.normal.y, 2e-3) << what;
      }
      // Any feature: the shapes' gap along the reported normal is the separation (a face
      // normal of least penetration, or the direction between the closest points).
      const double gap = -overlap_along(a, b, d2(f.normal)) - radii;
      EXPECT_NEAR(gap, ref.separation, slack + 1e-4) << what;
    }
  } else if (chain_involved && ref.cores_overlap) {
    // One-sided: never shallower than the true depth, never deeper than the other shape
    // reaches behind the face that looks at its centre.
    EXPECT_GT(m.count, 0) << what;
    if (m.count > 0) {
      const Collider& chain = ka == Kind::Chain ? a : b;
      const Collider& other = ka == Kind::Chain ? b : a;
      D2 centre{0, 0};
      for (int i = 0; i < other.count(); ++i)
        centre.x += other.x[i] / other.count(), centre.y += other.y[i] / other.count();
      const D2 v0 = d2(chain.at(0)), along = sub(d2(chain.at(1)), v0);
      const double len = std::hypot(along.x, along.y);
      D2 face{along.y / len, -along.x / len};
      if (dotd(face, sub(centre, v0)) < 0) face = {-face.x, -face.y};
      double face_gap = 1e300;
      for (int i = 0; i < other.count(); ++i)
        face_gap = std::min(face_gap, dotd(face, sub(d2(other.at(i)), v0)));
      face_gap -= other.radius;
      const double slack = 2.0 * tol + 1e-3 * std::min(longest_edge(a), longest_edge(b));
      EXPECT_LE(double(deepest), ref.separation + slack) << what;
      EXPECT_GE(double(deepest), face_gap - slack) << what;
      ++st.depth_checked;
    }
  }
  return !::testing::Test::HasFailure();
}

// The farthest reach of a collider's surface from `centre`.
float reach(const Collider& c, Vec2 centre) {
  float r = 0;
  for (int i = 0; i < c.count(); ++i) r = std::max(r, length(c.at(i) - centre));
  return r + c.radius;
}

// One pair of kinds, `count` random placements.
PairStats run_pair(Kind ka, Kind kb, int count, unsigned seed) {
  PairStats st;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> place(-20.0f, 20.0f);
  std::uniform_real_distribution<float> unit01(0.0f, 1.0f);
  std::uniform_real_distribution<float> angle(0.0f, 2.0f * std::numbers::pi_v<float>);
  for (int pair = 0; pair < count; ++pair) {
    const Vec2 ca = {place(rng), place(rng)};
    const Collider a = random_collider(rng, ka, ca);
    // Offset B by up to 1.5x the two shapes' reach: about half the pairs overlap.
    const Rot dir = make_rot(angle(rng));
    Collider b = random_collider(rng, kb, {0.0f, 0.0f});
    const float span = reach(a, ca) + reach(b, {0.0f, 0.0f});
    const Vec2 cb = ca + (1.5f * span * unit01(rng)) * Vec2{dir.c, dir.s};
    for (int i = 0; i < b.count(); ++i) b.x[i] += cb.x, b.y[i] += cb.y;
    const std::string what =
        std::string(name_of(ka)) + " vs " + name_of(kb) + ", pair " + std::to_string(pair);
    if (!check_pair(a, b, ca, what, st)) break;
  }
  return st;
}

TEST(CollidePairs, EveryPairOfKindsMatchesBruteForce) {
  unsigned seed = 1000;
  for (const Kind ka : kKinds) {
    for (const Kind kb : kKinds) {
      if (ka == Kind::Chain && kb == Kind::Chain) continue;  // never collide (tested below)
      const PairStats st = run_pair(ka, kb, 1500, ++seed);
      std::printf(
          "[ pairs ] %-8s vs %-8s: %d placements (%d overlapping, %d apart, %d borderline), "
          "%d deepest points checked (worst error %.2g), %d with 2 points, %d vertex-pair "
          "points\n",
          name_of(ka), name_of(kb), st.pairs, st.overlapping, st.apart, st.borderline,
          st.depth_checked, st.worst_depth, st.two_points, st.vertex_pairs);
      EXPECT_GT(st.overlapping, st.pairs / 8) << name_of(ka) << " vs " << name_of(kb);
      EXPECT_GT(st.apart, st.pairs / 8) << name_of(ka) << " vs " << name_of(kb);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

// The table answers A vs B and B vs A alike: the same contact or none, opposite normals. Pairs
// whose routine is written one way round (circle vs polygon, anything vs a chain) are the same
// features exactly; the rest may pick the other face on a near-tie, within the tie tolerance.
TEST(CollidePairs, BothOrdersAgree) {
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> offset(-2.5f, 2.5f);
  int compared = 0;
  for (const Kind ka : kKinds) {
    for (const Kind kb : kKinds) {
      for (int i = 0; i < 300; ++i) {
        const Collider a = random_collider(rng, ka, {0.0f, 0.0f});
        const Collider b = random_collider(rng, kb, {offset(rng), offset(rng)});
        const Manifold ab = collide(a.view(), b.view(), 0.0f);
        const Manifold ba = collide(b.view(), a.view(), 0.0f);
        const std::string what =
            std::string(name_of(ka)) + " vs " + name_of(kb) + " " + std::to_string(i);
        const bool exact =
            ka == Kind::Circle || kb == Kind::Circle || ka == Kind::Chain || kb == Kind::Chain;
        float deep_ab = INFINITY, deep_ba = INFINITY;
        for (int k = 0; k < ab.count; ++k) deep_ab = std::min(deep_ab, ab.points[k].separation);
        for (int k = 0; k < ba.count; ++k) deep_ba = std::min(deep_ba, ba.points[k].separation);
        if (exact) {
          ASSERT_EQ(ab.count, ba.count) << what;
          for (int k = 0; k < ab.count; ++k) {
            // (Circle vs circle sums the radii in the other order: a rounding apart.)
            EXPECT_NEAR(ab.points[k].normal.x, -ba.points[k].normal.x, 1e-6f) << what;
            EXPECT_NEAR(ab.points[k].normal.y, -ba.points[k].normal.y, 1e-6f) << what;
            EXPECT_NEAR(ab.points[k].separation, ba.points[k].separation, 1e-6f) << what;
            if (ab.points[k].kind == FeatureKind::VertexEdge) {
              EXPECT_EQ(ab.points[k].vertex_on_a, !ba.points[k].vertex_on_a) << what;
            }
          }
        } else if (ab.count > 0 && ba.count > 0) {
          const double tie = 1e-3 * std::min(longest_edge(a), longest_edge(b)) + 1e-5;
          EXPECT_NEAR(deep_ab, deep_ba, tie) << what;
        } else if (std::fabs(std::min(deep_ab, deep_ba)) > 1e-5f) {
          EXPECT_EQ(ab.count > 0, ba.count > 0) << what << ": " << deep_ab << " " << deep_ba;
        }
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 36 * 300);
}

TEST(CollidePairs, ChainSegmentsNeverCollideWithEachOther) {
  Collider a, b;
  a.kind = b.kind = Kind::Chain;
  a.x = {-1.0f, 1.0f}, a.y = {0.0f, 0.0f};
  b.x = {0.0f, 0.0f}, b.y = {-1.0f, 1.0f};
  EXPECT_EQ(collide(a.view(), b.view(), 1.0f).count, 0);
}

// --- hand-made manifolds with known answers ------------------------------------------------

Collider capsule_at(Vec2 c, float half, float r, float angle = 0.0f) {
  Collider k;
  k.kind = Kind::Capsule;
  const Rot q = make_rot(angle);
  const Vec2 a = c + rotate(q, {-half, 0.0f}), b = c + rotate(q, {half, 0.0f});
  k.x = {a.x, b.x}, k.y = {a.y, b.y};
  k.radius = r;
  return k;
}

Collider box_at(Vec2 c, float hx, float hy, float r = 0.0f, float angle = 0.0f) {
  Collider k;
  k.kind = r > 0 ? Kind::Rounded : Kind::Polygon;
  const Rot q = make_rot(angle);
  for (const Vec2 v : {Vec2{-hx, -hy}, Vec2{hx, -hy}, Vec2{hx, hy}, Vec2{-hx, hy}}) {
    const Vec2 w = c + rotate(q, v);
    k.x.push_back(w.x), k.y.push_back(w.y);
  }
  k.radius = r;
  return k;
}

TEST(CollidePairs, CapsuleLyingOnBoxGivesTwoPointsAtItsRadius) {
  const Collider ground = box_at({0.0f, -1.0f}, 5.0f, 1.0f);
  // Core 0.25 above the ground's top: radius 0.3 sinks it by 0.05.
  const Collider cap = capsule_at({0.5f, 0.25f}, 0.8f, 0.3f);
  const Manifold m = collide(ground.view(), cap.view(), 0.0f);
  ASSERT_EQ(m.count, 2);
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(m.points[i].separation, -0.05f, 1e-5f);
    EXPECT_NEAR(m.points[i].normal.y, 1.0f, 1e-6f);
    EXPECT_NEAR(m.points[i].point.y, 0.0f - 0.025f, 1e-5f);  // midway between the surfaces
  }
  EXPECT_NEAR(std::fabs(m.points[0].point.x - m.points[1].point.x), 1.6f, 1e-5f);
}

TEST(CollidePairs, BoxOnSegmentGivesTwoPoints) {
  Collider seg;
  seg.kind = Kind::Segment;
  seg.x = {-3.0f, 3.0f}, seg.y = {0.0f, 0.0f};
  const Collider crate = box_at({0.2f, 0.49f}, 0.5f, 0.5f);
  const Manifold m = collide(crate.view(), seg.view(), 0.0f);
  ASSERT_EQ(m.count, 2);
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(m.points[i].separation, -0.01f, 1e-5f);
    EXPECT_NEAR(m.points[i].normal.y, -1.0f, 1e-6f);  // from the box (A) down to the segment
  }
}

TEST(CollidePairs, ParallelCapsulesGiveTwoPointsOverTheirOverlap) {
  const Collider a = capsule_at({0.0f, 0.0f}, 1.0f, 0.25f);
  const Collider b = capsule_at({1.2f, 0.45f}, 1.0f, 0.25f);
  const Manifold m = collide(a.view(), b.view(), 0.0f);
  ASSERT_EQ(m.count, 2);
  float lo = INFINITY, hi = -INFINITY;
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(m.points[i].separation, -0.05f, 1e-5f);
    EXPECT_NEAR(m.points[i].normal.y, 1.0f, 1e-6f);
    lo = std::min(lo, m.points[i].point.x), hi = std::max(hi, m.points[i].point.x);
  }
  // The cores overlap in x over [0.2, 1.0].
  EXPECT_NEAR(lo, 0.2f, 1e-5f);
  EXPECT_NEAR(hi, 1.0f, 1e-5f);
}

// The two-point cases of the capsule routines (collide_capsules.cpp,
// collide_polygon_capsule.cpp), which random placements rarely reach: capsules and segments
// nearly parallel to a capsule, a segment or a polygon's face, touching, sunk in or just apart,
// shifted along so that they overlap partly, wholly or not at all. Both orders, against the
// reference.
TEST(CollidePairs, NearlyParallelCapsulesMatchBruteForce) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> place(-20.0f, 20.0f);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_real_distribution<float> size(0.1f, 2.0f);
  std::uniform_real_distribution<float> tilt(-0.02f, 0.02f);
  std::uniform_real_distribution<float> rounding(0.03f, 0.6f);
  const Kind firsts[] = {Kind::Capsule, Kind::Segment, Kind::Polygon, Kind::Rounded};
  PairStats st;
  for (int pair = 0; pair < 4000; ++pair) {
    const Kind ka = firsts[pair % 4];
    const Kind kb = (pair / 4) % 2 == 0 ? Kind::Capsule : Kind::Segment;
    const Vec2 ca = {place(rng), place(rng)};
    const Collider a = ka == Kind::Capsule || ka == Kind::Segment
                           ? capsule_at(ca, size(rng), ka == Kind::Capsule ? rounding(rng) : 0.0f,
                                        3.0f * unit(rng))
                           : random_collider(rng, ka, ca);
    // A face of A: its start, unit direction and outward normal (a capsule's either side).
    const int e = std::uniform_int_distribution<int>(0, a.count() - 1)(rng);
    const Vec2 start = a.at(e), along = a.at((e + 1) % a.count()) - start;
    const Vec2 dir = (1.0f / length(along)) * along;
    const Vec2 out = Vec2{dir.y, -dir.x};
    const float rb = kb == Kind::Capsule ? rounding(rng) : 0.0f;
    const float half = size(rng);
    // Along the face from before its start to past its end; across it from sunk by half the
    // radii to a little apart.
    const float slide = length(along) * (0.5f + 0.9f * unit(rng));
    const float gap = (a.radius + rb) * (0.25f + 0.75f * unit(rng)) + 0.02f * unit(rng);
    const Vec2 cb = start + slide * dir + (a.radius + rb + gap) * out;
    const float angle = std::atan2(dir.y, dir.x) + tilt(rng) + (pair % 3 == 0 ? 3.14159265f : 0.0f);
    Collider b = capsule_at(cb, half, rb, angle);
    b.kind = kb;
    const std::string what =
        std::string(name_of(ka)) + " vs " + name_of(kb) + ", parallel pair " + std::to_string(pair);
    if (!check_pair(a, b, ca, what, st)) return;
    if (!check_pair(b, a, cb, what + " (swapped)", st)) return;
  }
  std::printf(
      "[ pairs ] nearly parallel: %d placements (%d overlapping, %d apart), %d with 2 "
      "points, %d deepest points checked (worst error %.2g)\n",
      st.pairs, st.overlapping, st.apart, st.two_points, st.depth_checked, st.worst_depth);
  EXPECT_GT(st.two_points, st.pairs / 4);
}

// Collinear capsules end to end: their caps meet where no face normal looks, and the ends'
// distance is the gap.
TEST(CollidePairs, CapsulesEndToEndMeetAtTheirEnds) {
  const Collider a = capsule_at({0.0f, 0.0f}, 1.0f, 0.25f);
  const Collider b = capsule_at({2.4f, 0.0f}, 1.0f, 0.25f);  // ends at x = 1 and 1.4
  const Manifold m = collide(a.view(), b.view(), 0.0f);
  ASSERT_EQ(m.count, 1);
  const ContactFeature& f = m.points[0];
  EXPECT_EQ(f.kind, FeatureKind::VertexVertex);
  EXPECT_EQ(f.vertex, 1);
  EXPECT_EQ(f.other, 0);
  EXPECT_NEAR(f.separation, 0.4f - 0.5f, 1e-6f);
  EXPECT_NEAR(f.normal.x, 1.0f, 1e-6f);
  EXPECT_NEAR(f.point.x, 1.2f, 1e-6f);
  // A segment's end on a rounded box's corner, diagonally: one point along the line between.
  const Collider box = box_at({0.0f, 0.0f}, 1.0f, 1.0f, 0.2f);
  Collider seg = capsule_at({1.1f + 0.5f, 1.1f + 0.5f}, 0.5f * std::numbers::sqrt2_v<float>, 0.0f,
                            std::numbers::pi_v<float> / 4);
  seg.kind = Kind::Segment;
  const Manifold c = collide(box.view(), seg.view(), 0.1f);
  ASSERT_EQ(c.count, 1);
  EXPECT_EQ(c.points[0].kind, FeatureKind::VertexVertex);
  EXPECT_EQ(c.points[0].vertex, 2);
  EXPECT_EQ(c.points[0].other, 0);
  EXPECT_NEAR(c.points[0].separation, 0.1f * std::numbers::sqrt2_v<float> - 0.2f, 1e-5f);
  EXPECT_NEAR(c.points[0].normal.x, std::numbers::sqrt2_v<float> / 2, 1e-5f);
}

TEST(CollidePairs, CrossedCapsulesMeetAtTheirClosestPoints) {
  const Collider a = capsule_at({0.0f, 0.0f}, 1.0f, 0.2f);
  const Collider b = capsule_at({0.3f, 0.35f}, 1.0f, 0.2f, std::numbers::pi_v<float> / 2);
  // b's core is vertical from (0.3, -0.65) to (0.3, 1.35): it crosses a's core, so the
  // least push is sideways along x by 0.7 + radii... or up/down; the SAT minimum is along y:
  // a's core lies at y = 0, b's core spans [-0.65, 1.35]: pushing b up by 0.65 + 0.4.
  const Manifold m = collide(a.view(), b.view(), 0.0f);
  ASSERT_GE(m.count, 1);
  float deepest = INFINITY;
  for (int i = 0; i < m.count; ++i) deepest = std::min(deepest, m.points[i].separation);
  EXPECT_NEAR(deepest, -(0.65f + 0.4f), 1e-5f);
}

TEST(CollidePairs, RoundedCornersMeetCornerToCorner) {
  const Collider a = box_at({0.0f, 0.0f}, 1.0f, 1.0f, 0.2f);
  const Collider b = box_at({2.3f, 2.3f}, 1.0f, 1.0f, 0.2f);
  // Corners (1, 1) and (1.3, 1.3): 0.3 sqrt 2 = 0.424 apart, radii 0.4: a gap of 0.024 along
  // the diagonal, which no face normal sees.
  const Manifold m = collide(a.view(), b.view(), 0.1f);
  ASSERT_EQ(m.count, 1);
  const ContactFeature& f = m.points[0];
  EXPECT_EQ(f.kind, FeatureKind::VertexVertex);
  EXPECT_EQ(f.vertex, 2);
  EXPECT_EQ(f.other, 0);
  EXPECT_NEAR(f.separation, 0.3f * std::numbers::sqrt2_v<float> - 0.4f, 1e-5f);
  EXPECT_NEAR(f.normal.x, std::numbers::sqrt2_v<float> / 2, 1e-6f);
  EXPECT_NEAR(f.normal.y, std::numbers::sqrt2_v<float> / 2, 1e-6f);
}

TEST(CollidePairs, RoundedBoxRestsAtHalfExtentPlusRadius) {
  const Collider ground = box_at({0.0f, -1.0f}, 5.0f, 1.0f);
  // Half-extent 0.5 and radius 0.1: its surface bottom is at centre - 0.6.
  for (const float y : {0.59f, 0.6f, 0.61f}) {
    const Collider crate = box_at({0.0f, y}, 0.5f, 0.5f, 0.1f);
    const Manifold m = collide(ground.view(), crate.view(), 0.05f);
    ASSERT_EQ(m.count, 2) << y;
    for (int i = 0; i < 2; ++i) EXPECT_NEAR(m.points[i].separation, y - 0.6f, 1e-5f) << y;
  }
}

TEST(CollidePairs, RadiusZeroKeepsThePolygonPathsBits) {
  std::mt19937 rng(5);
  for (int i = 0; i < 500; ++i) {
    const Collider a = random_collider(rng, Kind::Polygon, {0.0f, 0.0f});
    const Collider b = random_collider(rng, Kind::Polygon, {1.0f, 0.5f});
    const Manifold via_table = collide(a.view(), b.view(), 0.1f);
    const Manifold direct = collide_polygons({a.x.data(), a.y.data(), a.count(), 0},
                                             {b.x.data(), b.y.data(), b.count(), 0}, 0.1f);
    const Manifold via_hulls = collide_hulls({a.x.data(), a.y.data(), a.count(), 0}, 0.0f,
                                             {b.x.data(), b.y.data(), b.count(), 0}, 0.0f, 0.1f);
    for (const Manifold* m : {&via_table, &via_hulls}) {
      // collide_hulls adds one thing: where a near-tie's face clips everything away it tries
      // the other face (collide_polygons keeps reporting nothing there, for its bits).
      if (m == &via_hulls && direct.count == 0) continue;
      ASSERT_EQ(m->count, direct.count);
      for (int k = 0; k < direct.count; ++k) {
        EXPECT_EQ(m->points[k].vertex, direct.points[k].vertex);
        EXPECT_EQ(m->points[k].other, direct.points[k].other);
        EXPECT_EQ(m->points[k].vertex_on_a, direct.points[k].vertex_on_a);
        EXPECT_EQ(std::bit_cast<std::uint32_t>(m->points[k].separation),
                  std::bit_cast<std::uint32_t>(direct.points[k].separation));
        EXPECT_EQ(m->points[k].normal, direct.points[k].normal);
        EXPECT_EQ(m->points[k].point, direct.points[k].point);
      }
    }
  }
}

// --- chains: no ghost collisions -------------------------------------------------------------

namespace chain_tests {

// A collider placed in world space (identity body transform) with its own vertex arrays.
struct Placed {
  float x[kMaxPolygonVertices], y[kMaxPolygonVertices];
  ShapeView view;
};

std::vector<Placed> links_of(const std::vector<Vec2>& points, bool loop = false) {
  ShapeDef def;
  def.shape = ChainShape{points, loop};
  std::vector<Placed> out;
  for (const shapes::LocalCollider& c : shapes::make_colliders(def)) {
    Placed p;
    for (int i = 0; i < c.count; ++i) p.x[i] = c.vertices[i].x, p.y[i] = c.vertices[i].y;
    p.view.kind = c.kind;
    p.view.count = c.count;
    p.view.radius = c.radius;
    p.view.ghost_prev = c.ghost_prev, p.view.ghost_next = c.ghost_next;
    p.view.has_prev = c.has_prev, p.view.has_next = c.has_next;
    out.push_back(p);
  }
  for (Placed& p : out) p.view.x = p.x, p.view.y = p.y;  // after the vector stopped moving
  return out;
}

struct Found {
  int manifolds = 0;  // links that reported anything
  int most_per_manifold = 0;
  std::vector<ContactFeature> points;  // normals from the chain to the body
};

// The body against every link, both ways round (link first, body first), which must agree.
Found collide_with_chain(const std::vector<Placed>& links, const ShapeView& body, float margin) {
  Found f;
  const float bx = body.x[0];
  for (const Placed& link : links) {
    // Only links near the body (all bodies here are under 2 m across): the rest are far apart
    // and would only slow the sweep down.
    if (std::fmin(link.x[0], link.x[1]) > bx + 2.0f || std::fmax(link.x[0], link.x[1]) < bx - 2.0f)
      continue;
    const Manifold m = collide(link.view, body, margin);
    const Manifold flipped = collide(body, link.view, margin);
    EXPECT_EQ(m.count, flipped.count);
    for (int i = 0; i < m.count && i < flipped.count; ++i) {
      EXPECT_EQ(m.points[i].normal, -flipped.points[i].normal);
      EXPECT_EQ(m.points[i].separation, flipped.points[i].separation);
    }
    if (m.count == 0) continue;
    ++f.manifolds;
    f.most_per_manifold = std::max(f.most_per_manifold, m.count);
    for (int i = 0; i < m.count; ++i) f.points.push_back(m.points[i]);
  }
  return f;
}

// Distinct contact points (two links meeting exactly under one body vertex both report it).
std::vector<ContactFeature> distinct(const std::vector<ContactFeature>& pts) {
  std::vector<ContactFeature> out;
  for (const ContactFeature& p : pts) {
    bool seen = false;
    for (const ContactFeature& q : out)
      seen = seen ||
             (length(p.point - q.point) < 1e-5f && std::fabs(p.separation - q.separation) < 1e-6f);
    if (!seen) out.push_back(p);
  }
  return out;
}

struct Body {
  Collider shape;
  const char* name;
};

// The three bodies resting `depth` into a floor at y = 0, centred at x.
std::vector<Body> bodies_at(float x, float depth) {
  std::vector<Body> out;
  out.push_back({box_at({x, 0.3f - depth}, 0.4f, 0.3f), "box"});
  out.push_back({box_at({x, 0.3f + 0.05f - depth}, 0.4f, 0.3f, 0.05f), "rounded box"});
  out.push_back({capsule_at({x, 0.2f - depth}, 0.6f, 0.2f), "capsule"});
  Collider ball;
  ball.kind = Kind::Circle;
  ball.x = {x}, ball.y = {0.3f - depth};
  ball.radius = 0.3f;
  out.push_back({ball, "circle"});
  return out;
}

TEST(CollideChain, BodiesSlidingAlongAStraightChainSeeOneLongSegment) {
  // 200 links of 0.5 m along y = 0; the same floor as one segment for comparison.
  std::vector<Vec2> points;
  for (int i = 0; i <= 200; ++i) points.push_back({-50.0f + 0.5f * i, 0.0f});
  const std::vector<Placed> links = links_of(points);
  ASSERT_EQ(links.size(), 200u);
  Collider floor;
  floor.kind = Kind::Segment;
  floor.x = {-50.0f, 50.0f}, floor.y = {0.0f, 0.0f};
  int positions = 0, points_checked = 0;
  float worst_normal = 0;
  for (const float depth : {1e-4f, 2e-3f, 1e-2f}) {
    // An even sweep, plus every placement with a body's end just before or just past a joint
    // (where a link's end vertex meets the body's side face: the ghost collision's place).
    std::vector<float> xs;
    for (float x = -45.0f; x < 45.0f; x += 0.0371f) xs.push_back(x);
    for (int j = -88; j <= 88; ++j) {
      for (const float end : {0.4f, 0.6f, 0.8f, 0.3f})  // box, capsule core, capsule, ball
        for (const float past : {1e-5f, 1e-4f, 1e-3f, 1e-2f})
          for (const float sign : {-1.0f, 1.0f})
            for (const float side : {-1.0f, 1.0f})
              xs.push_back(0.5f * j + side * (end + sign * past));
    }
    for (const float x : xs) {
      for (const float dx : {0.0f}) {
        for (const Body& body : bodies_at(x + dx, depth)) {
          ++positions;
          const std::string what = std::string(body.name) + " at x " + std::to_string(x + dx) +
                                   " depth " + std::to_string(depth);
          const Found f = collide_with_chain(links, body.shape.view(), 0.0f);
          const Manifold one = collide(floor.view(), body.shape.view(), 0.0f);
          ASSERT_GE(f.manifolds, 1) << what;
          ASSERT_LE(f.most_per_manifold, 2) << what;
          for (const ContactFeature& p : f.points) {
            worst_normal = std::max(worst_normal, std::fabs(p.normal.x));
            EXPECT_LT(std::fabs(p.normal.x), 1e-3f) << what;
            EXPECT_GT(p.normal.y, 0.0f) << what;
            EXPECT_NEAR(p.separation, -depth, 2e-6f) << what;
            ++points_checked;
          }
          // The same contact points as on one long segment.
          const std::vector<ContactFeature> d = distinct(f.points);
          ASSERT_EQ(int(d.size()), one.count) << what;
          for (int i = 0; i < one.count; ++i) {
            bool matched = false;
            for (const ContactFeature& p : d)
              matched = matched || length(p.point - one.points[i].point) < 1e-5f;
            EXPECT_TRUE(matched) << what << ": long-segment point " << i;
          }
          if (::testing::Test::HasFailure()) return;
        }
      }
    }
  }
  std::printf("[ chain ] %d body placements along 200 links, %d points, worst |normal.x| %.3g\n",
              positions, points_checked, worst_normal);
}

// Tilted bodies on the straight chain: the normals are their own faces' (tilted) or the
// chain's, never a joint's sideways push, and the points are those of one long segment.
TEST(CollideChain, TiltedBodiesOnAStraightChainSeeOneLongSegment) {
  std::vector<Vec2> points;
  for (int i = 0; i <= 200; ++i) points.push_back({-50.0f + 0.5f * i, 0.0f});
  const std::vector<Placed> links = links_of(points);
  Collider floor;
  floor.kind = Kind::Segment;
  floor.x = {-50.0f, 50.0f}, floor.y = {0.0f, 0.0f};
  int placements = 0;
  for (const float tilt : {-0.02f, -0.003f, 0.003f, 0.02f}) {
    for (float x = -40.0f; x < 40.0f; x += 0.0173f) {
      // Lowest corner 2 mm into the floor.
      const float lift = 0.3f * std::cos(tilt) + 0.4f * std::fabs(std::sin(tilt)) - 2e-3f;
      const float cap_lift = 0.2f + 0.6f * std::fabs(std::sin(tilt)) - 2e-3f;
      for (const Collider& body : {box_at({x, lift}, 0.4f, 0.3f, 0.0f, tilt),
                                   capsule_at({x, cap_lift}, 0.6f, 0.2f, tilt)}) {
        ++placements;
        const Found f = collide_with_chain(links, body.view(), 0.0f);
        const Manifold one = collide(floor.view(), body.view(), 0.0f);
        ASSERT_LE(f.most_per_manifold, 2);
        for (const ContactFeature& p : f.points) {
          EXPECT_LE(std::fabs(p.normal.x), std::fabs(std::sin(tilt)) + 1e-5f) << "x " << x;
          EXPECT_GT(p.normal.y, 0.99f) << "x " << x;
        }
        const std::vector<ContactFeature> d = distinct(f.points);
        ASSERT_EQ(int(d.size()), one.count) << "x " << x << " tilt " << tilt;
        for (int i = 0; i < one.count; ++i) {
          bool matched = false;
          for (const ContactFeature& p : d)
            matched = matched || (length(p.point - one.points[i].point) < 1e-5f &&
                                  std::fabs(p.separation - one.points[i].separation) < 1e-6f);
          EXPECT_TRUE(matched) << "x " << x << " tilt " << tilt;
        }
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
  EXPECT_GT(placements, 10000);
}

// A gentle hill (convex) and a gentle valley (concave): every normal lies between the face
// normals of the links under the body, so none points back against a body sliding across.
TEST(CollideChain, GentlyBentChainsGiveNormalsBetweenTheLinksUnderTheBody) {
  for (const float bend : {-1.0f, 1.0f}) {  // -1 hill, +1 valley
    std::vector<Vec2> points;
    const float radius = 40.0f;  // of the arc the points lie on
    for (int i = 0; i <= 120; ++i) {
      const float x = -30.0f + 0.5f * i;
      points.push_back({x, bend * x * x / (2.0f * radius)});
    }
    const std::vector<Placed> links = links_of(points);
    int checked = 0;
    for (float x = -25.0f; x < 25.0f; x += 0.0537f) {
      // The surface's slope and normal under the body's centre; place the body along it.
      const float slope = bend * x / radius;
      const Vec2 n = (1.0f / std::sqrt(1.0f + slope * slope)) * Vec2{-slope, 1.0f};
      const float angle = std::atan(slope);
      const Vec2 surface = {x, bend * x * x / (2.0f * radius)};
      const float depth = 2e-3f;
      std::vector<Collider> shapes;
      shapes.push_back(box_at(surface + (0.3f - depth) * n, 0.4f, 0.3f, 0.0f, angle));
      shapes.push_back(capsule_at(surface + (0.2f - depth) * n, 0.6f, 0.2f, angle));
      Collider ball;
      ball.kind = Kind::Circle;
      const Vec2 c = surface + (0.3f - depth) * n;
      ball.x = {c.x}, ball.y = {c.y}, ball.radius = 0.3f;
      shapes.push_back(ball);
      for (const Collider& s : shapes) {
        const Found f = collide_with_chain(links, s.view(), 0.0f);
        // Normal angles of the links within 1 m of the body's centre bound every normal.
        float lo = INFINITY, hi = -INFINITY;
        for (const Placed& link : links) {
          if (std::fabs(0.5f * (link.x[0] + link.x[1]) - x) > 1.0f) continue;
          // The upward face normal (-dy, dx), as an angle from +y towards +x.
          const float a = std::atan2(-(link.y[1] - link.y[0]), link.x[1] - link.x[0]);
          lo = std::min(lo, a), hi = std::max(hi, a);
        }
        ASSERT_GE(f.manifolds, 1) << "x " << x;
        ASSERT_LE(f.most_per_manifold, 2) << "x " << x;
        for (const ContactFeature& p : f.points) {
          const float a = std::atan2(p.normal.x, p.normal.y);
          EXPECT_GE(a, lo - 1e-3f) << "x " << x << " bend " << bend;
          EXPECT_LE(a, hi + 1e-3f) << "x " << x << " bend " << bend;
          EXPECT_GT(p.normal.y, 0.5f);
          ++checked;
        }
        if (::testing::Test::HasFailure()) return;
      }
    }
    EXPECT_GT(checked, 1000);
  }
}

// A box whose bottom face rests on the apex of a convex 45-degree corner, tilted anywhere
// inside the corner's normal cone: one contact, at the apex, with the box face's normal.
TEST(CollideChain, BoxOnAConvexCornerGetsTheCornerNormal) {
  const std::vector<Placed> links = links_of({{-5.0f, 0.0f}, {0.0f, 0.0f}, {5.0f, -5.0f}});
  const float depth = 1e-3f, hx = 0.5f, hy = 0.3f;
  for (const float degrees : {2.0f, 10.0f, 20.0f, 25.0f, 35.0f, 43.0f}) {
    const float phi = degrees * std::numbers::pi_v<float> / 180.0f;
    const Vec2 n = {std::sin(phi), std::cos(phi)};
    const Collider crate = box_at((hy - depth) * n, hx, hy, 0.0f, -phi);
    const Found f = collide_with_chain(links, crate.view(), 0.0f);
    ASSERT_EQ(f.points.size(), 1u) << degrees;
    const ContactFeature& p = f.points[0];
    EXPECT_NEAR(p.normal.x, n.x, 1e-5f) << degrees;
    EXPECT_NEAR(p.normal.y, n.y, 1e-5f) << degrees;
    EXPECT_NEAR(p.separation, -depth, 1e-5f) << degrees;
    EXPECT_NEAR(p.point.x, 0.0f, 1e-3f) << degrees;  // at the apex
    EXPECT_NEAR(p.point.y, 0.0f, 1e-3f) << degrees;
  }
  // A circle over the apex: the normal from the apex to its centre, from one link only.
  for (const float degrees : {5.0f, 22.0f, 23.0f, 40.0f}) {
    const float phi = degrees * std::numbers::pi_v<float> / 180.0f;
    Collider ball;
    ball.kind = Kind::Circle;
    ball.x = {0.299f * std::sin(phi)}, ball.y = {0.299f * std::cos(phi)}, ball.radius = 0.3f;
    const Found f = collide_with_chain(links, ball.view(), 0.0f);
    ASSERT_EQ(f.points.size(), 1u) << degrees;
    EXPECT_NEAR(f.points[0].normal.x, std::sin(phi), 1e-5f);
    EXPECT_NEAR(f.points[0].normal.y, std::cos(phi), 1e-5f);
    EXPECT_NEAR(f.points[0].separation, -1e-3f, 1e-5f);
  }
}

// Two-sided: the same body below the chain is pushed down; an open end is a rounded cap.
TEST(CollideChain, TwoSidedWithOpenEnds) {
  const std::vector<Placed> links = links_of({{0.0f, 0.0f}, {1.0f, 0.0f}, {2.0f, 0.0f}});
  const Collider below = box_at({0.5f, -0.29f}, 0.2f, 0.3f);
  const Found f = collide_with_chain(links, below.view(), 0.0f);
  ASSERT_EQ(f.points.size(), 2u);
  for (const ContactFeature& p : f.points) EXPECT_NEAR(p.normal.y, -1.0f, 1e-6f);
  Collider ball;
  ball.kind = Kind::Circle;
  ball.x = {2.2f}, ball.y = {0.2f}, ball.radius = 0.3f;
  const Found cap = collide_with_chain(links, ball.view(), 0.0f);
  ASSERT_EQ(cap.points.size(), 1u);
  EXPECT_NEAR(cap.points[0].normal.x, std::sqrt(0.5f), 1e-6f);
  EXPECT_NEAR(cap.points[0].separation, std::sqrt(0.08f) - 0.3f, 1e-6f);
}

}  // namespace chain_tests

}  // namespace
}  // namespace strut::collide
