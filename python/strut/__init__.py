"""strut: a 2D physics engine (C++20), from Python.

Scenes are loaded by file path or built-in name (`load_scene`) and stepped as the `strut`
program steps them, or worlds are built from Python (`World(gravity=...)`, `create_body`,
`create_joint`); state comes back as NumPy arrays in scene order. Many worlds step side by
side in a `WorldBatch`; worlds are saved and restored exactly (`World.snapshot`, pickling).
`FixedStepDriver` runs a world from real elapsed time. `LanderEnv` is a vectorised lander
task for learning loops. `decompose_polygon` cuts a concave outline into convex pieces (a shape
dict's concave_polygon=[...] does it for a body) and `convex_hull` wraps a point cloud. Errors are `strut.Error`, a `ValueError` whose message names what was
wrong, as the C++ library's do. See docs/python.md.
"""
import json as _json

from ._strut import (Error, FixedStepDriver, LanderEnv, World, WorldBatch, builtin_scene_names,
                     convex_hull, decompose_polygon, load_scene, load_scene_text)


def build_scene(scene: dict, threads: int = 0) -> World:
    """A World from a scene given as Python data: a dict laid out as a scene file
    (docs/scene_format.md; "format" and "version" may be left out: version 2 is assumed).
    Errors name the key path, as for files."""
    if not isinstance(scene, dict):
        raise Error("build_scene: expected a dict laid out as a scene file, got %s"
                    % type(scene).__name__)
    document = {"format": "strut-scene", "version": 2}
    document.update(scene)
    try:
        text = _json.dumps(document, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise Error("build_scene: %s" % e) from None
    return load_scene_text(text, threads, "<scene>")

__all__ = ["Error", "FixedStepDriver", "LanderEnv", "World", "WorldBatch", "build_scene",
           "builtin_scene_names", "convex_hull", "decompose_polygon", "load_scene",
           "load_scene_text"]
