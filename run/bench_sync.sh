#!/bin/sh
# Persistent vs basic ghost synchronisation, measured side by side (runs interleaved) with the
# sync_only case; prints the medians and their ratio as a Markdown table.
# usage: run/bench_sync.sh [-n RANKS] [-r REPEATS] [section.key=value ...]
# env: MPIRUN (launcher, default "mpirun"), MPI_ARGS (extra launcher arguments), HYDRO (binary)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
hydro=${HYDRO:-$top/build/hydro}
mpirun_cmd=${MPIRUN:-mpirun}
ranks=2
repeats=7
while getopts n:r: opt; do
    case $opt in
    n) ranks=$OPTARG ;;
    r) repeats=$OPTARG ;;
    *) echo "usage: $0 [-n RANKS] [-r REPEATS] [section.key=value ...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
# About the MaHyCo bench's 19.5k owned cells per rank, 3 ghost layers, one sync per variable.
deck_args="mesh.nx=$((50 * ranks)) mesh.ny=20 mesh.nz=20 run.max_cycles=200 case.verify=false output.listing_period=0"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# slowest rank's sync seconds, from the cross-rank timer table: "  sync  min rank avg max rank"
. "$top/run/bench_lib.sh" # median, timer, peak, loop_max, sync_max

for i in $(seq "$repeats"); do
    for mode in persistent basic; do
        # shellcheck disable=SC2086
        $mpirun_cmd ${MPI_ARGS:-} -np "$ranks" "$hydro" "$top/inputs/sync_only.ini" $deck_args parallel.sync=$mode "$@" \
            > "$tmp/out"
        sync_max "$tmp/out" >> "$tmp/sync_$mode"
        loop_max "$tmp/out" >> "$tmp/loop_$mode"
    done
done
cells=$(sed -n 's/.*D hexes: \([0-9]*\) cells.*/\1/p' "$tmp/out")
sp=$(median < "$tmp/sync_persistent")
sb=$(median < "$tmp/sync_basic")
lp=$(median < "$tmp/loop_persistent")
lb=$(median < "$tmp/loop_basic")
echo "sync_only, $ranks ranks, $cells cells, 3 ghost layers, 200 cycles x 7 syncs (5 cell + 2 node variables, one per variable), $repeats interleaved repeats, medians of the slowest rank"
echo
echo "| mode | sync s | loop s | sync per cycle |"
echo "|---|---|---|---|"
awk -v s="$sp" -v l="$lp" 'BEGIN {printf "| persistent | %.4f | %.4f | %.1f us |\n", s, l, s / 200 * 1e6}'
awk -v s="$sb" -v l="$lb" 'BEGIN {printf "| basic | %.4f | %.4f | %.1f us |\n", s, l, s / 200 * 1e6}'
awk -v p="$sp" -v b="$sb" 'BEGIN {printf "| basic / persistent | %.3f | | |\n", b / p}'
