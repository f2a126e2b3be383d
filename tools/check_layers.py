#!/usr/bin/env python3
"""The engine's layers, lowest first, and the includes that go upward against them.

A file may include headers of its own layer or of lower ones. An include of a higher layer is an
upward include: the known ones are listed in tools/layer_exceptions.txt, and the check fails on
any upward include not listed there (a new one) and on any listed one that is gone (so the list
only shrinks: delete its line). Run by ctest (`layering`), so `.ci/run` runs it.

    tools/check_layers.py [--write] [--exceptions FILE]
    --write rewrites the exceptions list from the tree; --exceptions reads another list (the
    self-test gives an empty one, which must fail).
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXCEPTIONS = ROOT / "tools" / "layer_exceptions.txt"

# (layer, path prefixes), lowest first. A path takes the layer of its longest matching prefix.
LAYERS = [
    ("public", ["include/strut/"]),
    ("core", ["solver/core/"]),
    ("simd", ["solver/simd/"]),
    ("shapes", ["solver/shapes/"]),
    ("collide", ["solver/collide/"]),
    ("broadphase", ["broadphase/"]),
    ("bodies", ["solver/bodies/", "solver/colouring/", "solver/query/"]),
    ("constraints", ["solver/contacts/", "solver/joints/", "solver/soft/"]),
    # Islands are built from touching contacts and joints, and sleep and wake whole.
    ("islands", ["solver/islands/"]),
    ("step", ["solver/step/"]),
    ("world", ["solver/"]),
]
RANK = {name: i for i, (name, _) in enumerate(LAYERS)}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(path):
    best, best_len = None, -1
    for name, prefixes in LAYERS:
        for prefix in prefixes:
            if path.startswith(prefix) and len(prefix) > best_len:
                best, best_len = name, len(prefix)
    return best


def upward_includes():
    found = set()
    for top in ("solver", "broadphase"):
        for f in sorted((ROOT / top).rglob("*")):
            if f.suffix not in (".hpp", ".cpp"):
                continue
            path = f.relative_to(ROOT).as_posix()
            own = layer_of(path)
            for target in INCLUDE.findall(f.read_text()):
                header = target if not target.startswith("strut/") else "include/" + target
                theirs = layer_of(header)
                if own and theirs and RANK[theirs] > RANK[own]:
                    found.add(f"{path} -> {target}")
    return found


def main():
    global EXCEPTIONS
    if "--exceptions" in sys.argv:
        EXCEPTIONS = pathlib.Path(sys.argv[sys.argv.index("--exceptions") + 1]).resolve()
    found = upward_includes()
    if "--write" in sys.argv:
        EXCEPTIONS.write_text(
            "# Upward includes not yet removed (tools/check_layers.py). Delete a line when its\n"
            "# include is gone; never add one by hand.\n" + "".join(f"{e}\n" for e in sorted(found)))
        print(f"{len(found)} upward includes written to {EXCEPTIONS.relative_to(ROOT)}")
        return 0
    known = {line.strip() for line in EXCEPTIONS.read_text().splitlines()
             if line.strip() and not line.startswith("#")}
    new, gone = sorted(found - known), sorted(known - found)
    for e in new:
        print(f"upward include (a lower layer including a higher one): {e}")
    for e in gone:
        print(f"no longer an upward include, delete its line from {EXCEPTIONS.name}: {e}")
    print(f"{len(found)} upward includes known, {len(new)} new, {len(gone)} gone")
    return 1 if new or gone else 0


if __name__ == "__main__":
    sys.exit(main())
