"""The C++ API's contact, sensor, explosion, joint-threshold, surface, pose and user-data calls as
the Python package gives them, each held to physics worked out by hand: a ball's contact impulse
against its momentum change, an explosion's fall-off, a joint that breaks at its threshold, a
conveyor's speed and a rolling ball's stopping distance, a spinning body's origin about its centre
of mass; and the errors, which name the call and the field and change nothing."""
import ast
import math
import os
import pickle

import numpy as np
import pytest

import strut

G = 10.0


def test_a_ball_landing_takes_the_contact_impulse_as_its_momentum_change():
    # One substep a step: the contact's impulse (World::body_contacts keeps each point's impulse
    # of the last substep, times the substeps) is then the whole step's. On the step the begin
    # event names, the ground's push J, gravity's -m g dt and the ball's momentum change agree:
    # J = m (v1 - v0) + m g dt (measured 1.14537 N s both; float rounding allows 1e-5).
    w = strut.World(threads=1, substeps=1, enable_sleep=False)
    w.create_body(name="ground", type="static", center=(0, -1), shape={"box": (5, 1)})
    w.create_body(name="ball", center=(0, 2), shape={"circle": 0.25, "restitution": 0.0})
    m = math.pi * 0.25 ** 2  # density 1
    landed = None
    for _ in range(120):
        v0 = float(w.velocities()[1, 1])
        w.step()
        begins = w.events()["contact_begin"]
        if len(begins):
            landed = begins[0], v0, float(w.velocities()[1, 1])
            break
    assert landed is not None
    event, v0, v1 = landed
    assert (event["a"], event["b"], event["shape_a"], event["shape_b"]) == (0, 1, 0, 0)
    assert v0 < -5.0  # it fell 1.75 m: about 5.9 m/s
    contact = w.body_contacts("ball")[0]
    impulse = float(contact["normal_impulses"][: contact["point_count"]].sum())
    assert impulse == pytest.approx(m * (v1 - v0) + m * G * w.dt, rel=1e-5)
    assert impulse > 30 * m * G * w.dt  # the landing, not the weight of a ball at rest
    w.step()  # at rest after: it presses m g dt
    rest = float(w.body_contacts("ball")[0]["normal_impulses"].sum())
    assert rest == pytest.approx(m * G * w.dt, rel=1e-4)


def test_event_rows_name_the_shapes_and_a_removed_one_as_minus_one():
    # A two-shape body lands on its second shape (a circle below its box); a ball falls through a
    # sensor that is the second shape of a static body and rests inside it; removing that sensor
    # shape ends the overlap, with the removed shape given as -1.
    w = strut.World(threads=1)
    w.create_body(name="ground", type="static", center=(0, -1), shape={"box": (20, 1)})
    w.create_body(name="lander", center=(0, 2),
                  shapes=[{"box": (0.5, 0.2)}, {"circle": 0.2, "offset": (0, -0.5)}])
    w.create_body(name="gate", type="static", center=(5, 1),
                  shapes=[{"box": (0.1, 0.1), "offset": (0, 5)},
                          {"box": (1, 1), "sensor": True}])  # from the ground up to y = 2
    w.create_body(name="ball", center=(5, 3), shape={"circle": 0.25})
    w.step(90)
    ev = w.events()
    landing = [r for r in ev["contact_begin"] if {int(r["a"]), int(r["b"])} == {0, 1}]
    assert len(landing) == 1
    row = landing[0]
    lander_shape = row["shape_b"] if row["b"] == 1 else row["shape_a"]
    assert lander_shape == 1 and row["shape_a" if row["b"] == 1 else "shape_b"] == 0
    sensor_rows = ev["sensor_begin"]
    assert sensor_rows[["sensor", "visitor", "sensor_shape", "visitor_shape"]].tolist() == \
        [(2, 3, 1, 0)]
    assert w.sensor_overlaps("gate", 1).tolist() == [(3, 0)]
    w.remove_shape("gate", 1)
    w.step()
    assert w.events()["sensor_end"][["sensor", "visitor", "sensor_shape",
                                     "visitor_shape"]].tolist() == [(2, 3, -1, 0)]


def test_an_explosion_pushes_with_the_documented_fall_off_and_spares_what_its_mask_leaves():
    # 1 kg boxes (1 m wide, face on) in zero gravity, the blast at the origin: radius 2, fall-off
    # 3, 4 N s per metre. A face 1 m from the centre takes the full 4 N s; at 2.5 m, 1 - 0.5 / 3 of
    # it; at 4 m, 1 - 2 / 3; at 6 m (beyond 5) nothing. A box of category 2 (mask 1) and a static
    # box are untouched. Face on, the push goes through the centre of mass: no spin.
    w = strut.World(threads=1, gravity=(0, 0))
    faces = [1.0, 2.5, 4.0, 6.0]
    for d in faces:
        w.create_body(center=(d + 0.5, 0), shape={"box": (0.5, 0.5)})
    w.create_body(name="spared", center=(-1.5, 0), shape={"box": (0.5, 0.5), "category": 2})
    w.create_body(name="wall", type="static", center=(0, -1.5), shape={"box": (0.5, 0.5)})
    before = w.hash()
    with pytest.raises(strut.Error, match=r"^World.explode: falloff must not be negative"):
        w.explode((0, 0), radius=2.0, falloff=-1.0)
    assert w.hash() == before and not w.velocities().any()
    w.explode((0, 0), radius=2.0, falloff=3.0, impulse_per_length=4.0, mask=1)
    strength = [min(1.0, max(0.0, 1 - (d - 2.0) / 3.0)) for d in faces]
    v = w.velocities()
    np.testing.assert_allclose(v[:4, 0], [4.0 * s for s in strength], rtol=1e-6, atol=1e-6)
    assert not v[:, 1].any() and not w.angular_velocities().any()
    assert not v[4:].any()
    # A negative impulse pulls (an implosion): the nearest box comes back to rest exactly.
    w.explode((0, 0), radius=2.0, falloff=3.0, impulse_per_length=-4.0, mask=1)
    assert w.velocities()[0, 0] == pytest.approx(0.0, abs=1e-6)


def test_a_joint_breaks_at_its_force_threshold():
    # A 1 kg box hangs from a pivot by a revolute joint rated 15 N (it bears m g = 10 N). Pulled
    # down by a force raised 0.05 N a step, the joint reports its first event once the pull
    # passes 5 N, with a reaction of 15 N (within 0.1 N: one step's rise and the swing's
    # dynamics); the program breaks it then, and the box falls away from the pivot.
    w = strut.World(threads=1, enable_sleep=False)
    w.create_body(name="pivot", type="static", center=(0, 0), shape={"box": (0.1, 0.1)})
    w.create_body(name="box", center=(0, -1), shape={"box": (0.5, 0.5)})
    w.create_joint("revolute", "pivot", "box", anchor=(0, 0), name="hinge",
                   force_threshold=15.0)
    assert w.joint_thresholds("hinge") == (15.0, math.inf)
    broke_at = None
    for k in range(200):
        pull = 0.05 * k
        w.apply_forces(np.array([[0.0, -pull]]), bodies=np.array([1]))
        w.step()
        events = w.events()["joint"]
        if len(events):
            broke_at = pull, float(np.hypot(*events[0]["force"]))
            w.destroy_joint(int(events[0]["joint"]))
            break
    assert broke_at is not None
    pull, force = broke_at
    assert pull == pytest.approx(5.0, abs=0.1)
    assert force == pytest.approx(15.0, abs=0.1) and force > 15.0
    y = float(w.positions()[1, 1])
    w.step(30)  # half a second of free fall: 1.25 m
    assert w.joint_names == [] and float(w.positions()[1, 1]) < y - 1.2


def test_a_conveyor_carries_a_box_at_its_speed_and_rolling_resistance_stops_a_ball():
    # A belt of tangent speed 2 m/s (friction 0.6) brings a box resting on it to 2 m/s within 1 %
    # after 1 s; a ball (radius 0.5) rolling at 3 m/s with rolling resistance 0.1 decelerates at
    # 0.1 g / (1 + 1/2) = 2/3 m/s^2 and stops after 3^2 / (2 x 2/3) = 6.75 m (within 1 %).
    w = strut.World(threads=1)
    w.create_body(type="static", center=(0, -0.25),
                  shape={"box": (50, 0.25), "friction": 0.6, "tangent_speed": 2.0})
    w.create_body(name="box", center=(0, 0.5), shape={"box": (0.5, 0.5), "friction": 0.6})
    w.step(60)
    assert float(w.velocities()[1, 0]) == pytest.approx(2.0, rel=0.01)
    w = strut.World(threads=1)
    w.create_body(type="static", center=(0, -0.25), shape={"box": (50, 0.25)})
    w.create_body(name="ball", center=(0, 0.5), velocity=(3, 0), angular_velocity=-6,
                  shape={"circle": 0.5, "rolling_resistance": 0.1})
    w.step(360)
    assert float(w.positions()[1, 0]) == pytest.approx(6.75, rel=0.01)
    assert abs(float(w.velocities()[1, 0])) < 0.01
    for field, value, problem in [("tangent_speed", math.nan, "not a finite number"),
                                  ("rolling_resistance", -1.0, "")]:
        with pytest.raises(strut.Error, match=r"^World.create_body: body 2: shapes\[0\]\." +
                           field + ": " + problem):
            w.create_body(shape={"circle": 0.5, field: value})
    assert len(w) == 2


def test_a_spinning_body_turns_its_origin_about_its_centre_of_mass():
    # A body created at (2, 3) whose shapes sit 1 m along its x axis: its centre of mass is at
    # (3, 3), local_center (1, 0). Spinning at 1 rad/s in zero gravity, the centre stays put and
    # the origin circles it at 1 m: origin = centre - (cos a, sin a).
    w = strut.World(threads=1, gravity=(0, 0))
    w.create_body(name="arm", center=(2, 3), angular_velocity=1.0,
                  shapes=[{"circle": 0.5, "offset": (1, 0)}, {"box": (0.1, 0.1), "offset": (1, 0)}])
    assert w.local_center("arm") == pytest.approx((1, 0))
    assert w.origin_transform("arm") == ((2.0, 3.0), 0.0)
    w.step(30)
    (cx, cy), a = w.transform("arm")
    (ox, oy), oa = w.origin_transform("arm")
    assert (cx, cy) == pytest.approx((3, 3), abs=1e-5)
    assert a == oa == pytest.approx(0.5, abs=1e-5)  # 1 rad/s for 0.5 s
    assert (ox, oy) == pytest.approx((cx - math.cos(a), cy - math.sin(a)), abs=1e-5)
    assert (cx, cy) == pytest.approx(tuple(w.positions()[0]))
    # Teleports keep the velocity: the origin placed at (0, 0) turned a quarter round puts the
    # centre at (0, 1); the centre placed at (5, 5) unturned puts the origin at (4, 5).
    w.set_origin_transform("arm", (0, 0), math.pi / 2)
    assert w.transform("arm")[0] == pytest.approx((0, 1), abs=1e-6)
    w.set_transform(0, (5, 5), 0.0)
    assert w.origin_transform(0)[0] == pytest.approx((4, 5))
    assert float(w.angular_velocities()[0]) == pytest.approx(1.0)
    for call, args, message in [
            (w.set_transform, ((math.nan, 0), 0.0), "World.set_transform: position is not a "
             "finite number"),
            (w.set_transform, ((0, 0), math.inf), "World.set_transform: angle is not a finite "
             "number"),
            (w.set_origin_transform, ((3999.5, 0), 0.0), r"World.set_origin_transform: origin "
             r"puts the centre of mass at \(4000.5, 0\), beyond the limit of 4000 m")]:
        with pytest.raises(strut.Error, match="^" + message):
            call("arm", *args)
    assert w.transform("arm") == ((5.0, 5.0), 0.0)
    with pytest.raises(strut.Error, match='^World.origin_transform: no body is named "leg"'):
        w.origin_transform("leg")


def test_user_data_of_bodies_shapes_and_joints_is_kept_and_checked():
    w = strut.World(threads=1)
    w.create_body(name="cart", user_data=7,
                  shapes=[{"box": (1, 0.2), "user_data": 11}, {"circle": 0.3, "user_data": 12}])
    w.create_body(name="pole", center=(0, 2), shape={"box": (0.05, 1)})
    w.create_joint("revolute", "cart", "pole", anchor=(0, 1), name="hinge")
    assert (w.user_data("cart"), w.user_data("pole")) == (7, 0)
    assert (w.shape_user_data("cart"), w.shape_user_data("cart", 1)) == (11, 12)
    assert w.joint_user_data("hinge") == 0
    w.set_shape_user_data("cart", 1, 2 ** 64 - 1)  # the whole 64 bits
    w.set_user_data("pole", 3)
    w.set_joint_user_data(0, 99)
    assert w.add_shape("cart", capsule=0.2, offset=(0, 0.5), user_data=13) == 2
    w.remove_shape("cart", 0)  # the shapes after it move up one index
    assert [w.shape_user_data("cart", k) for k in range(2)] == [2 ** 64 - 1, 13]
    for other in (w.copy(), pickle.loads(pickle.dumps(w)), strut.World.from_snapshot(w.snapshot())):
        assert [other.shape_user_data("cart", k) for k in range(2)] == [2 ** 64 - 1, 13]
        assert (other.user_data(0), other.user_data(1), other.joint_user_data(0)) == (7, 3, 99)
    for value in (-1, 2 ** 64, 1.5, "7", True):
        with pytest.raises(strut.Error, match=r"^World.set_shape_user_data: value must be a "
                           r"whole number in \[0, 2\^64\), got "):
            w.set_shape_user_data("cart", 0, value)
    assert w.shape_user_data("cart", 0) == 2 ** 64 - 1
    with pytest.raises(strut.Error, match="^World.shape_user_data: shape 2 is outside body 0's 2"):
        w.shape_user_data("cart", 2)
    with pytest.raises(strut.Error, match="^World.set_user_data: value must be a whole number"):
        w.set_user_data("cart", -3)
    with pytest.raises(strut.Error, match="^World.joint_user_data: joint index 1 is outside"):
        w.joint_user_data(1)


def test_motion_locks_and_joint_thresholds_read_back():
    w = strut.World(threads=1)
    w.create_body(name="a", type="static", shape={"box": (0.1, 0.1)})
    w.create_body(name="b", center=(1, 0), lock_x=True, shape={"box": (0.1, 0.1)})
    w.create_joint("distance", "a", "b", anchor_a=(0, 0), anchor_b=(1, 0), torque_threshold=2.0)
    assert w.motion_locks("b") == (True, False, False)
    w.set_motion_locks("b", y=True, rotation=True)
    assert w.motion_locks("b") == (False, True, True)
    assert w.joint_thresholds(0) == (math.inf, 2.0)
    w.set_joint_thresholds(0, force=3.0)
    assert w.joint_thresholds(0) == (3.0, 2.0)


def test_the_type_stubs_list_every_method_of_the_module():
    # python/strut/_strut.pyi against the module itself: each class's public names, both ways
    # (a call added to the bindings without its stub, or a stub left after a call went, fails).
    stubs = os.path.join(os.path.dirname(strut.__file__), "_strut.pyi")
    tree = ast.parse(open(stubs).read())
    for cls in [n for n in tree.body if isinstance(n, ast.ClassDef)]:
        if not hasattr(strut, cls.name) or cls.name == "Error":
            continue  # TypedDicts of the stubs alone; Error is a ValueError
        stubbed = {f.name for f in cls.body if isinstance(f, ast.FunctionDef)}
        stubbed |= {a.target.id for a in cls.body if isinstance(a, ast.AnnAssign)}
        public = {n for n in dir(getattr(strut, cls.name)) if not n.startswith("_")}
        assert public == {n for n in stubbed if not n.startswith("_")}, cls.name
