"""Concave outlines from Python: strut.decompose_polygon and strut.convex_hull against geometry,
a body of concave_polygon=[...] against the outline's own mass properties (by the motion a force
and a torque give it) and against the same scene loaded from data, and the errors that name the
problem and change nothing."""
import math

import numpy as np
import pytest

import strut

DT = 1 / 60
L = [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]


def outline_mass(v):
    """Area, centroid and polar second moment about the centroid of an outline (shoelace and
    second-moment edge sums, in float64, over the whole outline)."""
    v = np.asarray(v, dtype=np.float64)
    x0, y0 = v[:, 0], v[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    c = x0 * y1 - x1 * y0
    area = c.sum() / 2
    cx, cy = (c * (x0 + x1)).sum() / (6 * area), (c * (y0 + y1)).sum() / (6 * area)
    polar = (c * (x0 * x0 + x0 * x1 + x1 * x1 + y0 * y0 + y0 * y1 + y1 * y1)).sum() / 12
    return area, (cx, cy), polar - area * (cx * cx + cy * cy)


def random_star(rng, n):
    t = 2 * math.pi * np.arange(n) / n
    r = rng.uniform(0.3, 2.0, n)
    return np.stack([r * np.cos(t), r * np.sin(t)], axis=1).astype(np.float32)


def test_pieces_are_convex_within_the_cap_and_tile_the_outline():
    rng = np.random.default_rng(31)
    for outline in [np.array(L, np.float32)] + [random_star(rng, n) for n in (7, 40, 300)]:
        pieces = strut.decompose_polygon(outline)
        points = {tuple(p) for p in outline}
        total = 0.0
        for p in pieces:
            assert p.dtype == np.float32 and p.shape[1] == 2 and 3 <= len(p) <= 16
            e = np.roll(p, -1, axis=0) - p
            turn = e[:, 0] * np.roll(e[:, 1], -1) - e[:, 1] * np.roll(e[:, 0], -1)
            assert (turn > 0).all()  # convex, counter-clockwise
            assert all(tuple(q) in points for q in p)  # outline points only
            total += outline_mass(p)[0]
        # Exact tiling: double rounding only (a straight point dropped would shave at most a
        # sliver of 1e-5 of an edge's square; 1e-6 of the area covers it).
        assert total == pytest.approx(outline_mass(outline)[0], rel=1e-6)
    # Either winding gives the same pieces.
    back = strut.decompose_polygon(L[::-1])
    for a, b in zip(strut.decompose_polygon(L), back):
        np.testing.assert_array_equal(a, b)


def test_convex_hull_wraps_every_point():
    rng = np.random.default_rng(7)
    for n in (5, 12, 40):
        # A cloud in a disc: its hull has few enough vertices to keep every point inside.
        r, t = np.sqrt(rng.uniform(0, 1, n)), rng.uniform(0, 2 * math.pi, n)
        cloud = np.stack([2 * r * np.cos(t), 2 * r * np.sin(t)], axis=1).astype(np.float32)
        hull = strut.convex_hull(cloud)
        assert hull.dtype == np.float32 and 3 <= len(hull) <= 16
        e = np.roll(hull, -1, axis=0) - hull
        assert (e[:, 0] * np.roll(e[:, 1], -1) - e[:, 1] * np.roll(e[:, 0], -1) > 0).all()
        assert all(any((q == p).all() for p in cloud) for q in hull)  # hull points are input points
        if len(hull) < 16:  # not cut to the cap: every point inside or on it (1e-5 m)
            for p in cloud:
                d = p - hull
                side = (e[:, 0] * d[:, 1] - e[:, 1] * d[:, 0]) / np.hypot(e[:, 0], e[:, 1])
                assert side.min() >= -1e-5


def test_a_concave_body_has_the_outlines_mass_centre_and_inertia():
    # No gravity: a 10 N force for one step gives v = F dt / m, a 10 N m torque w = T dt / I.
    w = strut.World(gravity=(0, 0), threads=1)
    w.create_body(name="l", center=(1, 2), shape={"concave_polygon": L, "density": 2.0})
    area, (cx, cy), inertia = outline_mass(L)
    np.testing.assert_allclose(w.positions()[0], (1 + cx, 2 + cy), rtol=1e-6)
    w.apply_forces(np.array([[10.0, 0.0]]), torques=np.array([10.0]))
    w.step()
    # float32 state: relative 1e-5.
    assert float(w.velocities()[0, 0]) == pytest.approx(10 * DT / (2 * area), rel=1e-5)
    assert float(w.angular_velocities()[0]) == pytest.approx(10 * DT / (2 * inertia), rel=1e-5)


def test_a_built_concave_body_steps_as_the_scene_format_loads_it():
    terrain = [(-5, 0), (5, 0), (5, 1), (1, 1), (0, 0.4), (-1, 1), (-5, 1)]
    scene = {"version": 3, "bodies": [
        {"name": "ground", "shape": "concave_polygon", "center": [0, 0], "static": True,
         "vertices": [list(p) for p in terrain]},
        {"name": "l", "shape": "concave_polygon", "center": [-4, 3], "material": "wood",
         "vertices": [list(p) for p in L]},
        {"name": "ball", "shape": "circle", "center": [0, 2], "radius": 0.2}]}
    loaded = strut.build_scene(scene, threads=1)
    built = strut.World(threads=1)
    built.create_body(name="ground", type="static", center=(0, 0),
                      shape={"concave_polygon": terrain})
    built.create_body(name="l", center=(-4, 3), shape={"concave_polygon": L, "material": "wood"})
    built.create_body(name="ball", center=(0, 2), shape={"circle": 0.2})
    for _ in range(4):
        loaded.step(40)
        built.step(40)
        assert built.hash() == loaded.hash()
    # The ball falls into the notch at (0, 0.4) and stays: its sides rise 0.6 m over 1 m, at
    # atan(1 / 0.6) from the vertical, so a 0.2 m ball rests on both 0.2 / sin(atan(1 / 0.6)) =
    # 0.233 m above the notch point (2 mm: contact softness, a fraction of a millimetre), and the
    # L lies flat on the top (its centre of mass 5/6 m above y = 1).
    ball = built.positions()[2]
    assert abs(float(ball[0])) < 2e-3
    assert float(ball[1]) == pytest.approx(0.4 + 0.2 / math.sin(math.atan(1 / 0.6)), abs=2e-3)
    assert float(built.positions()[1][1]) == pytest.approx(1 + 5 / 6, abs=2e-3)


def test_add_shape_adds_every_piece_and_errors_change_nothing():
    w = strut.World(threads=1)
    w.create_body(name="base", center=(0, 0), shape={"box": (0.5, 0.5)})
    pieces = len(strut.decompose_polygon(L))
    assert w.add_shape("base", concave_polygon=L, offset=(0, 1)) == 1
    w.remove_shape("base", pieces)  # the last piece is shape `pieces`
    with pytest.raises(strut.Error, match="outside body 0's %d" % pieces):
        w.remove_shape("base", pieces)
    w.step(3)
    before = (len(w), w.hash())
    bow_tie = [(0, 0), (2, 2), (2, 0), (0, 2)]
    with pytest.raises(strut.Error, match=r"World.create_body: body 1: shape: concave_polygon: "
                       r"self-intersecting: the edge from vertices\[0\] to vertices\[1\] crosses "
                       r"the edge from vertices\[2\] to vertices\[3\]"):
        w.create_body(shape={"concave_polygon": bow_tie})
    with pytest.raises(strut.Error, match=r"shapes\[1\]: concave_polygon: a polygon needs at "
                       "least 3 vertices, got 2"):
        w.create_body(shapes=[{"box": (1, 1)}, {"concave_polygon": [(0, 0), (1, 0)]}])
    with pytest.raises(strut.Error, match="got concave_polygon and box"):
        w.create_body(shape={"concave_polygon": L, "box": (1, 1)})
    with pytest.raises(strut.Error, match=r"concave_polygon\[1\]: not a finite number"):
        w.add_shape("base", concave_polygon=[(0, 0), (float("nan"), 0), (0, 1)])
    with pytest.raises(strut.Error, match='body 0 "base": unknown field "radius"'):
        w.add_shape("base", concave_polygon=L, radius=0.1)  # its pieces are sharp
    assert (len(w), w.hash()) == before
    with pytest.raises(strut.Error, match="decompose_polygon: vertices: at most 1024 vertices"):
        strut.decompose_polygon(random_star(np.random.default_rng(1), 1025))
    with pytest.raises(strut.Error, match="convex_hull: the 2 points have no area"):
        strut.convex_hull([(0, 0), (1, 1)])
