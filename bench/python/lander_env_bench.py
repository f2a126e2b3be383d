#!/usr/bin/env python3
"""strut.LanderEnv's speed: environment steps per second, observations and rewards computed,
stepped from Python (env.step with NumPy actions each step, as a learning loop does) and all in
C++ (env.run: the same actions without returning to Python), and Python's overhead over C++.

    PYTHONPATH=build/python python3 bench/python/lander_env_bench.py [--envs N] [--threads T]
        [--steps S] [--repeats R]
Each figure is the best of R runs of S steps after a warm-up; per core = the rate / threads.
"""
import argparse
import time

import numpy as np

import strut


def best_rate(run, steps, envs, repeats):
    best = 0.0
    for _ in range(repeats):
        t = time.perf_counter()
        run(steps)
        best = max(best, steps * envs / (time.perf_counter() - t))
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--envs", type=int, default=1024)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--repeats", type=int, default=3)
    a = p.parse_args()
    env = strut.LanderEnv(a.envs, threads=a.threads, seed=1)
    env.reset()
    rng = np.random.default_rng(1)
    actions = rng.uniform(-1, 1, (a.envs, 2)).astype(np.float32)

    def from_python(steps):
        for _ in range(steps):
            env.step(actions)

    def in_cpp(steps):
        env.run(actions, steps)

    from_python(20), in_cpp(20)  # warm-up
    py_rate = best_rate(from_python, a.steps, a.envs, a.repeats)
    cpp_rate = best_rate(in_cpp, a.steps, a.envs, a.repeats)
    print(f"envs {a.envs}, threads {a.threads}, best of {a.repeats} x {a.steps} steps")
    print(f"C++ (env.run)      {cpp_rate:12,.0f} env steps/s  {cpp_rate / a.threads:12,.0f} per core")
    print(f"Python (env.step)  {py_rate:12,.0f} env steps/s  {py_rate / a.threads:12,.0f} per core")
    print(f"Python's overhead  {100.0 * (cpp_rate / py_rate - 1.0):.1f} % of the C++ time")


if __name__ == "__main__":
    main()
