#include "tools/view/png_render.hpp"

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <unordered_map>

#include "tools/view/palette.hpp"

namespace strut::view {
namespace {

void set_colour(cairo_t* cr, Rgb c, double shade = 1.0) {
  cairo_set_source_rgb(cr, shade * c.r / 255.0, shade * c.g / 255.0, shade * c.b / 255.0);
}

Vec2 to_world(const Transform& pose, Vec2 local) {
  return pose.position + rotate(make_rot(pose.angle), local);
}

// Adds the shape's outline to the current path, in world coordinates.
void shape_path(cairo_t* cr, const record::RecordedShape& shape, const Transform& pose) {
  using record::RecordedKind;
  if (shape.kind == RecordedKind::Circle) {
    const Vec2 c = to_world(pose, shape.vertices[0]);
    cairo_new_sub_path(cr);
    cairo_arc(cr, c.x, c.y, shape.radius, pose.angle, pose.angle + 2 * M_PI);
    cairo_line_to(cr, c.x, c.y);  // a spoke shows the circle turn
    return;
  }
  if (shape.kind == RecordedKind::Segment || shape.kind == RecordedKind::Capsule) {
    const Vec2 a = to_world(pose, shape.vertices[0]), b = to_world(pose, shape.vertices[1]);
    cairo_move_to(cr, a.x, a.y);
    cairo_line_to(cr, b.x, b.y);
    return;
  }
  for (std::size_t k = 0; k < shape.vertices.size(); ++k) {
    const Vec2 p = to_world(pose, shape.vertices[k]);
    if (k == 0)
      cairo_move_to(cr, p.x, p.y);
    else
      cairo_line_to(cr, p.x, p.y);
  }
  cairo_close_path(cr);
}

}  // namespace

Aabb fit_view(const record::Recording& rec) {
  Aabb box{{INFINITY, INFINITY}, {-INFINITY, -INFINITY}};
  auto grow = [&](Vec2 p, float r) {
    box.lower = {std::min(box.lower.x, p.x - r), std::min(box.lower.y, p.y - r)};
    box.upper = {std::max(box.upper.x, p.x + r), std::max(box.upper.y, p.y + r)};
  };
  for (const record::Frame& f : rec.frames) {
    for (std::size_t i = 0; i < f.bodies.size(); ++i) {
      for (const record::RecordedShape& shape : rec.bodies[f.bodies[i]].shapes)
        for (const Vec2 v : shape.vertices) grow(to_world(f.poses[i], v), shape.radius);
    }
  }
  if (!(box.lower.x <= box.upper.x)) return {{-10, -10}, {10, 10}};
  const Vec2 margin = 0.05f * (box.upper - box.lower);
  return {box.lower - margin, box.upper + margin};
}

void render_png(const record::Recording& rec, std::size_t frame, const RenderOptions& o,
                const std::string& path) {
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface(
      cairo_image_surface_create(CAIRO_FORMAT_RGB24, o.width, o.height), cairo_surface_destroy);
  std::unique_ptr<cairo_t, decltype(&cairo_destroy)> context(cairo_create(surface.get()),
                                                             cairo_destroy);
  cairo_t* cr = context.get();
  set_colour(cr, kBackground);
  cairo_paint(cr);

  // World to pixels: uniform scale, the view centred, y up.
  const Vec2 size = o.view.upper - o.view.lower;
  const double scale = std::min(o.width / double(size.x), o.height / double(size.y));
  const Vec2 mid = 0.5f * (o.view.lower + o.view.upper);
  cairo_translate(cr, o.width / 2.0, o.height / 2.0);
  cairo_scale(cr, scale, -scale);
  cairo_translate(cr, -mid.x, -mid.y);
  cairo_set_line_width(cr, 1.0 / scale);

  const record::Frame& f = rec.frames[frame];
  for (std::size_t i = 0; i < f.bodies.size(); ++i) {
    const Rgb colour = state_colour(f.states[i]);
    for (const record::RecordedShape& shape : rec.bodies[f.bodies[i]].shapes)
      shape_path(cr, shape, f.poses[i]);
    set_colour(cr, colour);
    cairo_fill_preserve(cr);
    set_colour(cr, colour, 0.6);
    cairo_stroke(cr);
  }
  if (o.joints && !f.joints.empty()) {
    std::unordered_map<std::uint32_t, std::size_t> index;
    for (std::size_t i = 0; i < f.bodies.size(); ++i) index[f.bodies[i]] = i;
    cairo_set_line_width(cr, 2.0 / scale);
    set_colour(cr, kJointColour);
    for (const std::uint32_t id : f.joints) {
      // Centre of a, its anchor, b's anchor, centre of b: a pin's two anchors coincide.
      const record::RecordedJoint& j = rec.joints[id];
      const Transform& pa = f.poses[index.at(j.body_a)];
      const Transform& pb = f.poses[index.at(j.body_b)];
      const Vec2 a = to_world(pa, j.local_a), b = to_world(pb, j.local_b);
      cairo_move_to(cr, pa.position.x, pa.position.y);
      cairo_line_to(cr, a.x, a.y);
      cairo_line_to(cr, b.x, b.y);
      cairo_line_to(cr, pb.position.x, pb.position.y);
    }
    cairo_stroke(cr);
  }
  if (o.contacts) {
    const double half = 2.0 / scale, normal = 12.0 / scale;
    set_colour(cr, kContactColour);
    for (const record::RecordedContact& c : f.contacts)
      cairo_rectangle(cr, c.point.x - half, c.point.y - half, 2 * half, 2 * half);
    cairo_fill(cr);
    cairo_set_line_width(cr, 1.0 / scale);
    set_colour(cr, kNormalColour);
    for (const record::RecordedContact& c : f.contacts) {
      cairo_move_to(cr, c.point.x, c.point.y);
      cairo_line_to(cr, c.point.x + normal * c.normal.x, c.point.y + normal * c.normal.y);
    }
    cairo_stroke(cr);
  }
  cairo_surface_flush(surface.get());
  if (cairo_surface_write_to_png(surface.get(), path.c_str()) != CAIRO_STATUS_SUCCESS)
    throw std::runtime_error("cannot write '" + path + "'");
}

}  // namespace strut::view
