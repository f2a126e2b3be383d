#!/usr/bin/env bash
# Runs the whole-scene benchmarks (bench/bench_scenes.cpp) and writes
# bench/results/<machine>.json (Google Benchmark's JSON), then prints a Markdown table of the
# minimum ms/step of the repetitions, with each run's state hash.
#
#   bench/run_benchmarks.sh [BUILD_DIR]        (default BUILD_DIR: build)
#   REPETITIONS=3        runs of each scene and thread count (the table shows the minimum)
#   STRUT_BENCH_STEPS=N  run N steps instead of each scene's Box2D step count (smoke runs)
#   MACHINE=name         file name under bench/results (default: CPU model and core count)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
reps=${REPETITIONS:-3}

if [ ! -x "$build/strut_bench" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build" --target strut_bench -j "$(nproc)"

if [ -z "${MACHINE:-}" ]; then
  cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- || true)
  [ -n "$cpu" ] || cpu=$(hostname)
  MACHINE=$(printf '%s-%scpu' "$cpu" "$(nproc)" | tr 'A-Z' 'a-z' | sed 's/([^)]*)//g; s/[^a-z0-9]\+/-/g; s/^-//; s/-$//')
fi
mkdir -p "$root/bench/results"
out="$root/bench/results/$MACHINE.json"

"$build/strut_bench" --benchmark_filter='^BM_Scene(TwoWorlds)?/' --benchmark_repetitions="$reps" \
  --benchmark_out="$out" --benchmark_out_format=json
echo "wrote $out"

# The table: minimum ms/step over the repetitions, per scene and thread count.
if command -v python3 >/dev/null; then
  python3 - "$out" <<'PY'
import json, sys
runs = [b for b in json.load(open(sys.argv[1]))["benchmarks"] if b.get("run_type") == "iteration"]
pairs = {}
for b in [b for b in runs if b["run_name"].startswith("BM_SceneTwoWorlds/")]:
    scene = b["run_name"].split("/")[1]
    pairs[scene] = min(pairs.get(scene, 1e30), b["ms_per_step"])
runs = [b for b in runs if b["run_name"].startswith("BM_Scene/")]
best = {}
for b in runs:
    _, scene, threads = b["run_name"].split("/")[:3]
    key = (scene, int(threads.split(":")[1]))
    h = "%08x%08x" % (int(b["hash_hi"]), int(b["hash_lo"]))
    ms = b["ms_per_step"]
    if key not in best or ms < best[key][0]:
        best[key] = (ms, h, int(b["steps"]), int(b["bodies"]))
scenes = list(dict.fromkeys(k[0] for k in best))
print("| scene | bodies at end | steps | ms/step, 1 thread | ms/step, 2 threads | speed-up | hash |")
print("|---|---:|---:|---:|---:|---:|---|")
for s in scenes:
    one, two = best.get((s, 1)), best.get((s, 2))
    hashes = {v[1] for v in (one, two) if v}
    hash_text = hashes.pop() if len(hashes) == 1 else "MISMATCH " + " ".join(sorted(hashes))
    print("| %s | %d | %d | %.2f | %.2f | %.2f | `%s` |" % (
        s, (one or two)[3], (one or two)[2], one[0] if one else float("nan"),
        two[0] if two else float("nan"), one[0] / two[0] if one and two else float("nan"),
        hash_text))
if pairs:
    print()
    print("Two worlds of the scene at once, one thread each (what the cores lose by running")
    print("together; the best 2 threads could give is 2 x 1-thread / this):")
    print()
    print("| scene | ms/step, 1 thread alone | ms/step, each of two at once | 2-thread ceiling | 2-thread speed-up |")
    print("|---|---:|---:|---:|---:|")
    for s, pair in pairs.items():
        one, two = best.get((s, 1)), best.get((s, 2))
        if one and two:
            print("| %s | %.2f | %.2f | %.2f | %.2f |" % (s, one[0], pair, 2 * one[0] / pair, one[0] / two[0]))
PY
fi
