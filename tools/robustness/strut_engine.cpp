// strut as the robustness figures read it (robustness.hpp).
#include <memory>

#include "tools/robustness/robustness.hpp"

namespace strut::robustness {
namespace {

class StrutEngine final : public Engine {
 public:
  StrutEngine(const Scene& scene, int threads) : scene_(build_scene(scene, threads)) {}
  void step() override { scene_.step(); }
  int body_count() const override { return int(scene_.bodies.size()); }
  Vec2 position(int body) const override { return world().transform(id(body)).position; }
  float angle(int body) const override { return world().transform(id(body)).angle; }
  Vec2 velocity(int body) const override { return world().linear_velocity(id(body)); }
  float angular_velocity(int body) const override { return world().angular_velocity(id(body)); }
  float mass(int body) const override { return world().mass(id(body)); }
  float inertia(int body) const override { return world().inertia(id(body)); }
  bool sleeping(int body) const override { return world().is_sleeping(id(body)); }
  float joint_coordinate(int joint) const override {
    const JointReading r = world().joint_reading(scene_.joints.at(std::size_t(joint)));
    return r.type == JointType::Prismatic ? r.translation : r.angle;
  }

 private:
  const World& world() const { return scene_.world; }
  BodyId id(int body) const { return scene_.bodies.at(std::size_t(body)); }
  SceneInstance scene_;
};

}  // namespace

std::unique_ptr<Engine> strut_engine(const Scene& scene, int threads) {
  return std::make_unique<StrutEngine>(scene, threads);
}

}  // namespace strut::robustness
