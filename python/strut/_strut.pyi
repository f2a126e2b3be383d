"""Type stubs of strut._strut (python/src/), for editors and type checkers."""
from typing import Any, Optional, Sequence, Tuple, TypedDict, Union, overload

import numpy as np
import numpy.typing as npt

class Error(ValueError):
    """A strut error: the message names the call, the field and what was wrong."""

Point = Tuple[float, float]
Handle = Union[int, str]  # a body or joint: its index in order of creation, or its name
# A shape: exactly one of circle=radius, box=(hx, hy), capsule=half_length, polygon=[(x, y), ...],
# segment=((ax, ay), (bx, by)), chain=[(x, y), ...], or on a body concave_polygon=[(x, y), ...]
# (its convex pieces, each a shape of the body, dressed alike); radius (box, polygon: rounding; capsule:
# 0.25), loop (chain); on a body also offset, angle, material (a built-in name), density,
# friction, static_friction, restitution, friction_mix and restitution_mix ("default", "average",
# "min", "multiply", "max"), rolling_resistance, tangent_speed, category, mask, group, sensor,
# custom_filter, pre_solve (the C++ contact callbacks' flags), user_data.
ShapeDict = dict[str, Any]

class Hit(TypedDict):
    body: int
    shape: int  # its index on the body
    point: Point
    normal: Point
    fraction: float

class Capsule(TypedDict):
    a: Point  # the two centres, world coordinates
    b: Point
    radius: float

class Move(TypedDict):
    translation: Point  # the motion made
    capsule: Capsule  # where the move ended
    on_ground: bool
    ground_normal: Point
    ground_point: Point
    ground_body: Optional[int]  # None off the ground
    ground_shape: Optional[int]
    stepped: bool
    planes: npt.NDArray  # the surfaces met: (normal, point, body, shape)

def builtin_scene_names() -> list[str]: ...
def decompose_polygon(vertices: npt.ArrayLike) -> list[npt.NDArray[np.float32]]:
    """A simple polygon (3 to 1024 vertices, either winding) as convex pieces of at most 16
    vertices that tile it: (k, 2) arrays, counter-clockwise. strut.Error names the problem."""
def convex_hull(points: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """A point cloud's convex hull, (k, 2) counter-clockwise, cut to 16 vertices."""
def load_scene_text(text: str, threads: int = 0, label: str = "<scene>") -> World: ...
def load_scene(scene: str, threads: int = 0) -> World:
    """A scene file's path or a built-in scene's name -> World (threads: 0 = all cores)."""

class World:
    """A world, from a scene or built from Python; bodies and joints are in order of creation."""
    def __init__(self, *, gravity: Point = (0.0, -10.0), dt: float = 1 / 60, substeps: int = 4,
                 iterations: int = 1, joint_passes: int = 8, threads: int = 0,
                 enable_sleep: bool = True, sleep_time: float = 0.5, sleep_speed: float = 0.05,
                 restitution_threshold: float = 1.0, contact_slop: float = 0.005,
                 contact_hertz: float = 45.0, contact_damping_ratio: float = 10.0,
                 contact_push_max: float = 3.0, contact_cache: bool = True,
                 hit_event_threshold: float = 1.0, contact_events: bool = True) -> None:
        """An empty world with WorldConfig's fields, stepped by `dt`."""
    @property
    def dt(self) -> float: ...
    def create_body(self, *, shape: Optional[ShapeDict] = None,
                    shapes: Optional[Sequence[ShapeDict]] = None, name: str = "",
                    type: str = "dynamic", center: Point = (0.0, 0.0), angle: float = 0.0,
                    velocity: Point = (0.0, 0.0), angular_velocity: float = 0.0,
                    gravity_scale: float = 1.0, linear_drag: float = 0.0,
                    angular_drag: float = 0.0, fixed_rotation: bool = False,
                    lock_x: bool = False, lock_y: bool = False, bullet: bool = False,
                    soft: float = 0.0, enable_sleep: bool = True, awake: bool = True,
                    user_data: int = 0) -> int:
        """Creates a body (type 'dynamic', 'static' or 'kinematic') with one shape or several;
        returns its index. strut.Error naming the body and field, world unchanged, on bad
        input."""
    def add_shape(self, body: Handle, **shape: Any) -> int:
        """Adds a shape (a shape dict's keys as keywords); returns its index on the body (a
        concave_polygon: its first piece's, the others following)."""
    def remove_shape(self, body: Handle, shape: int) -> None: ...
    def create_joint(self, kind: str, a: Handle, b: Optional[Handle] = None, *, name: str = "",
                     force_threshold: float = float("inf"),
                     torque_threshold: float = float("inf"), **fields: Any) -> int:
        """A joint between a and b (a mouse joint: a alone); returns its index. kind and its
        fields: distance (anchor_a, anchor_b, length, min_length, max_length, spring,
        compliance), revolute (anchor, reference_angle, limit, motor, spring), prismatic (anchor,
        axis, limit, motor, spring), wheel (anchor, axis, spring, limit, motor), mouse (target,
        anchor, max_force, hertz, damping_ratio), motor (linear_offset, angular_offset,
        max_force, max_torque), weld (anchor, reference_angle, linear_hertz, angular_hertz,
        damping_ratio); all but mouse: collide. limit=(lower, upper), motor=(speed,
        max_effort), spring=(hertz, damping_ratio) or None."""
    def destroy_body(self, body: Handle) -> None:
        """Destroys a body and its joints; later indices move up one."""
    def destroy_joint(self, joint: Handle) -> None: ...
    def set_motion_locks(self, body: Handle, x: bool = False, y: bool = False,
                         rotation: bool = False) -> None: ...
    def motion_locks(self, body: Handle) -> Tuple[bool, bool, bool]:
        """(x, y, rotation): lock_x, lock_y and fixed_rotation now."""
    def set_joint_thresholds(self, joint: Handle, force: Optional[float] = None,
                             torque: Optional[float] = None) -> None: ...
    def joint_thresholds(self, joint: Handle) -> Tuple[float, float]:
        """(force, torque): the thresholds of joint events (N, N m; inf: none)."""
    def transform(self, body: Handle) -> Tuple[Point, float]:
        """((x, y), angle): the centre of mass and angle."""
    def origin_transform(self, body: Handle) -> Tuple[Point, float]:
        """((x, y), angle): the origin (the body's `center` when created) and angle."""
    def local_center(self, body: Handle) -> Point:
        """The centre of mass in the body's frame: the origin's offset to it."""
    def set_transform(self, body: Handle, position: Point, angle: float) -> None:
        """Teleports the centre of mass to `position`, turned to `angle`; keeps the velocity."""
    def set_origin_transform(self, body: Handle, origin: Point, angle: float) -> None:
        """Teleports the origin to `origin`, turned to `angle`; keeps the velocity."""
    def user_data(self, body: Handle) -> int: ...
    def set_user_data(self, body: Handle, value: int) -> None:
        """A whole number in [0, 2**64) strut only stores; copies and snapshots keep it."""
    def shape_user_data(self, body: Handle, shape: int = 0) -> int: ...
    def set_shape_user_data(self, body: Handle, shape: int, value: int) -> None: ...
    def joint_user_data(self, joint: Handle) -> int: ...
    def set_joint_user_data(self, joint: Handle, value: int) -> None: ...
    @property
    def body_names(self) -> list[str]: ...
    def __len__(self) -> int: ...
    def step(self, steps: int = 1) -> None: ...
    def hash(self) -> str: ...
    def positions(self) -> npt.NDArray[np.float32]: ...
    def angles(self) -> npt.NDArray[np.float32]: ...
    def velocities(self) -> npt.NDArray[np.float32]: ...
    def angular_velocities(self) -> npt.NDArray[np.float32]: ...
    def interpolated_poses(self, alpha: float) -> Tuple[npt.NDArray[np.float32],
                                                        npt.NDArray[np.float32]]:
        """(positions (n, 2), angles (n,)) between the pose before the last step (0) and now
        (1)."""
    def set_velocity(self, body: Handle, velocity: Point) -> None: ...
    def set_velocities(self, velocities: npt.ArrayLike, angular: Optional[npt.ArrayLike] = None,
                       bodies: Optional[npt.ArrayLike] = None) -> None: ...
    def apply_forces(self, forces: npt.ArrayLike, torques: Optional[npt.ArrayLike] = None,
                     bodies: Optional[npt.ArrayLike] = None) -> None: ...
    def set_motor_speeds(self, speeds: npt.ArrayLike) -> None: ...
    @property
    def joint_names(self) -> list[str]: ...
    def explode(self, position: Tuple[float, float], radius: float = 1.0, falloff: float = 0.0,
                impulse_per_length: float = 1.0, mask: int = 0xFFFFFFFF) -> None:
        """Pushes the shapes of dynamic bodies (whose category meets `mask`) away from
        `position` by impulse_per_length (N s/m) x their width facing it, in full out to
        `radius`, falling linearly to 0 at radius + falloff; negative pulls."""
    def ray_cast(self, start: Point, end: Point, mask: int = 0xFFFFFFFF) -> Optional[Hit]:
        """The first hit or None."""
    def ray_cast_all(self, start: Tuple[float, float], end: Tuple[float, float],
                     mask: int = 0xFFFFFFFF) -> npt.NDArray:
        """Every hit as a structured array (body, point, normal, fraction)."""
    def query_box(self, lower: Tuple[float, float], upper: Tuple[float, float],
                  mask: int = 0xFFFFFFFF) -> npt.NDArray[np.int32]: ...
    def query_point(self, point: Tuple[float, float],
                    mask: int = 0xFFFFFFFF) -> npt.NDArray[np.int32]: ...
    def cast_circle(self, center: Point, radius: float, translation: Point) -> Optional[Hit]: ...
    def cast_shape(self, shape: ShapeDict, start: Point, translation: Point, angle: float = 0.0,
                   category: int = 1, mask: int = 0xFFFFFFFF, group: int = 0) -> Optional[Hit]:
        """The first shape a shape dict's geometry, at `start` turned by `angle`, touches when
        moved by `translation` (fraction 0: overlapping at the start), or None."""
    def overlap_shape(self, shape: ShapeDict, position: Point, angle: float = 0.0,
                      category: int = 1, mask: int = 0xFFFFFFFF, group: int = 0) -> npt.NDArray:
        """The shapes it overlaps at `position`: a structured array (body, shape)."""
    def move_character(self, capsule: Capsule, translation: Point, *, up: Point = (0.0, 1.0),
                       max_slope: float = 0.7853982, step_height: float = 0.0,
                       snap_distance: float = 0.0, skin: float = 0.01, max_iterations: int = 8,
                       category: int = 1, mask: int = 0xFFFFFFFF, group: int = 0) -> Move:
        """Moves a character's capsule by `translation` as far as the world lets it, sliding
        along what it meets (World::move_character); the world is unchanged."""
    def events(self) -> dict[str, npt.NDArray]:
        """The events of every step of the last step(n) as structured arrays, each row with its
        step (the world's step count before it), bodies and joints by index (-1: none), shapes
        by index on their body (-1: removed since): contact_begin, contact_end (step, a, b,
        shape_a, shape_b, normal, point_count, points), contact_hit (step, a, b, point, normal,
        approach_speed), sensor_begin, sensor_end (step, sensor, visitor, sensor_shape,
        visitor_shape), joint (step, joint, force, torque)."""
    def body_contacts(self, body: Handle) -> npt.NDArray:
        """The body's touching pairs as the last step left them: a structured array (a, b,
        shape_a, shape_b, normal, point_count, points (2, 2), separations, normal_impulses,
        tangent_impulses (2,) each; impulses in N s over the step)."""
    def shape_contacts(self, body: Handle, shape: int = 0) -> npt.NDArray: ...
    def sensor_overlaps(self, body: Handle, shape: int = 0) -> npt.NDArray:
        """The shapes inside a sensor shape: a structured array (body, shape)."""
    def snapshot(self) -> bytes:
        """The world as bytes (those `strut run --snapshot-out` writes); from_snapshot continues
        bit-identically at any thread count."""
    @staticmethod
    def from_snapshot(data: bytes, threads: int = 0) -> World:
        """A World from snapshot bytes; strut.Error naming the bytes for a damaged one."""
    def copy(self) -> World:
        """A copy that continues exactly as this world does."""
    def __copy__(self) -> World: ...
    def __deepcopy__(self, memo: dict) -> World: ...
    @overload
    def restore(self, state: World) -> None:
        """This world becomes a copy of `state`, reusing its memory."""
    @overload
    def restore(self, state: bytes) -> None:
        """This world becomes the snapshot `state`, keeping its threads."""
    @property
    def threads(self) -> int: ...

class WorldBatch:
    """Worlds stepped side by side; each ends as if stepped alone."""
    def __init__(self, worlds: Sequence[World], threads: int = 0) -> None: ...
    def __len__(self) -> int: ...
    def step(self, steps: int = 1) -> None: ...
    def hashes(self) -> list[str]: ...
    def positions(self) -> npt.NDArray[np.float32]: ...
    def angles(self) -> npt.NDArray[np.float32]: ...
    def velocities(self) -> npt.NDArray[np.float32]: ...
    def angular_velocities(self) -> npt.NDArray[np.float32]: ...
    def reset(self, indices: Sequence[int], state: Union[World, bytes]) -> None:
        """The listed worlds (each once) become copies of `state` (a World or snapshot bytes),
        side by side."""
    def apply_forces(self, forces: npt.ArrayLike, torques: Optional[npt.ArrayLike] = None) -> None:
        """Forces (worlds, n, 2) and torques (worlds, n); zero rows for static bodies."""
    def set_motor_speeds(self, speeds: npt.ArrayLike) -> None:
        """Motor speeds (worlds, joints) of each world's scene joints."""

class FixedStepDriver:
    """The fixed-step loop over a World: advance(elapsed) runs the steps of the world's dt
    that are due, at most max_steps a call (a backlog beyond is dropped)."""
    def __init__(self, world: World, dt: Optional[float] = None, max_steps: int = 5) -> None: ...
    def advance(self, elapsed: float) -> int:
        """Runs the steps due after `elapsed` more seconds; returns how many."""
    @property
    def alpha(self) -> float:
        """The time left over, in steps (0 to 1), for interpolated poses."""
    @property
    def steps_last_advance(self) -> int: ...
    @property
    def dt(self) -> float: ...
    def interpolated_poses(self) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]: ...

class LanderEnv:
    """A lander task over `num_envs` worlds stepped side by side (tools/worlds/lander_env.hpp):
    observations (num_envs, 8): hull x, y from the pad, vx, vy, angle, angular velocity, left and
    right leg down; actions (num_envs, 2): main throttle in [0, 1], side in [-1, 1]. Episodes
    that end restart at once; info['episode_return'] and info['episode_length'] give the finished
    ones (0 elsewhere)."""
    observation_shape: Tuple[int]
    action_shape: Tuple[int]
    def __init__(self, num_envs: int, threads: int = 0, seed: int = 0,
                 max_steps: int = 1000) -> None: ...
    def __len__(self) -> int: ...
    def reset(self) -> Tuple[npt.NDArray[np.float32], dict]: ...
    def step(self, actions: npt.ArrayLike) -> Tuple[npt.NDArray[np.float32],
                                                     npt.NDArray[np.float32],
                                                     npt.NDArray[np.bool_],
                                                     npt.NDArray[np.bool_], dict]: ...
    def run(self, actions: npt.ArrayLike, steps: int) -> npt.NDArray[np.float32]:
        """The same actions for `steps` steps without returning to Python; summed rewards."""
