#!/usr/bin/env python3
"""Reading and writing the state of many bodies as NumPy arrays: milliseconds per call of
positions(), angles(), velocities(), set_velocities() and apply_forces() on a world of N bodies
(circles on a grid, apart, no gravity), best of R calls.

    PYTHONPATH=build/python python3 bench/python/arrays_bench.py [--bodies N] [--repeats R]
"""
import argparse
import time

import numpy as np

import strut


def best_ms(call, repeats):
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - t)
    return 1000.0 * best


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bodies", type=int, default=100000)
    p.add_argument("--repeats", type=int, default=20)
    a = p.parse_args()
    side = int(np.ceil(np.sqrt(a.bodies)))
    bodies = [{"shape": "circle", "radius": 0.2, "center": [float(i % side), float(i // side)]}
              for i in range(a.bodies)]
    w = strut.build_scene({"world": {"gravity": [0, 0]}, "bodies": bodies}, threads=1)
    w.step()
    v = np.ones((a.bodies, 2), np.float32)
    print(f"{a.bodies} bodies, best of {a.repeats} calls, ms per call")
    for name, call in [("positions()", w.positions), ("angles()", w.angles),
                       ("velocities()", w.velocities),
                       ("set_velocities(v)", lambda: w.set_velocities(v)),
                       ("apply_forces(f)", lambda: w.apply_forces(v))]:
        print(f"  {name:20s} {best_ms(call, a.repeats):8.3f}")


if __name__ == "__main__":
    main()
