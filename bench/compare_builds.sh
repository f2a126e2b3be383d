#!/usr/bin/env bash
# Two builds of strut side by side on this machine: each scene at each thread count, the two
# builds' `strut run` interleaved (old, new, old, new, ...), the minimum of RUNS wall-clock
# ms per step of each; prints a table with new / old (below 1: the new build is faster) and
# both final hashes. For changes measured before and after on the same day and machine.
#
#   bench/compare_builds.sh OLD_BUILD_DIR NEW_BUILD_DIR
#   THREADS="1 2"   thread counts (default "1 2")
#   RUNS=3          runs of each build, scene and thread count (at least 3)
#   SCENES="..."    scenes (default: the ten Box2D benchmark scenes, at their Box2D step counts)
set -euo pipefail
old=${1:?usage: compare_builds.sh OLD_BUILD_DIR NEW_BUILD_DIR}
new=${2:?usage: compare_builds.sh OLD_BUILD_DIR NEW_BUILD_DIR}
threads=${THREADS:-1 2}
runs=${RUNS:-3}
if [ "$runs" -lt 3 ]; then
  echo "RUNS=$runs: the comparison takes the minimum of at least 3 runs" >&2
  exit 2
fi
for b in "$old" "$new"; do
  [ -x "$b/strut" ] || { echo "$b/strut is not built" >&2; exit 2; }
done
# Box2D's benchmark step counts (../shared/BENCH_SCENES.md).
declare -A steps=([large_pyramid]=500 [many_pyramids]=200 [rain]=1000 [smash]=300 [spinner]=500
                  [tumbler]=750 [joint_grid]=500 [compounds]=500 [junkyard]=800 [washer]=500)
scenes=${SCENES:-large_pyramid many_pyramids rain smash spinner tumbler joint_grid compounds junkyard washer}

# ms per step and hash of one run: "ms hash".
one_run() {
  local out
  out=$("$1/strut" run "$2" --steps "$3" --threads "$4" 2>&1)
  local ms hash
  ms=$(echo "$out" | sed -n 's/.*(\([0-9.]*\) ms\/step wall clock).*/\1/p')
  hash=$(echo "$out" | sed -n 's/^hash: //p')
  echo "$ms $hash"
}

printf '| scene | threads | old ms | new ms | new / old | old hash | new hash |\n'
printf '|---|---:|---:|---:|---:|---|---|\n'
for scene in $scenes; do
  n=${steps[$scene]:-300}
  for t in $threads; do
    best_old=1e9 best_new=1e9 hash_old="" hash_new=""
    for ((r = 0; r < runs; r++)); do
      read -r ms hash_old < <(one_run "$old" "$scene" "$n" "$t")
      best_old=$(awk -v a="$best_old" -v b="$ms" 'BEGIN { print (b < a) ? b : a }')
      read -r ms hash_new < <(one_run "$new" "$scene" "$n" "$t")
      best_new=$(awk -v a="$best_new" -v b="$ms" 'BEGIN { print (b < a) ? b : a }')
    done
    ratio=$(awk -v a="$best_old" -v b="$best_new" 'BEGIN { printf "%.3f", b / a }')
    printf '| %s | %s | %s | %s | %s | `%s` | `%s` |\n' "$scene" "$t" "$best_old" "$best_new" \
      "$ratio" "$hash_old" "$hash_new"
  done
done
