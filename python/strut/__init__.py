"""strut: a 2D physics engine (C++20), from Python.

Scenes are loaded by file path or built-in name (`load_scene`) and stepped as the `strut`
program steps them; state comes back as NumPy arrays in scene order. Many worlds step side by
side in a `WorldBatch`; worlds are saved and restored exactly (`World.snapshot`, pickling).
`LanderEnv` is a vectorised lander task for learning loops. Errors are `strut.Error`, a `ValueError` whose message names what was
wrong, as the C++ library's do. See docs/python.md.
"""
from ._strut import Error, LanderEnv, World, WorldBatch, builtin_scene_names, load_scene

__all__ = ["Error", "LanderEnv", "World", "WorldBatch", "builtin_scene_names", "load_scene"]
