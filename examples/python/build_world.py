"""A world built from Python, one call a body or joint: a stack of five 1 m boxes on the ground
and a 2 m pendulum beside it. Prints the stack's height after 6 s (the boxes should stand: 4.5 m
to the top box's centre), the pendulum's period against 2 pi sqrt(L / g), and the state hash.

    PYTHONPATH=build/python python3 examples/python/build_world.py
"""
import math

import strut

GRAVITY = 10.0
ROD = 2.0
DT = 1 / 60


def build():
    world = strut.World(gravity=(0, -GRAVITY), dt=DT, threads=1)
    world.create_body(name="ground", type="static", center=(0, -1),
                      shape={"box": (20, 1), "friction": 0.8})
    for level in range(5):
        world.create_body(name="box%d" % level, center=(0, 0.5 + level),
                          shape={"box": (0.5, 0.5), "material": "wood"})
    world.create_body(name="pivot", type="static", center=(6, 6), shape={"box": (0.1, 0.1)})
    swing = 0.1  # rad: a small swing, for which the period is 2 pi sqrt(L / g)
    world.create_body(name="bob", center=(6 + ROD * math.sin(swing), 6 - ROD * math.cos(swing)),
                      shape={"circle": 0.05, "density": 50.0})
    world.create_joint("revolute", "pivot", "bob", anchor=(6, 6), name="rod")
    return world


def main():
    world = build()
    bob = world.body_names.index("bob")
    top = world.body_names.index("box4")
    crossings, x_before = [], float(world.positions()[bob, 0]) - 6
    for step in range(1, 361):
        world.step()
        x = float(world.positions()[bob, 0]) - 6
        if x_before > 0 >= x:  # through the bottom, towards -x
            crossings.append(step * DT)
        x_before = x
    print("stack top after 6 s: y = %.3f m (standing: 4.5)" % world.positions()[top, 1])
    period = crossings[1] - crossings[0]
    print("pendulum period: %.2f s (2 pi sqrt(L / g) = %.2f s)"
          % (period, 2 * math.pi * math.sqrt(ROD / GRAVITY)))
    print("hash:", world.hash())


if __name__ == "__main__":
    main()
