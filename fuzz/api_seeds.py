#!/usr/bin/env python3
"""Writes the hand-made seeds of fuzz_api (fuzz/corpus/api/seed_*.bin) in the byte language of
fuzz/api_decoder.hpp and fuzz/fuzz_api.cpp, so a seed reads as the calls it makes. Rerun it after
changing the decoder:  python3 fuzz/api_seeds.py fuzz/corpus/api"""
import os
import struct
import sys

# Opcodes of fuzz_api.cpp.
CREATE, DESTROY, SET_VELOCITY, SET_ANGULAR, TELEPORT = 0, 3, 4, 5, 6
IMPULSE, STEP, JOINT, DESTROY_JOINT, SET_MATERIAL = 10, 13, 16, 17, 18
SET_TYPE, SLEEP, QUERY_AABB, QUERY_POINT_RAY, QUERY_SHAPE, READ_BODY = 20, 21, 23, 24, 25, 26
ADD_SHAPE, REMOVE_SHAPE, SHAPE_FILTER, READ_SHAPE = 28, 29, 30, 31
JOINT_LIMIT, JOINT_MOTOR, JOINT_SPRING, JOINT_ENABLE = 32, 33, 34, 35
BOX, CIRCLE, POLYGON, CAPSULE, SEGMENT, CHAIN = range(6)
ROUNDED_OR_LOOP = 8


def num(v):
    """A readable k/8 value when v is one, otherwise the float's raw bits."""
    k = v * 8
    if k == int(k) and -128 <= k <= 127:
        return bytes([100, int(k) & 0xFF])
    return bytes([0]) + struct.pack(">f", v)


def vec(x, y):
    return num(x) + num(y)


def shape(kind, *fields, radius=None, loop=False):
    """fields: numbers and (x, y) points in the decoder's order for the kind."""
    flagged = radius is not None or loop
    # The decoder takes the kind as byte % 6 and the flag as bit 8 of the same byte.
    out = bytes([next(b for b in range(256) if b % 6 == kind and bool(b & ROUNDED_OR_LOOP) == flagged)])
    if kind in (POLYGON, CHAIN):
        out += bytes([len(fields)])
    for f in fields:
        out += vec(*f) if isinstance(f, tuple) else num(f)
    if radius is not None:
        out += num(radius)
    return out


def shape_def(s, offset=None, angle=None, group=None, sensor=False):
    flags = (1 if offset else 0) | (2 if angle is not None else 0) | (8 if group is not None else 0)
    flags |= 16 if sensor else 0
    out = s + bytes([flags])
    if offset:
        out += vec(*offset)
    if angle is not None:
        out += num(angle)
    if group is not None:
        out += bytes([1, group & 0xFF])
    return out


def body(shapes, center, angle=0.0, velocity=None, angular=None, static=False, kinematic=False,
         group=None):
    """shapes: one shape() or a list of shape_def() (a compound)."""
    flags = (2 if velocity else 0) | (4 if angular is not None else 0)
    flags |= (16 if static else 0) | (32 if kinematic else 0)
    if isinstance(shapes, list):
        out = bytes([CREATE, flags | 1, len(shapes) - 1]) + b"".join(shapes)
    else:
        out = bytes([CREATE, flags]) + shapes
    out += vec(*center) + num(angle)
    if velocity:
        out += vec(*velocity)
    if angular is not None:
        out += num(angular)
    more = 128 if group is not None else 0
    out += bytes([more]) + (bytes([group & 0xFF]) if group is not None else b"")
    return out


def call(op, body_index=0, a=(0, 0), b=(0, 0), x=0.0, byte=0):
    """An operation that reads the common operands (body, two points, a number, a byte)."""
    return bytes([op, body_index]) + vec(*a) + vec(*b) + num(x) + bytes([byte])


def steps(n):
    return call(STEP, byte=3) * n  # dt 1/60, events read and checked


def joint(kind, a, b, p=(0, 0), q=(0, 0), x=0.0, limit=None, motor=None, spring=None):
    flags = (1 if limit else 0) | (2 if motor else 0) | (4 if spring else 0)
    out = bytes([JOINT, a, b, kind]) + vec(*p) + vec(*q) + num(x) + bytes([flags])
    for pair in (limit, motor, spring):
        if pair:
            out += num(pair[0]) + num(pair[1])
    return out


GROUND = body(shape(BOX, (20, 0.5)), (0, -0.5), static=True)

SEEDS = {
    # A compound (box, circle, sensor) and a capsule fall on the ground; a capsule is added to the
    # compound, a shape removed, a filter changed, a query made; the compound's last shape cannot
    # go, and its shape ids are stale once it is destroyed. Shapes: 0 ground, 1-3 compound,
    # 4 capsule body, 5 the added capsule.
    "seed_shapes_add_remove": bytes([3]) + GROUND
    + body([shape_def(shape(BOX, (0.5, 0.25))),
            shape_def(shape(CIRCLE, 0.25), offset=(0.5, 0)),
            shape_def(shape(BOX, (0.5, 0.5)), offset=(0, 1), sensor=True)], (0, 2), angle=0.25)
    + body(shape(CAPSULE, 0.5, 0.25), (2, 1), angular=2)
    + steps(3)
    + bytes([ADD_SHAPE, 1]) + shape_def(shape(CAPSULE, 0.25, 0.125), offset=(-0.5, 0.25), angle=1)
    + steps(3)
    + bytes([REMOVE_SHAPE, 2]) + bytes([SHAPE_FILTER, 1, 3, 0xFE, 0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF])
    + bytes([READ_SHAPE, 5]) + call(QUERY_AABB, a=(-5, -1), b=(5, 5), byte=0xFF)
    + steps(3)
    + bytes([REMOVE_SHAPE, 1, REMOVE_SHAPE, 5, REMOVE_SHAPE, 3]) + steps(2)
    + call(DESTROY, 1) + bytes([READ_SHAPE, 1, REMOVE_SHAPE, 3]) + steps(2),
    # A loop chain bowl, a kinematic segment paddle turning in it, capsules, a rounded box and a
    # rounded triangle thrown at each other; queries with each kind of shape.
    "seed_chain_bowl": bytes([3])
    + body(shape(CHAIN, (-5, 0), (0, -2), (5, 0), (5, 8), (-5, 8), loop=True), (0, 0), static=True)
    + body(shape(SEGMENT, (-1.5, 0), (1.5, 0)), (0, 2), kinematic=True, angular=2)
    + body(shape(CAPSULE, 0.5, 0.25), (-2, 3), angular=3)
    + body(shape(CAPSULE, 0.125, 0.375), (0, 4), velocity=(0, -15))
    + body(shape(BOX, (0.375, 0.25), radius=0.125), (2, 3), velocity=(-15, 0))
    + body(shape(POLYGON, (-0.5, 0), (0.5, 0), (0, 0.75), radius=0.125), (1, 5))
    + steps(6)
    + bytes([QUERY_SHAPE, 0]) + vec(0, 0) + vec(0, 0) + num(0) + bytes([0]) + shape(CAPSULE, 1, 0.5)
    + call(QUERY_POINT_RAY, a=(-6, 3), b=(6, 3))
    + call(SET_TYPE, 2, byte=2) + call(SET_VELOCITY, 1, a=(0, 5)) + steps(6),
    # Shapes of group -1 on two bodies pass through each other; a static sensor sees them arrive;
    # a filter change makes one collide again.
    "seed_sensor_groups": bytes([3]) + GROUND
    + body(shape(BOX, (1, 1)), (4, 1), static=True)
    + body([shape_def(shape(BOX, (0.5, 0.5)), group=-1),
            shape_def(shape(CIRCLE, 0.25), offset=(0, 0.75))], (0, 1), velocity=(6, 0))
    + body(shape(BOX, (0.5, 0.5)), (0.25, 2), group=-1)
    + bytes([ADD_SHAPE, 1]) + shape_def(shape(BOX, (1, 1)), sensor=True)
    + steps(8) + bytes([SHAPE_FILTER, 5, 1, 0]) + steps(8)
    + call(SLEEP, 3) + steps(2),
    # One joint of each of the seven types, then their limits, motors, springs and switches.
    "seed_joint_types": bytes([3]) + GROUND
    + body(shape(BOX, (1, 0.25)), (0, 2))
    + body(shape(CIRCLE, 0.375), (-1, 1.5))
    + body(shape(CIRCLE, 0.375), (1, 1.5))
    + body(shape(CAPSULE, 0.5, 0.125), (0, 3))
    + joint(3, 1, 2, p=(-1, 1.5), q=(0, 1), motor=(-4, 10), spring=(4, 0.7))  # wheel
    + joint(3, 1, 3, p=(1, 1.5), q=(0, 1), limit=(-0.25, 0.25))  # wheel
    + joint(1, 1, 4, p=(0, 2.5), limit=(-0.5, 0.5), motor=(1, 2))  # revolute
    + joint(2, 0, 1, p=(0, 2), q=(1, 0), limit=(-3, 3))  # prismatic
    + joint(4, 0, 4, p=(0, 3), q=(1, 4), x=100)  # mouse
    + joint(5, 2, 3, p=(2, 0), q=(0, 50), x=50)  # motor
    + joint(6, 2, 4, p=(0, 2.5), spring=(5, 0.5))  # weld
    + joint(0, 3, 4, p=(1, 1.5), q=(0, 3), limit=(0.5, 2), spring=(2, 0.1))  # distance
    + steps(4)
    + bytes([JOINT_LIMIT, 2]) + num(-1) + num(1) + bytes([JOINT_MOTOR, 0]) + num(8) + num(20)
    + bytes([JOINT_SPRING, 7]) + num(3) + num(1) + bytes([JOINT_ENABLE, 4, 1, JOINT_ENABLE, 1, 3])
    + steps(4) + bytes([DESTROY_JOINT, 0]) + call(DESTROY, 4) + bytes([JOINT_ENABLE, 2, 0]) + steps(3),
    # Shape queries (query_shape, overlap_shape, cast_shape): a turned box cast across the scene,
    # a capsule of group -1 dropped through the group -1 shapes, a triangle overlapping the wall
    # at the start, a chain cast diagonally, a cast with a zero translation; then more after a
    # body is destroyed. The filter comes from the call's byte (fuzz::filter_of).
    "seed_shape_casts": bytes([3]) + GROUND
    + body(shape(BOX, (1, 1)), (3, 1), static=True)
    + body(shape(CIRCLE, 0.5), (-3, 0.5), group=-1)
    + body([shape_def(shape(BOX, (0.5, 0.25)), group=-1),
            shape_def(shape(CIRCLE, 0.25), offset=(0.75, 0))], (0, 3))
    + steps(2)
    + call(QUERY_SHAPE, a=(-6, 1.5), b=(12, 0), x=0.5, byte=0x11) + shape(BOX, (0.5, 0.25))
    + call(QUERY_SHAPE, a=(0, 6), b=(0, -8), x=1.25, byte=0xF1) + shape(CAPSULE, 0.5, 0.25)
    + call(QUERY_SHAPE, a=(3, 1), x=0.25, byte=0x1F) + shape(POLYGON, (-0.5, 0), (0.5, 0), (0, 0.75))
    + call(QUERY_SHAPE, a=(-2, 3), b=(5, -2), x=-0.75, byte=0x13) + shape(CHAIN, (0, 0), (1, 0), (1, 1))
    + call(DESTROY, 2) + steps(2)
    + call(QUERY_SHAPE, a=(-6, 0.5), b=(10, 0), byte=0x11) + shape(CIRCLE, 0.375, radius=None),
}

if __name__ == "__main__":
    directory = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus", "api")
    for name, data in SEEDS.items():
        with open(os.path.join(directory, name + ".bin"), "wb") as f:
            f.write(data)
