"""The Python package against the strut program and against itself: the same hashes as
`strut run`, arrays of the documented shapes, errors as strut.Error naming the problem, batches
that end as each world stepped alone."""
import os
import sys
import subprocess
import threading
import time

import numpy as np
import pytest

import strut

CLI = os.environ.get("STRUT_CLI", "strut")


def cli_hash(scene, steps, threads):
    out = subprocess.run([CLI, "run", scene, "--steps", str(steps), "--threads", str(threads)],
                         capture_output=True, text=True, check=True).stdout
    return next(line.split()[1] for line in out.splitlines() if line.startswith("hash: "))


@pytest.mark.parametrize("scene", ["tumbler", "joint_grid", "rain"])
def test_hash_is_the_one_strut_run_prints(scene):
    w = strut.load_scene(scene, threads=2)
    w.step(40)
    assert w.hash() == cli_hash(scene, 40, 2)
    assert len(w.hash()) == 16


def test_same_bits_for_any_thread_count():
    hashes = set()
    for threads in (1, 2, 3):
        w = strut.load_scene("tumbler", threads=threads)
        w.step(30)
        hashes.add(w.hash())
    assert len(hashes) == 1


def test_arrays_have_the_documented_shapes_and_follow_the_physics():
    w = strut.load_scene("large_pyramid", threads=1)
    n = len(w)
    assert n == len(w.body_names)
    p, a, v, av = w.positions(), w.angles(), w.velocities(), w.angular_velocities()
    assert p.shape == (n, 2) and p.dtype == np.float32
    assert a.shape == (n,) and v.shape == (n, 2) and av.shape == (n,)
    assert np.all(np.isfinite(p))
    # A pyramid placed at rest stands: after 60 steps its bottom row has moved less than a
    # centimetre and its top (100 boxes up, compressed by the soft contacts beneath) has sagged
    # less than 0.4 m (0.34 m in the benchmark's quality figure) and not slid sideways.
    w.step(60)
    moved = np.abs(w.positions() - p)
    bottom = p[:, 1] < 1.0
    assert np.max(moved[bottom]) < 0.01
    top = int(np.argmax(p[:, 1]))
    assert moved[top, 1] < 0.4 and moved[top, 0] < 0.15


def test_set_velocity_by_index_moves_the_body_ballistically():
    w = strut.load_scene("large_pyramid", threads=1)
    top = int(np.argmax(w.positions()[:, 1]))  # the top box, nothing above it
    y0 = float(w.positions()[top, 1])
    w.set_velocity(top, (0.0, 6.0))
    assert np.allclose(w.velocities()[top], (0.0, 6.0))
    w.step(6)  # 0.1 s of free flight up: y = y0 + 6 t - 5 t^2 (within the substeps' error)
    assert float(w.positions()[top, 1]) == pytest.approx(y0 + 0.6 - 0.05, abs=0.01)


def test_explode_pushes_the_pyramid_top_away_from_the_blast():
    w = strut.load_scene("large_pyramid", threads=1)
    p = w.positions()
    top = int(np.argmax(p[:, 1]))  # a 1 m box (half extent 0.5), nothing above it
    above = (float(p[top, 0]), float(p[top, 1]) + 2.0)  # 1.5 m above its top face
    w.explode(above, radius=2.0, impulse_per_length=3.0)
    # Its top face (1 m wide) faces the blast: 3 N s straight down on a 1 kg box.
    assert w.velocities()[top] == pytest.approx((0.0, -3.0), abs=1e-4)
    with pytest.raises(strut.Error, match="explode: radius must not be negative"):
        w.explode(above, radius=-1.0)


def test_errors_are_value_errors_naming_the_problem():
    assert issubclass(strut.Error, ValueError)
    with pytest.raises(strut.Error, match="neither a file nor a built-in scene"):
        strut.load_scene("no_such_scene")
    w = strut.load_scene("tumbler", threads=1)
    with pytest.raises(strut.Error, match="body index 100000 is outside"):
        w.set_velocity(100000, (0, 0))
    with pytest.raises(strut.Error, match='no body is named "nobody"'):
        w.set_velocity("nobody", (0, 0))
    with pytest.raises(strut.Error, match="velocity is not a finite number"):
        w.set_velocity(1, (float("nan"), 0))
    with pytest.raises(strut.Error, match="steps must be at least 0"):
        w.step(-1)


def test_thread_counts_beyond_the_maximum_are_refused_as_in_cpp():
    bound = r"threads must be in \[0, 256\] \(0 = all cores\), got 257"
    with pytest.raises(strut.Error, match="load_scene: " + bound):
        strut.load_scene("tumbler", threads=257)
    with pytest.raises(strut.Error, match="World: " + bound):
        strut.World(threads=257)
    with pytest.raises(strut.Error, match="WorldBatch: " + bound):
        strut.WorldBatch([strut.load_scene("tumbler", threads=1)], threads=257)
    with pytest.raises(strut.Error, match="LanderEnv: " + bound):
        strut.LanderEnv(1, threads=257)
    data = strut.load_scene("tumbler", threads=1).snapshot()
    with pytest.raises(strut.Error, match="World.from_snapshot: " + bound):
        strut.World.from_snapshot(data, threads=257)


def test_scene_file_errors_name_the_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1, "bodies": [{"shape": {"box": [0, 1]}}]}')
    with pytest.raises(strut.Error, match="bad.json"):
        strut.load_scene(str(bad))


def test_batch_worlds_end_as_each_stepped_alone():
    names = ["tumbler", "rain", "joint_grid", "cloth"]
    alone = []
    for name in names:
        w = strut.load_scene(name, threads=1)
        w.step(25)
        alone.append(w.hash())
    for threads in (1, 2, 3):
        worlds = [strut.load_scene(name, threads=1) for name in names]
        batch = strut.WorldBatch(worlds, threads=threads)
        batch.step(25)
        assert batch.hashes() == alone
        assert [w.hash() for w in worlds] == alone
    with pytest.raises(strut.Error, match="are the same World"):
        strut.WorldBatch([worlds[0], worlds[0]])


def test_the_gil_is_released_while_stepping():
    w = strut.load_scene("large_pyramid", threads=1)
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    time.sleep(0.01)
    before = len(ticks)
    w.step(60)  # about 0.15 s of C++ work
    during = len(ticks) - before
    stop.set()
    t.join()
    assert during >= 10  # the Python thread ran while strut stepped


def test_batch_arrays_stack_the_worlds():
    worlds = [strut.load_scene("tumbler", threads=1) for _ in range(3)]
    batch = strut.WorldBatch(worlds, threads=2)
    worlds[1].set_velocity(5, (0.0, 3.0))  # one world differs
    batch.step(10)
    p = batch.positions()
    n = len(worlds[0])
    assert p.shape == (3, n, 2) and p.dtype == np.float32
    assert batch.angles().shape == (3, n) and batch.velocities().shape == (3, n, 2)
    assert batch.angular_velocities().shape == (3, n)
    for i, w in enumerate(worlds):
        assert np.array_equal(p[i], w.positions())
    assert np.array_equal(p[0], p[2]) and not np.array_equal(p[0], p[1])
    mixed = strut.WorldBatch([worlds[0], strut.load_scene("rain", threads=1)])
    with pytest.raises(strut.Error, match="world 1 has"):
        mixed.positions()


@pytest.mark.parametrize("scene", ["tumbler", "rain", "joint_grid"])
def test_snapshot_continues_exactly_and_matches_the_cli(scene, tmp_path):
    w = strut.load_scene(scene, threads=2)
    w.step(20)
    data = w.snapshot()
    assert isinstance(data, bytes) and data[:8] == b"STRUTSNP"
    resumed = strut.World.from_snapshot(data, threads=1)
    assert resumed.body_names == w.body_names
    np.testing.assert_array_equal(resumed.positions(), w.positions())
    w.step(15)
    resumed.step(15)
    assert resumed.hash() == w.hash()
    # The CLI runs the same bytes as a snapshot file.
    path = tmp_path / "w.snap"
    path.write_bytes(data)
    assert cli_hash(str(path), 15, 1) == w.hash()


def test_pickle_and_copy_keep_determinism():
    import copy
    import pickle
    w = strut.load_scene("tumbler", threads=1)
    w.step(10)
    twins = [pickle.loads(pickle.dumps(w)), w.copy(), copy.deepcopy(w)]
    w.step(25)
    for t in twins:
        t.step(25)
        assert t.hash() == w.hash()


def test_restore_from_a_world_or_bytes_and_batch_reset():
    start = strut.load_scene("tumbler", threads=1)
    start.step(5)
    saved = start.snapshot()
    reference = start.copy()
    worlds = [start.copy() for _ in range(4)]
    batch = strut.WorldBatch(worlds, threads=2)
    batch.step(12)
    batch.reset([1, 3], reference)
    worlds[0].restore(saved)
    worlds[2].restore(reference)
    assert len(set(batch.hashes())) == 1
    assert batch.hashes()[0] == reference.hash()
    with pytest.raises(strut.Error, match="index 7 is outside"):
        batch.reset([7], reference)
    with pytest.raises(strut.Error, match="listed twice"):
        batch.reset([1, 1], reference)


def test_damaged_snapshots_raise_naming_the_bytes():
    w = strut.load_scene("tumbler", threads=1)
    data = bytearray(w.snapshot())
    with pytest.raises(strut.Error, match=r"bytes 16-24: header: payload length"):
        strut.World.from_snapshot(bytes(data[: len(data) // 2]))
    data[100] ^= 1
    with pytest.raises(strut.Error, match=r"checksum mismatch"):
        strut.World.from_snapshot(bytes(data))
    with pytest.raises(strut.Error, match="not a strut snapshot"):
        strut.World.from_snapshot(b"hello world, this is not a snapshot at all")


def test_lander_env_has_the_vectorised_shape_and_restarts_episodes():
    env = strut.LanderEnv(num_envs=8, threads=2, seed=3, max_steps=200)
    obs, info = env.reset()
    assert obs.shape == (8, 8) and obs.dtype == np.float32 and info == {}
    assert strut.LanderEnv.observation_shape == (8,) and strut.LanderEnv.action_shape == (2,)
    returns = []
    for _ in range(400):
        obs, reward, terminated, truncated, info = env.step(np.zeros((8, 2), np.float32))
        assert reward.shape == (8,) and terminated.dtype == np.bool_ and truncated.dtype == np.bool_
        done = terminated | truncated
        returns += list(info["episode_return"][done])
        assert np.all(info["episode_length"][~done] == 0)
    assert len(returns) >= 8  # every lander's first episode ended (200 steps at most)
    # The same seed and actions give the same numbers, stepped from Python or all in C++.
    a, b = strut.LanderEnv(4, threads=1, seed=7), strut.LanderEnv(4, threads=2, seed=7)
    a.reset(), b.reset()
    actions = np.tile(np.array([[0.6, -0.2]], np.float32), (4, 1))
    summed = sum(a.step(actions)[1] for _ in range(50))
    np.testing.assert_allclose(b.run(actions, 50), summed, rtol=1e-5)
    with pytest.raises(strut.Error, match=r"actions must have shape \(4, 2\)"):
        a.step(np.zeros((3, 2), np.float32))
    bad = actions.copy()
    bad[2, 1] = np.nan
    with pytest.raises(strut.Error, match=r"actions\[2\]\[1\] is not a finite number"):
        a.step(bad)


def test_dask_workers_continue_pickled_worlds_exactly():
    # examples/python/dask_branches.py: a world pickled to two Dask worker processes, branched
    # there; each branch must equal the same branch run here.
    script = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python",
                          "dask_branches.py")
    out = subprocess.run([sys.executable, script, "--branches", "4", "--workers", "2"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.count("same as here") == 4


def test_events_are_the_last_steps_as_structured_arrays(tmp_path):
    # A ball dropped on a ground box: one begin event with its point under the ball, at the
    # step it lands; nothing the step after; the hit event's approach speed is about g t.
    scene = tmp_path / "drop.json"
    scene.write_text('{"format": "strut-scene", "version": 1, "world": {"dt": 0.01}, "bodies": ['
                     '{"name": "ground", "shape": "box", "center": [0, -1], '
                     '"half_extents": [5, 1], "static": true},'
                     '{"name": "ball", "shape": "circle", "center": [0, 2.25], "radius": 0.25}]}')
    w = strut.load_scene(str(scene), threads=1)
    begins = None
    for step in range(1, 200):
        w.step()
        ev = w.events()
        if len(ev["contact_begin"]):
            begins = ev
            break
    assert begins is not None
    e = begins["contact_begin"][0]
    assert {e["a"], e["b"]} == {0, 1} and e["point_count"] >= 1
    assert abs(e["points"][0][0]) < 0.01 and abs(e["points"][0][1]) < 0.02
    assert abs(abs(e["normal"][1]) - 1) < 1e-4
    hit = begins["contact_hit"]
    assert len(hit) == 1
    t = step * 0.01
    assert abs(hit[0]["approach_speed"] - 10 * t) < 0.25  # falling 2 m: about 6.3 m/s
    assert begins["joint"].dtype.names == ("step", "joint", "force", "torque")
    w.step()
    assert len(w.events()["contact_begin"]) == 0


def test_build_scene_from_a_dict_and_write_state_as_arrays():
    # Zero gravity: a 2 kg box pushed by (4, -2) N for 30 steps of 1/60 s reaches F t / m.
    w = strut.build_scene({
        "world": {"gravity": [0, 0], "dt": 1 / 60},
        "materials": {"heavy": {"density": 2.0}},
        "bodies": [
            {"name": "box", "shape": "box", "center": [0, 0], "half_extents": [0.5, 0.5],
             "material": "heavy"},
            {"name": "wall", "shape": "box", "center": [50, 0], "half_extents": [1, 1],
             "static": True},
            {"name": "wheel", "shape": "circle", "center": [-5, 0], "radius": 0.5},
        ],
        "joints": [{"name": "axle", "type": "revolute", "a": "wall", "b": "wheel",
                    "anchor": [-5, 0], "motor_speed": 0, "max_motor_torque": 1000}],
    }, threads=1)
    assert w.body_names == ["box", "wall", "wheel"] and w.joint_names == ["axle"]
    for _ in range(30):
        w.apply_forces(np.array([[4.0, -2.0]], np.float32), bodies=np.array([0]))
        w.step()
    np.testing.assert_allclose(w.velocities()[0], [4 * 0.5 / 2, -2 * 0.5 / 2], rtol=1e-4)
    w.set_motor_speeds(np.array([3.0], np.float32))
    w.step(30)
    assert abs(w.angular_velocities()[2] - 3.0) < 1e-3
    v = np.zeros((3, 2), np.float32)
    v[0] = (1.0, 2.0)
    with pytest.raises(strut.Error, match="body 1 is static"):
        w.set_velocities(v)
    w.set_velocities(v[[0, 2]], angular=np.array([0.5, 0.0], np.float32), bodies=np.array([0, 2]))
    np.testing.assert_allclose(w.velocities()[0], [1.0, 2.0])
    assert w.angular_velocities()[0] == pytest.approx(0.5)
    with pytest.raises(strut.Error, match=r"velocities must have shape \(3, 2\)"):
        w.set_velocities(np.zeros((2, 2), np.float32))
    bad = np.zeros((1, 2), np.float32)
    bad[0, 1] = np.inf
    with pytest.raises(strut.Error, match=r"forces\[0\] is not finite"):
        w.apply_forces(bad, bodies=np.array([0]))
    with pytest.raises(strut.Error, match="is not dynamic"):
        w.apply_forces(np.ones((1, 2), np.float32), bodies=np.array([1]))
    w.apply_forces(np.zeros((3, 2), np.float32))  # zero rows for the static body are fine
    with pytest.raises(strut.Error, match=r"bodies\[0\] = 7 is outside"):
        w.apply_forces(np.zeros((1, 2), np.float32), bodies=np.array([7]))
    with pytest.raises(strut.Error, match=r"<scene>: bodies\[0\].radius"):
        strut.build_scene({"bodies": [{"shape": "circle", "center": [0, 0], "radius": -1}]})


def test_batch_writes_and_resets_from_snapshot_bytes():
    base = strut.build_scene({
        "world": {"gravity": [0, 0]},
        "bodies": [{"shape": "circle", "center": [0, 0], "radius": 0.5},
                   {"shape": "box", "center": [5, 0], "half_extents": [1, 1], "static": True}]})
    start = base.snapshot()
    worlds = [strut.World.from_snapshot(start, threads=1) for _ in range(3)]
    batch = strut.WorldBatch(worlds, threads=2)
    forces = np.zeros((3, 2, 2), np.float32)
    forces[:, 0, 0] = [1.0, 2.0, 3.0]  # world i pushes its ball by i + 1 N
    batch.apply_forces(forces)
    batch.step(1)
    vx = batch.velocities()[:, 0, 0]
    assert vx[1] == pytest.approx(2 * vx[0], rel=1e-5) and vx[2] == pytest.approx(3 * vx[0], rel=1e-5)
    forces[1, 1, 0] = 1.0  # onto the static box: refused, nothing pushed anywhere
    with pytest.raises(strut.Error, match="world 1: body 1 is not dynamic"):
        batch.apply_forces(forces)
    with pytest.raises(strut.Error, match=r"forces must have shape \(3, 2, 2\)"):
        batch.apply_forces(np.zeros((2, 2, 2), np.float32))
    batch.reset([0, 2], start)
    hashes = batch.hashes()
    assert hashes[0] == hashes[2] == base.hash() != hashes[1]


def test_queries_name_bodies_by_scene_index():
    w = strut.build_scene({"world": {"gravity": [0, 0]}, "bodies": [
        {"name": "left", "shape": "box", "center": [-3, 0], "half_extents": [0.5, 0.5]},
        {"name": "right", "shape": "circle", "center": [3, 0], "radius": 1.0}]}, threads=1)
    hit = w.ray_cast((-10, 0), (10, 0))
    assert hit["body"] == 0 and hit["point"][0] == pytest.approx(-3.5, abs=1e-4)
    assert hit["normal"][0] == pytest.approx(-1.0, abs=1e-5)
    assert hit["fraction"] == pytest.approx(6.5 / 20, abs=1e-5)
    every = w.ray_cast_all((-10, 0), (10, 0))
    assert sorted(every["body"].tolist()) == [0, 1]
    assert w.ray_cast((-10, 5), (10, 5)) is None
    assert w.query_box((0, -1), (5, 1)).tolist() == [1]
    assert w.query_point((3.2, 0.1)).tolist() == [1] and len(w.query_point((0, 0))) == 0
    cast = w.cast_circle((-10, 0), 0.5, (20, 0))  # touches the box's left face at x = -3.5
    assert cast["body"] == 0 and cast["fraction"] == pytest.approx(6.0 / 20, abs=1e-4)
