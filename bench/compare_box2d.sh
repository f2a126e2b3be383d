#!/usr/bin/env bash
# strut beside Box2D v3, measured in one session on this machine: the scenes both programs have,
# run interleaved (strut, Box2D, strut, Box2D, ...) at each thread count, the minimum of RUNS runs
# of each, ms per step of steps 2..N (both programs run the first step untimed).
#
#   BOX2D_BENCH=/path/to/box2d/benchmark bench/compare_box2d.sh [BUILD_DIR]
#   THREADS="1 2"   thread counts (default "1 2")
#   RUNS=3          runs of each engine, scene and thread count (at least 3 is the rule)
#   SCENES="..."    scenes to compare (default: every scene both programs list)
#   MACHINE=name    result file name (default: CPU model and core count)
#
# BOX2D_BENCH is Box2D v3's own `benchmark` program, built by you outside this project (see
# ../shared/BENCH_SCENES.md or the README's Benchmarks section); nothing here builds it.
# Writes bench/results/box2d-<machine>-<date>.md (the table) and .csv (every run), and prints
# the table. The ratio is strut / Box2D: above 1, strut is slower.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
threads=${THREADS:-1 2}
runs=${RUNS:-3}

if [ -z "${BOX2D_BENCH:-}" ]; then
  echo "BOX2D_BENCH is not set: give the path of Box2D v3's built benchmark program;" \
    "nothing was compared." >&2
  exit 2
fi
if [ ! -x "$BOX2D_BENCH" ]; then
  echo "BOX2D_BENCH=$BOX2D_BENCH is not an executable file; nothing was compared." >&2
  exit 2
fi
if [ "$runs" -lt 3 ]; then
  echo "RUNS=$runs: the comparison takes the minimum of at least 3 runs of each" >&2
  exit 2
fi

if [ ! -x "$build/strut_bench" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build" --target strut_bench strut_cli >/dev/null

box2d_scenes=$("$BOX2D_BENCH" -l | awk 'NF == 2 && $1 ~ /^[0-9]+$/ { print $2 }')
strut_scenes=$("$build/strut" list)
if [ -z "${SCENES:-}" ]; then
  SCENES=$(comm -12 <(echo "$box2d_scenes" | sort) <(echo "$strut_scenes" | sort) | tr '\n' ' ')
fi

if [ -z "${MACHINE:-}" ]; then
  cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- || true)
  [ -n "$cpu" ] || cpu=$(hostname)
  MACHINE=$(printf '%s-%scpu' "$cpu" "$(nproc)" | tr 'A-Z' 'a-z' |
    sed 's/([^)]*)//g; s/[^a-z0-9]\+/-/g; s/^-//; s/-$//')
fi
stamp=$(date -u +%Y-%m-%d)
mkdir -p "$root/bench/results"
out="$root/bench/results/box2d-$MACHINE-$stamp"
work=$(mktemp -d)  # Box2D's program writes its own CSV files into the current directory
trap 'rm -rf "$work"' EXIT

# One strut run: prints "ms_per_step hash max_drop max_overlap lead_x".
strut_run() {
  "$build/strut_bench" --benchmark_filter="^BM_Scene/$1/threads:$2/" --benchmark_format=json \
    2>/dev/null | awk -F'[:,]' '
      /"ms_per_step"/ { ms = $2 } /"hash_hi"/ { hi = $2 } /"hash_lo"/ { lo = $2 }
      /"max_drop"/ { drop = $2 } /"max_overlap"/ { overlap = $2 } /"lead_x"/ { lead = $2 }
      END { if (ms == "") exit 1
            printf "%.4f %08x%08x %.4f %.4f %.2f\n", ms, hi, lo, drop, overlap, lead }'
}
# One Box2D run: prints its ms per step over steps 2..N.
box2d_run() {
  (cd "$work" && "$BOX2D_BENCH" -t="$2" -w="$2" -b="$1" -r=1) | awk '
    /steps = / { n = $NF } /^run 0 : / { ms = $4 }
    END { if (ms == "" || n < 2) exit 1; printf "%.4f\n", ms / (n - 1) }'
}

echo "engine,scene,threads,run,ms_per_step,hash,max_drop,max_overlap,lead_x" >"$out.csv"
for run in $(seq 1 "$runs"); do
  for scene in $SCENES; do
    for t in $threads; do
      s=$(strut_run "$scene" "$t") || { echo "strut failed on $scene" >&2; exit 1; }
      echo "strut,$scene,$t,$run,${s// /,}" >>"$out.csv"
      b=$(box2d_run "$scene" "$t") || { echo "Box2D failed on $scene" >&2; exit 1; }
      echo "box2d,$scene,$t,$run,$b,,,," >>"$out.csv"
      echo "run $run/$runs  $scene  threads $t  strut ${s%% *} ms  Box2D $b ms" >&2
    done
  done
done

# The table: minimum over the runs of each engine, scene and thread count. A scene whose
# description names a substitution does different work from Box2D's.
{
  echo "strut / Box2D v3 (\`$(basename "$BOX2D_BENCH")\`), $stamp, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores;"
  echo "minimum of $runs interleaved runs, ms per step of steps 2..N; ratio above 1: strut is slower."
  echo
  echo "| scene | threads | strut | Box2D | ratio | strut hash | same work as Box2D |"
  echo "|---|---:|---:|---:|---:|---|---|"
  for scene in $SCENES; do
    same="yes"
    if grep -q -E '"description": "[^"]*(Substitution|Difference)' "$root/scenes/$scene.json" 2>/dev/null; then
      same="no: see its description"
    fi
    for t in $threads; do
      awk -F, -v s="$scene" -v t="$t" -v same="$same" '
        $2 == s && $3 == t && $1 == "strut" { if (sm == "" || $5 < sm) sm = $5; h[$6] = 1 }
        $2 == s && $3 == t && $1 == "box2d" { if (bm == "" || $5 < bm) bm = $5 }
        END { hash = ""; for (k in h) hash = hash (hash == "" ? "" : " MISMATCH ") k
              printf "| %s | %d | %.2f | %.2f | %.2f | `%s` | %s |\n", s, t, sm, bm, sm / bm, hash, same }' "$out.csv"
    done
  done
  echo
  echo "strut's quality figures of the same runs (last run, 1 thread): largest drop of a dynamic"
  echo "body (m), deepest overlap (m), x of the first dynamic body at the end (m)."
  echo
  echo "| scene | max drop | max overlap | lead x |"
  echo "|---|---:|---:|---:|"
  for scene in $SCENES; do
    awk -F, -v s="$scene" '$1 == "strut" && $2 == s && $3 == 1 { d = $7; o = $8; x = $9 }
      END { printf "| %s | %.3f | %.4f | %.2f |\n", s, d, o, x }' "$out.csv"
  done
} >"$out.md"
# Every thread count must give the same hash.
for scene in $SCENES; do
  n=$(awk -F, -v s="$scene" '$1 == "strut" && $2 == s { print $6 }' "$out.csv" | sort -u | wc -l)
  [ "$n" -eq 1 ] || echo "HASH MISMATCH on $scene across runs or thread counts" | tee -a "$out.md" >&2
done
cat "$out.md"
echo "wrote $out.md and $out.csv" >&2
