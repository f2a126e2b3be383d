// The classic Verlet particle stress test: a box filled with 100,000 circles poured in from
// above, so the cost climbs with the count and the pile ends in one big contact graph.
#include <memory>

#include "tools/scene/builtin_parts.hpp"

namespace strut::builtin {
namespace {

constexpr float kRadius = 0.1f;
constexpr float kSpacing = 0.25f;   // between emitters
constexpr int kPourInterval = 2;    // steps between two rows
constexpr float kPourSpeed = 7.5f;  // m/s down: a row clears the next one in kPourInterval steps
constexpr float kAreaPerCircle = 0.04f;  // pile area per circle (loose random packing of r = 0.1)

struct Pour {
  int emitters;
  float half_width;
  int count;
  int rows() const { return (count + emitters - 1) / emitters; }
  // The spout rises with the pile so particles fall a few metres, not the whole box.
  float spout_height(int row) const {
    return float(row) * emitters * kAreaPerCircle / (2.0f * half_width) + 4.0f;
  }
};

Pour pour_for(float size) {
  Pour p;
  p.emitters = scaled_side(400, size);
  p.half_width = 0.5f * kSpacing * p.emitters;
  p.count = scaled(100000, size);
  return p;
}

class PourHook {
 public:
  static constexpr const char* kName = "particles";
  PourHook() = default;
  explicit PourHook(Pour p) : pour_(p) {}
  template <class F>
  void for_each_field(F&& f) {
    f(pour_), f(poured_);
  }
  bool valid(const SceneInstance&) const {
    return pour_.emitters > 0 && pour_.emitters <= 100000 && pour_.count >= 0 &&
           pour_.count <= 10000000 && poured_ >= 0 && poured_ <= pour_.count &&
           std::isfinite(pour_.half_width) && std::fabs(pour_.half_width) < 1e5f;
  }
  void operator()(SceneInstance& io, int step) {
    if (step % kPourInterval != 0 || poured_ >= pour_.count) return;
    const int row = step / kPourInterval;
    const float y = pour_.spout_height(row);
    for (int k = 0; k < pour_.emitters && poured_ < pour_.count; ++k, ++poured_) {
      BodyDef def;
      def.shapes = {ShapeDef{CircleShape{kRadius}}};
      def.center = {-pour_.half_width + (k + 0.5f) * kSpacing, y};
      // A little sideways jitter so the pile does not grow as a perfect lattice.
      def.velocity = {(hash01(std::uint64_t(poured_)) - 0.5f) * 0.5f, -kPourSpeed};
      io.create_body(def);
    }
  }

 private:
  Pour pour_{1, 0.0f, 0};
  int poured_ = 0;
};

}  // namespace

StepHook resume_pour_hook(std::span<const std::uint8_t> state, std::size_t base,
                          const SceneInstance& io) {
  return ResumableHook<PourHook>::resume(state, base, io);
}

Scene particles(float size) {
  const Pour p = pour_for(size);
  const float height = p.spout_height(p.rows()) + 6.0f;
  Scene s = benchmark_scene(
      "particles",
      "Particle stress test: " + std::to_string(p.count) + " circles of radius 0.1 poured into a " +
          "box " + std::to_string(int(2 * p.half_width)) + " m wide, a row of " +
          std::to_string(p.emitters) +
          " every 2 steps from a spout that rises with the pile, then left to settle. The pouring "
          "happens only in the built-in scene: the scene file holds the empty box.",
      kPourInterval * p.rows() + 100);
  s.bodies.push_back(box({0.0f, -1.0f}, {p.half_width + 2.0f, 1.0f}, true));
  s.bodies.back().name = "floor";
  s.bodies.push_back(box({-p.half_width - 1.0f, 0.5f * height}, {1.0f, 0.5f * height}, true));
  s.bodies.back().name = "left_wall";
  s.bodies.push_back(box({p.half_width + 1.0f, 0.5f * height}, {1.0f, 0.5f * height}, true));
  s.bodies.back().name = "right_wall";
  s.make_step_hook = [p] {
    return StepHook(std::make_unique<ResumableHook<PourHook>>(PourHook(p)));
  };
  return s;
}

}  // namespace strut::builtin
