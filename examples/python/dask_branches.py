#!/usr/bin/env python3
"""Branches of one running world on a Dask cluster: a world is stepped here, pickled (its
snapshot) to the workers, and each worker continues it with another push of its last body; the results
come back as NumPy arrays, and each branch equals the same branch run here, bit for bit.

    PYTHONPATH=build/python python3 examples/python/dask_branches.py [--workers N] [--branches B]
Without --scheduler it starts a LocalCluster of N worker processes; with --scheduler ADDRESS it
uses that cluster (workers on other machines need the same build of strut).
"""
import argparse

import numpy as np
from distributed import Client, LocalCluster

import strut


def branch(world, push, steps):
    """Continues a copy of `world` (a worker holds one unpickled world for all its tasks) with
    its last body pushed sideways at `push` m/s."""
    world = world.copy()
    world.set_velocity(len(world) - 1, (push, 0.0))
    world.step(steps)
    return world.hash(), world.positions()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scene", default="tumbler")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--branches", type=int, default=8)
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--scheduler", default=None)
    a = p.parse_args()

    world = strut.load_scene(a.scene, threads=1)
    world.step(30)
    pushes = np.linspace(-2.0, 2.0, a.branches)
    if a.scheduler:
        client = Client(a.scheduler)
    else:
        client = Client(LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True,
                                     dashboard_address=None))
    with client:
        shared = client.scatter(world, broadcast=True)  # pickled once: World.snapshot()
        futures = client.map(branch, [shared] * a.branches, list(pushes), [a.steps] * a.branches)
        results = client.gather(futures)
    for push, (h, positions) in zip(pushes, results):
        local_hash, _ = branch(world, push, a.steps)
        same = "same as here" if h == local_hash else "DIFFERS from here"
        print(f"push {push:+.2f} m/s: hash {h}, last body at {positions[-1]}, {same}")
        if h != local_hash:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
